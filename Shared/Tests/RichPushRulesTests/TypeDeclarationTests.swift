import Foundation
import RichPushRules
import Testing

@Suite("The one table of types")
struct TypeDeclarationTests {
    @Test("iOS attaches exactly JPEG, PNG, GIF, four audio and four video types, each with its cap")
    func attachments() {
        let attached = TypeDeclaration.all.filter { $0.attachment != nil }
        #expect(
            Set(attached.map(\.identifier)) == [
                "public.jpeg", "public.png", "com.compuserve.gif", "public.aiff-audio", "com.microsoft.waveform-audio",
                "public.mp3", "public.mpeg-4-audio", "public.mpeg", "public.mpeg-2-video", "public.mpeg-4",
                "public.avi",
            ])
        #expect(TypeDeclaration.attachmentType(hint: nil, fileExtension: "JPG")?.identifier == "public.jpeg")
        #expect(TypeDeclaration.attachmentType(hint: nil, fileExtension: "webp") == nil, "iOS refuses WebP")
        #expect(TypeDeclaration.attachmentType(hint: "public.png", fileExtension: "jpg")?.identifier == "public.png")
        #expect(TypeDeclaration.attachmentType(hint: "public.heic", fileExtension: "png") == nil, "the hint wins")
        #expect(AttachmentKind.image.maxBytes == 10_000_000 && AttachmentKind.audio.maxBytes == 5_000_000)
    }

    @Test("an extension or a MIME type names one preferred type; every identifier is declared once")
    func lookups() {
        #expect(TypeDeclaration.preferredExtension(forMIMEType: "image/jpeg") == "jpeg")
        #expect(TypeDeclaration.preferredExtension(forMIMEType: "IMAGE/PNG") == "png")
        #expect(TypeDeclaration.preferredExtension(forMIMEType: "text/html") == "html")
        #expect(TypeDeclaration.preferredExtension(forMIMEType: "application/x-unknown") == nil)
        let identifiers = TypeDeclaration.all.map(\.identifier)
        #expect(Set(identifiers).count == identifiers.count)
        for declaration in TypeDeclaration.all {
            for parent in declaration.conformsTo {
                #expect(TypeDeclaration.named(parent) != nil, "\(declaration.identifier) conforms to \(parent)")
            }
        }
    }
}

@Suite("What the vendors' naming rules share")
struct FileNamingTests {
    @Test("Content-Disposition's file name, quoted, extended or plain, without its folders")
    func disposition() {
        #expect(FileNaming.dispositionFilename(#"attachment; filename="cat.png""#) == "cat.png")
        #expect(FileNaming.dispositionFilename("inline; filename=dog.jpg") == "dog.jpg")
        #expect(
            FileNaming.dispositionFilename("attachment; filename*=UTF-8''%E7%8C%AB.gif; filename=cat.gif") == "猫.gif")
        #expect(FileNaming.dispositionFilename(#"attachment; filename="../../etc/passwd""#) == "passwd")
        #expect(FileNaming.dispositionFilename("attachment") == nil)
    }

    @Test("the suggested file name: the disposition's, else the URL's with the MIME type's extension")
    func suggested() throws {
        let url = try #require(URL(string: "https://cdn.test/photos/shot?w=600"))
        #expect(FileNaming.suggestedFilename(url: url, mediaType: "image/jpeg", contentDisposition: nil) == "shot.jpeg")
        #expect(FileNaming.suggestedFilename(url: url, mediaType: nil, contentDisposition: nil) == "shot")
        #expect(
            FileNaming.suggestedFilename(
                url: url, mediaType: "image/jpeg", contentDisposition: "inline; filename=a.png")
                == "a.png")
        let root = try #require(URL(string: "https://cdn.test/"))
        #expect(FileNaming.suggestedFilename(url: root, mediaType: nil, contentDisposition: nil) == "cdn.test")
    }

    @Test("names from payloads cannot leave the folder or reach the terminal raw")
    func sanitized() {
        let name = FileNaming.sanitized("../a b/\u{1B}[31m.png")
        #expect(name == ".._a_b___31m.png", "no slash, no escape: one file name in its folder")
        #expect(FileNaming.sanitized(String(repeating: "x", count: 300) + ".png").count == 100)
    }
}
