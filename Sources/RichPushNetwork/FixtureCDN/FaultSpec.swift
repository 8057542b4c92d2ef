import RichPushCore
import Foundation

/// Faults the fixture CDN injects, parsed from a request's query string (DESIGN.md "Fixture CDN URL grammar").
///
/// `https://fixtures.richpush.test/cat.png?delay=6s&type=text/html` — faults combine; query parameters that are
/// not fault names (e.g. cache busters `?v=2`) are ignored. Units:
/// - durations: `250ms`, `6s` (a unit is required);
/// - sizes: `512` (bytes), `512KB`, `11MB` (also `K`/`KiB`, `M`/`MiB`, `B`); 1 KB = 1024 bytes, 1 MB = 1024 KB,
///   the same megabyte as the 10 MB attachment cap, so `pad=11MB` is over it.
///
/// The order the CDN applies them in: `delay` (before anything is sent), `redirect` (a 302, the other faults kept
/// on the target URL), `status` (a non-2xx status answers with a short text body; a 2xx status serves the file),
/// then the body: the file, plus `pad` zero bytes, cut to `truncate` bytes, sent at `drip` bytes per second.
/// `type` replaces the Content-Type (`type=` with an empty value omits the header).
/// Content-Length is advertised for every body except a `drip` body, which is sent chunked without a length so
/// that clients must enforce their size cap while streaming.
public struct FaultSpec: Sendable, Equatable {
    /// Where a `redirect` fault points.
    public enum RedirectTarget: String, Sendable, Equatable {
        case http
        case https
    }

    /// How the Content-Type header is replaced.
    public enum ContentTypeOverride: Sendable, Equatable {
        /// `type=` with an empty value: no Content-Type header at all.
        case omit
        /// `type=text/html`: this exact header value.
        case value(String)
    }

    public var delay: Duration?
    public var status: Int?
    public var contentType: ContentTypeOverride?
    public var redirect: RedirectTarget?
    /// Bytes per second.
    public var drip: Int?
    /// Zero bytes appended to the file.
    public var pad: Int?
    /// Bytes of the (padded) body actually served.
    public var truncate: Int?

    public init(
        delay: Duration? = nil, status: Int? = nil, contentType: ContentTypeOverride? = nil,
        redirect: RedirectTarget? = nil, drip: Int? = nil, pad: Int? = nil, truncate: Int? = nil
    ) {
        self.delay = delay
        self.status = status
        self.contentType = contentType
        self.redirect = redirect
        self.drip = drip
        self.pad = pad
        self.truncate = truncate
    }

    /// The fault parameter names.
    public static let names: Set<String> = ["delay", "status", "type", "redirect", "drip", "pad", "truncate"]
    /// Longest accepted `delay`.
    public static let maxDelay: Duration = .seconds(120)
    /// Largest accepted `pad` / `truncate`.
    public static let maxSize = 256 * 1024 * 1024

    public var isEmpty: Bool { self == FaultSpec() }

    /// Parses the faults of a raw (percent-encoded) query string.
    public static func parse(query: String?) throws(FaultSpecError) -> FaultSpec {
        var spec = FaultSpec()
        var seen: Set<String> = []
        for (name, rawValue, decoded) in QueryString.parse(query) where names.contains(name) {
            guard let value = decoded else { throw FaultSpecError(name, rawValue, "bad percent-encoding") }
            guard seen.insert(name).inserted else { throw FaultSpecError(name, value, "the fault is given twice") }
            switch name {
            case "delay":
                spec.delay = try parseDuration(value, name: name)
                if let delay = spec.delay, delay > maxDelay {
                    throw FaultSpecError(name, value, "the longest delay is \(maxDelay)")
                }
            case "status":
                guard let code = Int(value), (200...599).contains(code) else {
                    throw FaultSpecError(name, value, "expected an HTTP status code from 200 to 599, like 404")
                }
                spec.status = code
            case "type":
                guard !value.contains(where: { $0.isNewline || $0 == "\0" }) else {
                    throw FaultSpecError(name, value, "a Content-Type cannot contain line breaks")
                }
                spec.contentType = value.isEmpty ? .omit : .value(value)
            case "redirect":
                guard let target = RedirectTarget(rawValue: value.lowercased()) else {
                    throw FaultSpecError(name, value, "expected http or https")
                }
                spec.redirect = target
            case "drip":
                let rate = try parseSize(value, name: name)
                guard rate > 0 else {
                    throw FaultSpecError(name, value, "the drip rate must be above 0 bytes per second")
                }
                spec.drip = rate
            case "pad":
                spec.pad = try parseSize(value, name: name)
            case "truncate":
                spec.truncate = try parseSize(value, name: name)
            default:
                break
            }
        }
        return spec
    }

