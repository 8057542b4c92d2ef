@_exported import Foundation

/// A uniform type identifier, as Apple's `UniformTypeIdentifiers` framework has it (iOS 14): a type such as
/// `public.jpeg`, the types it conforms to (`public.image`, `public.data`, `public.item`, …) and its tags (filename
/// extensions, MIME types).
///
/// iOS reads the declarations from the system's type database; here they come from a table of the types
/// extension code deals with (images, audio, video, text: ``UTType/jpeg`` … ``UTType/plainText``). For the types
/// iOS attaches to notifications the filename extensions are exactly those `UNNotificationAttachment` recognises,
/// so a type found here for a file is the type the attachment gets.
///
/// As on iOS, a tag no declared type claims gives a *dynamic* type (`dyn.a…`, ``isDynamic``) conforming to the
/// supertype asked for (`public.data` by default) that keeps the tag; `UTType(_:)` gives such a type back from its
/// identifier. The `dyn.` identifiers are richpush's own encoding, not byte for byte Apple's.
public struct UTType: Hashable, Sendable, Codable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The type's identifier: `public.jpeg`, `com.compuserve.gif`, `dyn.a…`.
    public let identifier: String

    /// The declaration of a declared type, or what a dynamic type was made from.
    private let origin: Origin

    private enum Origin: Sendable {
        case declared(Declaration)
        case dynamic(conformsTo: String, tagClass: UTTagClass, tag: String)
    }

    private init(_ declaration: Declaration) {
        identifier = declaration.identifier
        origin = .declared(declaration)
    }

    private init(dynamicConformingTo supertype: String, tagClass: UTTagClass, tag: String) {
        identifier = DynamicIdentifier.encode(conformsTo: supertype, tagClass: tagClass, tag: tag)
        origin = .dynamic(conformsTo: supertype, tagClass: tagClass, tag: tag)
    }

    /// The type with this identifier, declared or dynamic; nil when the system does not know it (as on iOS).
    public init?(_ identifier: String) {
        if let declaration = Declaration.named(identifier) {
            self.init(declaration)
        } else if let dynamic = DynamicIdentifier.decode(identifier) {
            self.init(dynamicConformingTo: dynamic.conformsTo, tagClass: dynamic.tagClass, tag: dynamic.tag)
        } else {
            return nil
        }
    }

    /// The type of files with this extension (`"jpg"`, case does not matter, without the dot) among the types
    /// conforming to `public.data`; a dynamic type when none claims it. Nil for an empty extension.
    public init?(filenameExtension: String) {
        self.init(tag: filenameExtension, tagClass: .filenameExtension, conformingTo: .data)
    }

    /// The type of files with this extension among the types conforming to `supertype`; a dynamic type conforming
    /// to `supertype` when none claims it.
    public init?(filenameExtension: String, conformingTo supertype: UTType) {
        self.init(tag: filenameExtension, tagClass: .filenameExtension, conformingTo: supertype)
    }

    /// The type of content with this MIME type (`"image/jpeg"`, case does not matter) among the types conforming to
    /// `public.data`; a dynamic type when none claims it. Nil for an empty MIME type.
    public init?(mimeType: String) {
        self.init(tag: mimeType, tagClass: .mimeType, conformingTo: .data)
    }

    /// The type of content with this MIME type among the types conforming to `supertype`; a dynamic type conforming
    /// to `supertype` when none claims it.
    public init?(mimeType: String, conformingTo supertype: UTType) {
        self.init(tag: mimeType, tagClass: .mimeType, conformingTo: supertype)
    }

    /// The preferred type with this tag among the types conforming to `supertype` (nil: any type); a dynamic type
    /// when none claims it.
    public init?(tag: String, tagClass: UTTagClass, conformingTo supertype: UTType?) {
        guard !tag.isEmpty else { return nil }
        if let found = UTType.types(tag: tag, tagClass: tagClass, conformingTo: supertype).first {
            self = found
        } else {
            self.init(dynamicConformingTo: (supertype ?? .data).identifier, tagClass: tagClass, tag: tag.lowercased())
        }
    }

    /// A type the app declares in its Info.plist (`UTImportedTypeDeclarations`): the system's declaration when it
    /// has one, else a type of that identifier conforming to nothing.
    public init(importedAs identifier: String, conformingTo parentType: UTType? = nil) {
        if let known = UTType(identifier) {
            self = known
        } else {
            self.init(
                Declaration(
                    identifier, conformsTo: parentType.map { [$0.identifier] } ?? [], extensions: [], mimeTypes: [],
                    description: nil, declared: false))
        }
    }

    /// A type the app owns (`UTExportedTypeDeclarations`), as ``init(importedAs:conformingTo:)``.
    public init(exportedAs identifier: String, conformingTo parentType: UTType? = nil) {
        self.init(importedAs: identifier, conformingTo: parentType)
    }

    /// Every declared type with this tag that conforms to `supertype` (nil: any), the preferred first.
    public static func types(tag: String, tagClass: UTTagClass, conformingTo supertype: UTType?) -> [UTType] {
        let lowered = tag.lowercased()
        return Declaration.all
            .filter { $0.tags(tagClass).contains(lowered) }
            .map { UTType($0) }
            .filter { type in supertype.map { type.conforms(to: $0) } ?? true }
    }

    /// The filename extension the type prefers (`"jpeg"` for `public.jpeg`), without the dot.
    public var preferredFilenameExtension: String? { tags[.filenameExtension]?.first }

    /// The MIME type the type prefers (`"image/jpeg"` for `public.jpeg`).
    public var preferredMIMEType: String? { tags[.mimeType]?.first }

    /// The type's tags by class, the preferred first.
    public var tags: [UTTagClass: [String]] {
        switch origin {
        case .declared(let declaration):
            var tags: [UTTagClass: [String]] = [:]
            if !declaration.extensions.isEmpty { tags[.filenameExtension] = declaration.extensions }
            if !declaration.mimeTypes.isEmpty { tags[.mimeType] = declaration.mimeTypes }
            return tags
        case .dynamic(_, let tagClass, let tag):
            return [tagClass: [tag]]
        }
    }

    /// Whether the system declares the type (false for dynamic types and undeclared imported ones).
    public var isDeclared: Bool {
        if case .declared(let declaration) = origin { return declaration.declared }
        return false
    }

    /// Whether the system made the type up for a tag no declared type claims.
    public var isDynamic: Bool {
        if case .dynamic = origin { return true }
        return false
    }

    /// Whether the type is one of Apple's public types (`public.…`).
    public var isPublic: Bool { identifier.hasPrefix("public.") }

    /// A description of the type in English (`"JPEG image"`).
    public var localizedDescription: String? {
        if case .declared(let declaration) = origin { return declaration.description }
        return nil
    }

    /// Every type this type conforms to, directly or not, without itself.
    public var supertypes: Set<UTType> {
        var found: Set<UTType> = []
        var pending = directSupertypes
        while let next = pending.popLast() {
            guard found.insert(next).inserted else { continue }
            pending.append(contentsOf: next.directSupertypes)
        }
        return found
    }

    private var directSupertypes: [UTType] {
        switch origin {
        case .declared(let declaration): declaration.conformsTo.compactMap { UTType($0) }
        case .dynamic(let conformsTo, _, _): UTType(conformsTo).map { [$0] } ?? []
        }
    }

    /// Whether the type is `type` or conforms to it, directly or not (`public.jpeg` conforms to `public.image`,
    /// `public.data` and `public.item`).
    public func conforms(to type: UTType) -> Bool {
        self == type || supertypes.contains(type)
    }

    /// Whether the type conforms to `type` and is not it.
    public func isSubtype(of type: UTType) -> Bool { self != type && conforms(to: type) }

    /// Whether `type` conforms to this type and is not it.
    public func isSupertype(of type: UTType) -> Bool { type.isSubtype(of: self) }

    public var description: String { identifier }
    public var debugDescription: String { "\(identifier) (\(localizedDescription ?? "dynamic type"))" }

    public static func == (lhs: UTType, rhs: UTType) -> Bool { lhs.identifier == rhs.identifier }
    public func hash(into hasher: inout Hasher) { hasher.combine(identifier) }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let identifier = try container.decode(String.self)
        self = UTType(identifier) ?? UTType(importedAs: identifier)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(identifier)
    }
}

