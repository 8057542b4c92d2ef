@_exported import Foundation
@_exported import UniformTypeIdentifiers

/// Core Foundation's string, as the old type identifier API takes and returns it.
///
/// Linux's Foundation has no `CFString` in Swift: here it is `NSString`, which is a class (so `Unmanaged<CFString>`
/// works as on iOS) and bridges to and from `String` as iOS's `CFString` does: `kUTTypeJPEG as String`,
/// `mimeType as CFString`, `takeRetainedValue() as String`, and a `CFString` as the value of
/// `UNNotificationAttachmentOptionsTypeHintKey` is read back as the `String` it is.
public typealias CFString = NSString

/// Core Foundation's array, as ``UTTypeCreateAllIdentifiersForTag(_:_:_:)`` returns it: `NSArray` here.
public typealias CFArray = NSArray

// `nonisolated(unsafe)`: Linux's NSString is not marked Sendable, but these strings are immutable literals.

/// The tag class of filename extensions (`public.filename-extension`).
nonisolated(unsafe) public let kUTTagClassFilenameExtension: CFString = "public.filename-extension"
/// The tag class of MIME types (`public.mime-type`).
nonisolated(unsafe) public let kUTTagClassMIMEType: CFString = "public.mime-type"

// The type identifiers of `UTCoreTypes.h` (MobileCoreServices, deprecated in iOS 15 for `UTType`'s constants).
nonisolated(unsafe) public let kUTTypeItem: CFString = "public.item"
nonisolated(unsafe) public let kUTTypeContent: CFString = "public.content"
nonisolated(unsafe) public let kUTTypeCompositeContent: CFString = "public.composite-content"
nonisolated(unsafe) public let kUTTypeData: CFString = "public.data"
nonisolated(unsafe) public let kUTTypeArchive: CFString = "public.archive"
nonisolated(unsafe) public let kUTTypeURL: CFString = "public.url"
nonisolated(unsafe) public let kUTTypeImage: CFString = "public.image"
nonisolated(unsafe) public let kUTTypeJPEG: CFString = "public.jpeg"
nonisolated(unsafe) public let kUTTypePNG: CFString = "public.png"
nonisolated(unsafe) public let kUTTypeGIF: CFString = "com.compuserve.gif"
nonisolated(unsafe) public let kUTTypeTIFF: CFString = "public.tiff"
nonisolated(unsafe) public let kUTTypeBMP: CFString = "com.microsoft.bmp"
nonisolated(unsafe) public let kUTTypeICO: CFString = "com.microsoft.ico"
nonisolated(unsafe) public let kUTTypeScalableVectorGraphics: CFString = "public.svg-image"
nonisolated(unsafe) public let kUTTypeRawImage: CFString = "public.camera-raw-image"
nonisolated(unsafe) public let kUTTypeAudiovisualContent: CFString = "public.audiovisual-content"
nonisolated(unsafe) public let kUTTypeMovie: CFString = "public.movie"
nonisolated(unsafe) public let kUTTypeVideo: CFString = "public.video"
nonisolated(unsafe) public let kUTTypeAudio: CFString = "public.audio"
nonisolated(unsafe) public let kUTTypeMP3: CFString = "public.mp3"
nonisolated(unsafe) public let kUTTypeMPEG4Audio: CFString = "public.mpeg-4-audio"
nonisolated(unsafe) public let kUTTypeAppleProtectedMPEG4Audio: CFString = "com.apple.protected-mpeg-4-audio"
nonisolated(unsafe) public let kUTTypeWaveformAudio: CFString = "com.microsoft.waveform-audio"
nonisolated(unsafe) public let kUTTypeAudioInterchangeFileFormat: CFString = "public.aiff-audio"
nonisolated(unsafe) public let kUTTypeMPEG4: CFString = "public.mpeg-4"
nonisolated(unsafe) public let kUTTypeAppleProtectedMPEG4Video: CFString = "com.apple.protected-mpeg-4-video"
nonisolated(unsafe) public let kUTTypeQuickTimeMovie: CFString = "com.apple.quicktime-movie"
nonisolated(unsafe) public let kUTTypeMPEG: CFString = "public.mpeg"
nonisolated(unsafe) public let kUTTypeMPEG2Video: CFString = "public.mpeg-2-video"
nonisolated(unsafe) public let kUTTypeMPEG2TransportStream: CFString = "public.mpeg-2-transport-stream"
nonisolated(unsafe) public let kUTTypeAVIMovie: CFString = "public.avi"
nonisolated(unsafe) public let kUTTypeText: CFString = "public.text"
nonisolated(unsafe) public let kUTTypePlainText: CFString = "public.plain-text"
nonisolated(unsafe) public let kUTTypeUTF8PlainText: CFString = "public.utf8-plain-text"
nonisolated(unsafe) public let kUTTypeJSON: CFString = "public.json"
nonisolated(unsafe) public let kUTTypeHTML: CFString = "public.html"
nonisolated(unsafe) public let kUTTypeXML: CFString = "public.xml"
nonisolated(unsafe) public let kUTTypePDF: CFString = "com.adobe.pdf"
nonisolated(unsafe) public let kUTTypeZipArchive: CFString = "public.zip-archive"

