import RichPushCore
import Foundation

/// Faults the fixture CDN injects, parsed from a request's query string (the README's "The fixture CDN").
///
/// `https://fixtures.richpush.test/cat.png?delay=6s&type=text/html` — faults combine. Other query parameters are
/// ignored, as a CDN ignores what it does not know (`v=2`, `w=600`, a signed URL's `Expires` and `Signature`), except
/// a near miss of a fault name (``nearMiss(of:)``: `dealy=6s`, `Delay=6s`), which is refused naming the fault, so
/// that a mistyped fault never silently does nothing.
/// Units:
/// - durations: what the command line accepts (``Duration/init(humanReadable:)``): `250ms`, `6s`, `1.5s`;
///   a unit is required;
/// - sizes: ``ByteSize``: `512` (bytes), `512KB`, `11MB` (also `K`/`KiB`, `M`/`MiB`, `B`); 1 KB = 1024 bytes,
///   1 MB = 1024 KB, the same megabyte as the 10 MB attachment cap, so `pad=11MB` is over it.
///
/// The order the CDN applies them in: `delay` (before anything is sent), `redirect` (a 302, the other faults kept
/// on the target URL), `status` (a non-2xx status answers with a short text body, except 204, 205 and 304, which
/// never have a body; a 2xx status serves the file), then the body: the file, plus `pad` zero bytes, cut to
/// `truncate` bytes, sent at `drip` bytes per second. `type` replaces the Content-Type (`type=` with an empty value
/// omits the header); it must be a valid header value (printable ASCII, no control characters).
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

    /// The fault parameter names, in the order the documentation lists them.
    public static let orderedNames = ["delay", "status", "type", "redirect", "drip", "pad", "truncate"]
    /// The fault parameter names.
    public static let names = Set(orderedNames)
    /// Longest accepted `delay`.
    public static let maxDelay: Duration = .seconds(120)
    /// Largest accepted `pad` / `truncate`.
    public static let maxSize = 256 * 1024 * 1024
    /// Statuses whose responses never have a body (RFC 9110): the CDN sends none, whatever else is asked.
    public static let bodilessStatuses: Set<Int> = [204, 205, 304]

    public var isEmpty: Bool { self == FaultSpec() }

    /// Parses the faults of a raw (percent-encoded) query string.
    public static func parse(query: String?) throws(FaultSpecError) -> FaultSpec {
        var spec = FaultSpec()
        var seen: Set<String> = []
        // A `+` stays a plus (the fixture URL grammar): `type=image/svg+xml` keeps it.
        for field in FormEncoding.fields(in: query ?? "") {
            let rawValue = field.rawValue
            let name = FormEncoding.decode(field.rawName, plus: .plus) ?? field.rawName
            let decoded = FormEncoding.decode(rawValue, plus: .plus)
            guard names.contains(name) else {
                if let fault = nearMiss(of: name) {
                    throw FaultSpecError(name, decoded ?? rawValue, "there is no such fault; did you mean `\(fault)`?")
                }
                continue
            }
            guard let value = decoded else { throw FaultSpecError(name, rawValue, "bad percent-encoding") }
            guard seen.insert(name).inserted else { throw FaultSpecError(name, value, "the fault is given twice") }
            switch name {
            case "delay":
                spec.delay = try parseDuration(value, name: name)
                if let delay = spec.delay, delay > maxDelay {
                    throw FaultSpecError(name, value, "the longest delay is \(maxDelay.shortDescription)")
                }
            case "status":
                guard value.allSatisfy({ $0.isASCII && $0.isNumber }), let code = Int(value), (200...599).contains(code)
                else {
                    throw FaultSpecError(name, value, "expected an HTTP status code from 200 to 599, like 404")
                }
                spec.status = code
            case "type":
                if let problem = headerValueProblem(value) { throw FaultSpecError(name, value, problem) }
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

    /// The fault that a parameter name which is none is a near miss of, nil when it is none's: the name in other
    /// letter case, or within two edits of it (a letter added, dropped or replaced, or two neighbouring letters
    /// swapped). For the names of four letters or fewer (`pad`, `type`, `drip`), one edit that replaces no letter:
    /// more would take parameters image URLs carry for a typo (`bad`, `page`, `crop`, `dpr`). The closest fault wins,
    /// the first listed on a tie.
    public static func nearMiss(of name: String) -> String? {
        let written = Array(name.lowercased().unicodeScalars)
        var best: (fault: String, edits: Int)?
        for fault in orderedNames {
            let short = fault.count <= 4
            let allowed = short ? 1 : 2
            guard abs(written.count - fault.count) <= allowed else { continue }
            let edits = EditDistance.between(written, Array(fault.unicodeScalars), replacement: short ? 2 : 1)
            if edits <= allowed, edits < (best?.edits ?? .max) { best = (fault, edits) }
        }
        return best?.fault
    }

    /// `250ms`, `6s`, `1.5s` → a duration: exactly what the command line accepts. A unit is required.
    public static func parseDuration(_ text: String, name: String = "delay") throws(FaultSpecError) -> Duration {
        if let duration = Duration(humanReadable: text) { return duration }
        let number = text.prefix(while: { $0.isASCII && ($0.isNumber || $0 == ".") })
        let unit = text[number.endIndex...]
        guard !number.isEmpty, Double(number) != nil else {
            throw FaultSpecError(name, text, "expected a duration like 250ms, 1.5s or 6s")
        }
        switch unit.lowercased() {
        case "": throw FaultSpecError(name, text, "a duration needs a unit: 250ms or 6s")
        case "ms", "s": throw FaultSpecError(name, text, "the duration is too long")
        default: throw FaultSpecError(name, text, "unknown unit \"\(unit)\"; use ms or s, like 250ms or 6s")
        }
    }

    /// `512`, `512KB`, `11MB` → bytes (1 KB = 1024 bytes), at most ``maxSize``. Parsing is ``ByteSize``'s; this
    /// adds the fault's name to the message and the size limit.
    public static func parseSize(_ text: String, name: String) throws(FaultSpecError) -> Int {
        let bytes: Int
        do {
            bytes = try ByteSize.bytes(in: text)
        } catch .tooLarge {
            throw FaultSpecError(name, text, "the largest size is \(ByteSize.describe(maxSize))")
        } catch {
            throw FaultSpecError(name, text, error.description)
        }
        guard bytes <= maxSize else {
            throw FaultSpecError(name, text, "the largest size is \(ByteSize.describe(maxSize))")
        }
        return bytes
    }

    /// Why `value` cannot be sent as a header value, or nil when it can: printable ASCII and inner spaces or tabs
    /// only (RFC 9110 field-value), so no control character or line break ever reaches a response header.
    static func headerValueProblem(_ value: String) -> String? {
        for scalar in value.unicodeScalars {
            let code = scalar.value
            if code == 0x20 || code == 0x09 || (0x21...0x7E).contains(code) { continue }
            let hex = String(code, radix: 16, uppercase: true)
            let shown = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            if code < 0x20 || code == 0x7F {
                return "a Content-Type cannot contain control characters (found \(shown))"
            }
            return "a Content-Type must be printable ASCII (found \(shown))"
        }
        if let first = value.unicodeScalars.first, let last = value.unicodeScalars.last,
            [" ", "\t"].contains(first) || [" ", "\t"].contains(last)
        {
            return "a Content-Type cannot start or end with white space"
        }
        return nil
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

    /// `bad fault NAME=VALUE: REASON`, with control characters of the name and value shown as `\u{1B}`, so the
    /// message is safe to print and to send back.
    public var description: String { "bad fault \(Self.printable(name))=\(Self.printable(value)): \(reason)" }

    private static func printable(_ text: String) -> String {
        var shown = ""
        for scalar in text.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .unassigned, .privateUse:
                shown += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default:
                shown.unicodeScalars.append(scalar)
            }
        }
        return shown
    }
}