/// A class of tags: filename extensions or MIME types.
public struct UTTagClass: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// `public.filename-extension`.
    public static let filenameExtension = UTTagClass(rawValue: "public.filename-extension")
    /// `public.mime-type`.
    public static let mimeType = UTTagClass(rawValue: "public.mime-type")
}

/// `dyn.a…` identifiers: the supertype, tag class and tag of a dynamic type, in base 32 with Apple's alphabet.
enum DynamicIdentifier {
    private static let alphabet = Array("abcdefghkmnpqrstuvwxyz0123456789")

    static func encode(conformsTo supertype: String, tagClass: UTTagClass, tag: String) -> String {
        let payload = "?0=\(supertype):\(tagClass.rawValue)=\(tag)"
        var text = "dyn.a"
        var buffer = 0
        var bits = 0
        for byte in payload.utf8 {
            buffer = (buffer << 8) | Int(byte)
            bits += 8
            while bits >= 5 {
                bits -= 5
                text.append(alphabet[(buffer >> bits) & 31])
            }
        }
        if bits > 0 { text.append(alphabet[(buffer << (5 - bits)) & 31]) }
        return text
    }

    static func decode(_ identifier: String) -> (conformsTo: String, tagClass: UTTagClass, tag: String)? {
        guard identifier.hasPrefix("dyn.a") else { return nil }
        var bytes: [UInt8] = []
        var buffer = 0
        var bits = 0
        for character in identifier.dropFirst(5) {
            guard let value = alphabet.firstIndex(of: character) else { return nil }
            buffer = ((buffer << 5) | value) & 0xFFFF
            bits += 5
            if bits >= 8 {
                bits -= 8
                bytes.append(UInt8((buffer >> bits) & 0xFF))
            }
        }
        let payload = String(decoding: bytes, as: UTF8.self)
        guard payload.hasPrefix("?0="), let colon = payload.firstIndex(of: ":") else { return nil }
        let supertype = String(payload[payload.index(payload.startIndex, offsetBy: 3)..<colon])
        let rest = payload[payload.index(after: colon)...]
        guard let equals = rest.firstIndex(of: "=") else { return nil }
        let tagClass = UTTagClass(rawValue: String(rest[..<equals]))
        guard tagClass == .filenameExtension || tagClass == .mimeType else { return nil }
        return (supertype, tagClass, String(rest[rest.index(after: equals)...]))
    }
}