/// The preferred type identifier for a tag (`kUTTagClassMIMEType`, `"image/jpeg"` → `public.jpeg`) among the types
/// conforming to `inConformingToUTI` (nil: any type); as on iOS, a dynamic identifier (`dyn.a…`) when no type
/// claims the tag, nil for an unknown tag class. The result is retained: `takeRetainedValue()`.
public func UTTypeCreatePreferredIdentifierForTag(
    _ inTagClass: CFString, _ inTag: CFString, _ inConformingToUTI: CFString?
) -> Unmanaged<CFString>? {
    guard let tagClass = tagClass(inTagClass) else { return nil }
    let supertype = inConformingToUTI.flatMap { UTType($0 as String) }
    guard let type = UTType(tag: inTag as String, tagClass: tagClass, conformingTo: supertype) else { return nil }
    return .passRetained(type.identifier as CFString)
}

/// Every declared type identifier for a tag among the types conforming to `inConformingToUTI`; the dynamic one
/// alone when none claims it.
public func UTTypeCreateAllIdentifiersForTag(
    _ inTagClass: CFString, _ inTag: CFString, _ inConformingToUTI: CFString?
) -> Unmanaged<CFArray>? {
    guard let tagClass = tagClass(inTagClass) else { return nil }
    let supertype = inConformingToUTI.flatMap { UTType($0 as String) }
    var identifiers = UTType.types(tag: inTag as String, tagClass: tagClass, conformingTo: supertype).map {
        $0.identifier
    }
    if identifiers.isEmpty, let dynamic = UTType(tag: inTag as String, tagClass: tagClass, conformingTo: supertype) {
        identifiers = [dynamic.identifier]
    }
    return .passRetained(NSArray(array: identifiers.map { $0 as CFString }))
}

/// The type's preferred tag of a class (`public.jpeg`, `kUTTagClassFilenameExtension` → `"jpeg"`); nil when it has
/// none. The result is retained: `takeRetainedValue()`.
public func UTTypeCopyPreferredTagWithClass(_ inUTI: CFString, _ inTagClass: CFString) -> Unmanaged<CFString>? {
    guard let tagClass = tagClass(inTagClass), let tag = UTType(inUTI as String)?.tags[tagClass]?.first else {
        return nil
    }
    return .passRetained(tag as CFString)
}

/// Every tag of a class the type has, the preferred first; nil when it has none.
public func UTTypeCopyAllTagsWithClass(_ inUTI: CFString, _ inTagClass: CFString) -> Unmanaged<CFArray>? {
    guard let tagClass = tagClass(inTagClass), let tags = UTType(inUTI as String)?.tags[tagClass] else {
        return nil
    }
    return .passRetained(NSArray(array: tags.map { $0 as CFString }))
}

/// Whether the type is the other or conforms to it (`public.jpeg` conforms to `public.image`). Two unknown
/// identifiers conform only when they are equal.
public func UTTypeConformsTo(_ inUTI: CFString, _ inConformsToUTI: CFString) -> Bool {
    if UTTypeEqual(inUTI, inConformsToUTI) { return true }
    guard let type = UTType(inUTI as String), let other = UTType(inConformsToUTI as String) else { return false }
    return type.conforms(to: other)
}

/// Whether two type identifiers are the same (case does not matter).
public func UTTypeEqual(_ inUTI1: CFString, _ inUTI2: CFString) -> Bool {
    (inUTI1 as String).lowercased() == (inUTI2 as String).lowercased()
}

/// Whether the system declares the type.
public func UTTypeIsDeclared(_ inUTI: CFString) -> Bool { UTType(inUTI as String)?.isDeclared ?? false }

/// Whether the identifier is a dynamic one (`dyn.…`).
public func UTTypeIsDynamic(_ inUTI: CFString) -> Bool { (inUTI as String).hasPrefix("dyn.") }

/// The type's description in English (`"JPEG image"`); nil for an unknown or dynamic type.
public func UTTypeCopyDescription(_ inUTI: CFString) -> Unmanaged<CFString>? {
    guard let description = UTType(inUTI as String)?.localizedDescription else { return nil }
    return .passRetained(description as CFString)
}

private func tagClass(_ name: CFString) -> UTTagClass? {
    switch name as String {
    case UTTagClass.filenameExtension.rawValue: .filenameExtension
    case UTTagClass.mimeType.rawValue: .mimeType
    default: nil
    }
}
