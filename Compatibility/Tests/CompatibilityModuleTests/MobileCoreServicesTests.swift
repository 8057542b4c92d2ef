import Foundation
import MobileCoreServices
import Testing
import UserNotifications

@Suite("MobileCoreServices on Linux: the kUTType constants and the UTType C functions as iOS code calls them")
struct MobileCoreServicesTests {
    @Test("the constants are Apple's identifiers and cast to String")
    func constants() {
        #expect(kUTTypeJPEG as String == "public.jpeg")
        #expect(kUTTypePNG as String == "public.png")
        #expect(kUTTypeGIF as String == "com.compuserve.gif")
        #expect(kUTTypeImage as String == "public.image")
        #expect(kUTTypeAudio as String == "public.audio")
        #expect(kUTTypeMP3 as String == "public.mp3")
        #expect(kUTTypeMPEG4Audio as String == "public.mpeg-4-audio")
        #expect(kUTTypeWaveformAudio as String == "com.microsoft.waveform-audio")
        #expect(kUTTypeMovie as String == "public.movie")
        #expect(kUTTypeVideo as String == "public.video")
        #expect(kUTTypeMPEG4 as String == "public.mpeg-4")
        #expect(kUTTypeQuickTimeMovie as String == "com.apple.quicktime-movie")
        #expect(kUTTagClassMIMEType as String == "public.mime-type")
        #expect(kUTTagClassFilenameExtension as String == "public.filename-extension")
        #expect(String(kUTTypeJPEG) == UTType.jpeg.identifier)
    }

    @Test("identifier for a tag, preferred tag, conformance")
    func functions() {
        let mimeType = "image/png"
        let uti = UTTypeCreatePreferredIdentifierForTag(kUTTagClassMIMEType, mimeType as CFString, nil)?
            .takeRetainedValue()
        #expect(uti.map { $0 as String } == "public.png")
        let fromExtension = UTTypeCreatePreferredIdentifierForTag(kUTTagClassFilenameExtension, "jpg" as CFString, nil)?
            .takeRetainedValue()
        #expect(fromExtension.map { $0 as String } == "public.jpeg")
        #expect(
            UTTypeCopyPreferredTagWithClass(kUTTypeJPEG, kUTTagClassFilenameExtension)?.takeRetainedValue()
                as String? == "jpeg")
        #expect(
            UTTypeCopyPreferredTagWithClass(kUTTypeMP3, kUTTagClassMIMEType)?.takeRetainedValue() as String?
                == "audio/mpeg")
        #expect(UTTypeCopyPreferredTagWithClass(kUTTypeImage, kUTTagClassMIMEType) == nil)
        #expect(UTTypeConformsTo(kUTTypeJPEG, kUTTypeImage) && UTTypeConformsTo(kUTTypeMP3, kUTTypeAudio))
        #expect(UTTypeConformsTo(kUTTypeMPEG4, kUTTypeMovie) && !UTTypeConformsTo(kUTTypePNG, kUTTypeMovie))
        #expect(UTTypeConformsTo("com.example.x" as CFString, "com.example.x" as CFString))

        // No type claims the tag: a dynamic identifier, as on iOS.
        let unknown = UTTypeCreatePreferredIdentifierForTag(kUTTagClassMIMEType, "image/x-unknown" as CFString, nil)?
            .takeRetainedValue()
        #expect((unknown as String?)?.hasPrefix("dyn.") == true)
        #expect(unknown.map { UTTypeIsDynamic($0) && !UTTypeIsDeclared($0) } == true)
        // Among the types conforming to public.audio, "png" names none.
        let audio = UTTypeCreatePreferredIdentifierForTag(
            kUTTagClassFilenameExtension, "png" as CFString, kUTTypeAudio)?
            .takeRetainedValue()
        #expect(audio.map { UTTypeConformsTo($0, kUTTypeAudio) && !UTTypeConformsTo($0, kUTTypeImage) } == true)
        #expect(UTTypeCreatePreferredIdentifierForTag("public.nothing" as CFString, "png" as CFString, nil) == nil)
        let all =
            UTTypeCreateAllIdentifiersForTag(kUTTagClassFilenameExtension, "mp4" as CFString, nil)?
            .takeRetainedValue() as? [String]
        #expect(all == ["public.mpeg-4"])
    }

    @Test("a kUTType constant is a type hint UNNotificationAttachment reads")
    func typeHint() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("richpush-mcs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // A download without an extension: only the hint says what it is.
        let file = folder.appendingPathComponent("download")
        try Data(repeating: 1, count: 100).write(to: file)
        let attachment = try UNNotificationAttachment(
            identifier: "image", url: file, options: [UNNotificationAttachmentOptionsTypeHintKey: kUTTypeJPEG])
        defer { try? FileManager.default.removeItem(at: attachment.url) }
        #expect(attachment.type == "public.jpeg")

        let movie = folder.appendingPathComponent("clip")
        try Data(repeating: 1, count: 100).write(to: movie)
        let hinted = try UNNotificationAttachment(
            identifier: "movie", url: movie,
            options: [UNNotificationAttachmentOptionsTypeHintKey: kUTTypeMPEG4 as String])
        defer { try? FileManager.default.removeItem(at: hinted.url) }
        #expect(hinted.type == "public.mpeg-4")

        // A type iOS does not attach, as a hint, is refused as on iOS.
        let text = folder.appendingPathComponent("notes")
        try Data("x".utf8).write(to: text)
        #expect(throws: UNError.self) {
            _ = try UNNotificationAttachment(
                identifier: "t", url: text, options: [UNNotificationAttachmentOptionsTypeHintKey: kUTTypePlainText])
        }
    }
}
