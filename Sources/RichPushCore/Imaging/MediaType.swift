/// The media type of a `Content-Type` value.
public enum MediaType {
    /// What precedes the first `;`, without the spaces and tabs around it (HTTP's optional white space), lowercased:
    /// `" Image/PNG ; charset=x"` → `"image/png"`; empty when nothing precedes the `;`.
    ///
    /// Byte by byte rather than with Foundation's `trimmingCharacters`, which bridges through `NSString` and cost
    /// more than the rest of naming an attachment.
    public static func of(_ contentType: String) -> String {
        var type = contentType.utf8.prefix { $0 != UInt8(ascii: ";") }
        while let first = type.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") {
            type.removeFirst()
        }
        while let last = type.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") {
            type.removeLast()
        }
        return String(Substring(type)).lowercased()
    }
}