    /// `250ms`, `6s` → a duration. A unit is required.
    public static func parseDuration(_ text: String, name: String = "delay") throws(FaultSpecError) -> Duration {
        let (number, unit) = split(text)
        guard !number.isEmpty, Int(number) != nil else {
            throw FaultSpecError(name, text, "expected a duration like 250ms or 6s")
        }
        switch unit.lowercased() {
        case "ms", "s":
            guard let duration = Duration(humanReadable: text) else {
                throw FaultSpecError(name, text, "expected a duration like 250ms or 6s")
            }
            return duration
        case "": throw FaultSpecError(name, text, "a duration needs a unit: 250ms or 6s")
        default: throw FaultSpecError(name, text, "unknown unit \"\(unit)\"; use ms or s, like 250ms or 6s")
        }
    }

    /// `512`, `512KB`, `11MB` → bytes (1 KB = 1024 bytes).
    public static func parseSize(_ text: String, name: String) throws(FaultSpecError) -> Int {
        let (number, unit) = split(text)
        guard let value = Int(number), value >= 0, number.count <= 12 else {
            throw FaultSpecError(name, text, "expected a size like 512, 512KB or 11MB")
        }
        let multiplier: Int
        switch unit.lowercased() {
        case "", "b": multiplier = 1
        case "k", "kb", "kib": multiplier = 1024
        case "m", "mb", "mib": multiplier = 1024 * 1024
        default: throw FaultSpecError(name, text, "unknown unit \"\(unit)\"; use a plain byte count, KB or MB")
        }
        let (bytes, overflow) = value.multipliedReportingOverflow(by: multiplier)
        guard !overflow, bytes <= maxSize else {
            throw FaultSpecError(name, text, "the largest size is \(maxSize / 1024 / 1024)MB")
        }
        return bytes
    }

    private static func split(_ text: String) -> (number: Substring, unit: Substring) {
        let trimmed = text[...]
        let digitsEnd = trimmed.firstIndex(where: { !$0.isASCII || !$0.isNumber }) ?? trimmed.endIndex
        return (trimmed[..<digitsEnd], trimmed[digitsEnd...])
    }
}

/// A fault parameter the CDN cannot use; served as a 400 with ``description`` as the body.
public struct FaultSpecError: Error, Sendable, Equatable, CustomStringConvertible {
    public var name: String
    public var value: String
    public var reason: String

    public init(_ name: String, _ value: String, _ reason: String) {
        self.name = name
        self.value = value
        self.reason = reason
    }

    public var description: String { "bad fault \(name)=\(value): \(reason)" }
}

/// Minimal `application/x-www-form-urlencoded` query parsing that keeps order and reports bad encodings.
enum QueryString {
    /// `(name, raw value, decoded value)` in order; the decoded value is nil when its percent-encoding is bad.
    static func parse(_ query: String?) -> [(name: String, rawValue: String, value: String?)] {
        guard let query, !query.isEmpty else { return [] }
        return query.split(separator: "&", omittingEmptySubsequences: true).map { item in
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let rawName = String(parts[0])
            let rawValue = parts.count > 1 ? String(parts[1]) : ""
            return (decode(rawName) ?? rawName, rawValue, decode(rawValue))
        }
    }

    /// Removes `name` from a raw query string, keeping the other items exactly as written.
    static func removing(_ name: String, from query: String?) -> String? {
        guard let query else { return nil }
        let kept = query.split(separator: "&", omittingEmptySubsequences: true).filter { item in
            let rawName = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)[0]
            return decode(String(rawName)) != name
        }
        return kept.isEmpty ? nil : kept.joined(separator: "&")
    }

    private static func decode(_ text: String) -> String? {
        // "+" stays a plus: `type=image/svg+xml` must keep it.
        text.removingPercentEncoding
    }
}
