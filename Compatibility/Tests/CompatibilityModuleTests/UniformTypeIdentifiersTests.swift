import Foundation
import RichPushRules
import Testing
import UniformTypeIdentifiers

@testable import UserNotifications

@Suite("UniformTypeIdentifiers on Linux: Apple's identifiers, tags and conformance")
struct UniformTypeIdentifiersTests {
    @Test("the constants have Apple's identifiers")
    func identifiers() {
        let expected: [(UTType, String)] = [
            (.item, "public.item"), (.content, "public.content"), (.data, "public.data"), (.image, "public.image"),
            (.jpeg, "public.jpeg"), (.png, "public.png"), (.gif, "com.compuserve.gif"), (.heic, "public.heic"),
            (.heif, "public.heif"), (.webP, "org.webmproject.webp"), (.tiff, "public.tiff"),
            (.bmp, "com.microsoft.bmp"), (.svg, "public.svg-image"), (.audio, "public.audio"), (.mp3, "public.mp3"),
            (.mpeg4Audio, "public.mpeg-4-audio"), (.wav, "com.microsoft.waveform-audio"), (.aiff, "public.aiff-audio"),
            (.audiovisualContent, "public.audiovisual-content"), (.movie, "public.movie"), (.video, "public.video"),
            (.mpeg4Movie, "public.mpeg-4"), (.quickTimeMovie, "com.apple.quicktime-movie"), (.mpeg, "public.mpeg"),
            (.mpeg2Video, "public.mpeg-2-video"), (.avi, "public.avi"), (.json, "public.json"),
            (.plainText, "public.plain-text"), (.text, "public.text"),
        ]
        for (type, identifier) in expected {
            #expect(type.identifier == identifier)
            #expect(type.isDeclared && !type.isDynamic)
            #expect(UTType(identifier) == type)
        }
        #expect(UTType("com.example.unknown") == nil, "an identifier the system does not know is nil, as on iOS")
    }

    @Test("types from filename extensions and MIME types, and their preferred tags")
    func tags() throws {
        #expect(UTType(filenameExtension: "jpg") == .jpeg)
        #expect(UTType(filenameExtension: "JPEG") == .jpeg)
        #expect(UTType(filenameExtension: "png")?.preferredMIMEType == "image/png")
        #expect(UTType(filenameExtension: "m4a") == .mpeg4Audio)
        #expect(UTType(filenameExtension: "mov") == .quickTimeMovie)
        #expect(UTType(mimeType: "image/jpeg") == .jpeg)
        #expect(UTType(mimeType: "IMAGE/GIF") == .gif)
        #expect(UTType(mimeType: "audio/mpeg") == .mp3)
        #expect(UTType(mimeType: "video/mp4") == .mpeg4Movie)
        #expect(UTType(mimeType: "image/webp")?.preferredFilenameExtension == "webp")
        #expect(UTType.jpeg.preferredFilenameExtension == "jpeg" && UTType.jpeg.preferredMIMEType == "image/jpeg")
        #expect(UTType.jpeg.tags[.filenameExtension] == ["jpeg", "jpg"])
        #expect(UTType.image.preferredFilenameExtension == nil)
        #expect(UTType(filenameExtension: "") == nil)
        #expect(UTType(filenameExtension: "png", conformingTo: .audio)?.isDynamic == true)
        #expect(UTType(filenameExtension: "png", conformingTo: .image) == .png)
    }

    @Test("conformance follows Apple's hierarchy, through every level")
    func conformance() {
        #expect(UTType.jpeg.conforms(to: .image) && UTType.jpeg.conforms(to: .data))
        #expect(UTType.jpeg.conforms(to: .item) && UTType.jpeg.conforms(to: .content))
        #expect(UTType.jpeg.conforms(to: .jpeg))
        #expect(!UTType.jpeg.conforms(to: .audio) && !UTType.image.conforms(to: .jpeg))
        #expect(UTType.jpeg.supertypes == [.image, .data, .item, .content])
        #expect(UTType.heic.conforms(to: .image))
        #expect(UTType.aiff.conforms(to: .audio) && UTType.wav.conforms(to: .audiovisualContent))
        // As Apple declares it: MPEG-4 audio is an MPEG-4 file and audio.
        #expect(UTType.mpeg4Audio.conforms(to: .mpeg4Movie) && UTType.mpeg4Audio.conforms(to: .audio))
        #expect(UTType.mpeg2Video.conforms(to: .mpeg) && UTType.mpeg2Video.conforms(to: .movie))
        #expect(UTType.video.conforms(to: .movie) && !UTType.movie.conforms(to: .video))
        #expect(UTType.json.conforms(to: .text) && UTType.plainText.conforms(to: .text))
        #expect(!UTType.json.conforms(to: .plainText))
        #expect(
            UTType.png.isSubtype(of: .image) && UTType.image.isSupertype(of: .png) && !UTType.png.isSubtype(of: .png))
    }

    @Test("a tag no type claims gives a dynamic type that keeps it and conforms to the supertype asked for")
    func dynamicTypes() throws {
        let type = try #require(UTType(filenameExtension: "xyz"))
        #expect(type.isDynamic && !type.isDeclared && type.identifier.hasPrefix("dyn.a"))
        #expect(type.conforms(to: .data) && type.conforms(to: .item) && !type.conforms(to: .image))
        #expect(type.preferredFilenameExtension == "xyz" && type.preferredMIMEType == nil)
        #expect(UTType(type.identifier) == type, "the identifier gives the type back")
        #expect(UTType(type.identifier)?.preferredFilenameExtension == "xyz")

        let image = try #require(UTType(mimeType: "image/x-richpush", conformingTo: .image))
        #expect(image.isDynamic && image.conforms(to: .image) && image.preferredMIMEType == "image/x-richpush")
        #expect(image != type)
    }

    @Test("a file's type is the type UNNotificationAttachment gives it, for every extension iOS attaches")
    func consistentWithAttachments() throws {
        let attached = TypeDeclaration.all.filter { $0.attachment != nil }
        #expect(attached.count == 11, "JPEG, PNG, GIF; AIFF, WAV, MP3, M4A; MPEG, MPEG-2, MPEG-4, AVI")
        for kind in attached {
            let type = try #require(UTType(kind.identifier))
            for fileExtension in kind.extensions {
                #expect(UTType(filenameExtension: fileExtension)?.identifier == kind.identifier, "\(fileExtension)")
                #expect(
                    TypeDeclaration.attachmentType(hint: nil, fileExtension: fileExtension.uppercased()) == kind,
                    "\(fileExtension)")
            }
            let category: UTType =
                switch kind.attachment {
                case .image: .image
                case .audio: .audio
                case .video: .movie
                case nil: .item
                }
            #expect(type.conforms(to: category), "\(kind.identifier)")
        }
    }

    @Test("a UTType is Codable as its identifier")
    func codable() throws {
        let data = try JSONEncoder().encode([UTType.png, UTType.mp3])
        #expect(String(decoding: data, as: UTF8.self) == #"["public.png","public.mp3"]"#)
        #expect(try JSONDecoder().decode([UTType].self, from: data) == [.png, .mp3])
    }
}
