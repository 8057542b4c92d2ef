import Foundation

/// The pieces the vendors' naming rules share: file extensions, names from URLs made safe, Apple's suggested file
/// name, the type a hint names.
public enum FileNaming {
    /// The extension of a file name: what follows its last dot, empty when there is none (or only a leading one).
    public static func fileExtension(of name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return String(name[name.index(after: dot)...])
    }

    /// A name from a payload made safe for a file name and a terminal: letters, digits, `.`, `-` and `_` only, at
    /// most 100 characters (the end is kept, with its extension).
    public static func sanitized(_ name: String) -> String {
        let safe = String(
            name.unicodeScalars.map { scalar -> Character in
                let allowed =
                    ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                    || scalar == "." || scalar == "-" || scalar == "_"
                return allowed ? Character(scalar) : "_"
            })
        return safe.count > 100 ? String(safe.suffix(100)) : safe
    }

    /// The URL's last path component, or its host when the path has none.
    public static func lastComponent(of url: URL) -> String {
        let last = url.lastPathComponent
        if !last.isEmpty, last != "/" { return last }
        return url.host ?? "unknown"
    }

    /// `URLResponse.suggestedFilename` as Apple documents it: the Content-Disposition's file name when the response
    /// has one, else the URL's last path component (its host when the path has none), with the MIME type's preferred
    /// extension appended when the name has none. Made safe with ``sanitized(_:)``.
    public static func suggestedFilename(url: URL, mediaType: String?, contentDisposition: String?) -> String {
        if let disposition = contentDisposition, let name = dispositionFilename(disposition), !name.isEmpty {
            return sanitized(name)
        }
        var name = sanitized(lastComponent(of: url))
        if fileExtension(of: name).isEmpty, let mediaType,
            let preferred = TypeDeclaration.preferredExtension(forMIMEType: mediaType)
        {
            name += ".\(preferred)"
        }
        return name
    }

    /// The `filename*` (RFC 5987, UTF-8 or ISO-8859-1, percent-encoded) or `filename` parameter of a
    /// Content-Disposition value; nil when it has neither. Only the last path component of the name is kept.
    public static func dispositionFilename(_ value: String) -> String? {
        var plain: String?
        var extended: String?
        for part in value.split(separator: ";").dropFirst() {
            guard let equals = part.firstIndex(of: "=") else { continue }
            let name = part[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            var text = part[part.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if name == "filename*" {
                // charset'language'percent-encoded
                let pieces = text.split(separator: "'", maxSplits: 2, omittingEmptySubsequences: false)
                if pieces.count == 3 { extended = String(pieces[2]).removingPercentEncoding }
            } else if name == "filename" {
                if text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") {
                    text = String(text.dropFirst().dropLast()).replacingOccurrences(of: "\\\"", with: "\"")
                }
                plain = text
            }
        }
        guard let found = extended ?? plain else { return nil }
        let last = found.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
        return last.isEmpty ? nil : last
    }

    /// The file extension iOS types an image attachment as when the extension passed `hint`; nil when the hint
    /// names no image type a notification shows.
    public static func imageExtension(forTypeHint hint: String) -> String? {
        guard let type = TypeDeclaration.named(hint), type.attachment == .image else { return nil }
        return type.preferredExtension
    }

    /// The type identifier of an image file extension iOS shows (`jpg` → `public.jpeg`).
    public static func imageType(forExtension fileExtension: String) -> String? {
        TypeDeclaration.declarations(forExtension: fileExtension).first { $0.attachment == .image }?.identifier
    }
}
