import Foundation
import Testing
import UserNotifications

@Suite("UserNotifications on Linux: content, attachments, errors as iOS has them", .serialized)
struct UserNotificationsTests {
    @Test("mutableCopy gives an independent, mutable content with every field")
    func mutableCopy() throws {
        let original = UNMutableNotificationContent()
        original.title = "T"
        original.body = "B"
        original.badge = 3
        original.userInfo = ["data": ["smallImage": "https://x.test/a.png"]]
        original.threadIdentifier = "chat-7"
        original.interruptionLevel = .timeSensitive
        let request = UNNotificationRequest(identifier: "id-1", content: original)
        let copy = try #require(request.content.mutableCopy() as? UNMutableNotificationContent)
        copy.title = "T [modified]"
        #expect(request.content.title == "T" && copy.title == "T [modified]")
        #expect(copy.body == "B" && copy.badge == 3 && copy.threadIdentifier == "chat-7")
        #expect(copy.interruptionLevel == .timeSensitive)
        #expect((copy.userInfo["data"] as? [String: String])?["smallImage"] == "https://x.test/a.png")
        #expect(!(request.content is UNMutableNotificationContent), "the request's content is not mutable")
    }

    /// A folder for one test, as the store and the extension's files.
    func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("richpush-un-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    func code(_ body: () throws -> Void) -> UNError.Code? {
        do {
            try body()
            return nil
        } catch {
            return (error as? UNError)?.code
        }
    }

    @Test("an attachment is moved into the system's store; its type comes from the extension or the hint")
    func attachmentMovesTheFile() throws {
        let work = try folder()
        defer { try? FileManager.default.removeItem(at: work) }
        setenv("RICHPUSH_ATTACHMENT_STORE", work.appendingPathComponent("store").path, 1)
        defer { unsetenv("RICHPUSH_ATTACHMENT_STORE") }
        let file = work.appendingPathComponent("cat.png")
        try Data(repeating: 1, count: 2_000).write(to: file)
        let attachment = try UNNotificationAttachment(identifier: "image", url: file, options: nil)
        #expect(!FileManager.default.fileExists(atPath: file.path), "the file is moved, not copied")
        #expect(FileManager.default.fileExists(atPath: attachment.url.path))
        #expect(attachment.url.path.hasPrefix(work.appendingPathComponent("store").path))
        #expect(attachment.type == "public.png" && attachment.identifier == "image")

        let noExtension = work.appendingPathComponent("download")
        try Data(repeating: 1, count: 10).write(to: noExtension)
        let hinted = try UNNotificationAttachment(
            identifier: "i", url: noExtension, options: [UNNotificationAttachmentOptionsTypeHintKey: "public.jpeg"])
        #expect(hinted.type == "public.jpeg")
    }

    @Test("iOS's errors: not a readable file URL, an unrecognised type, over the type's size cap")
    func attachmentErrors() throws {
        let work = try folder()
        defer { try? FileManager.default.removeItem(at: work) }
        setenv("RICHPUSH_ATTACHMENT_STORE", work.appendingPathComponent("store").path, 1)
        defer { unsetenv("RICHPUSH_ATTACHMENT_STORE") }
        let web = URL(string: "https://fixtures.richpush.test/cat.png")!
        #expect(code { _ = try UNNotificationAttachment(identifier: "a", url: web) } == .attachmentInvalidURL)
        let missing = work.appendingPathComponent("missing.png")
        #expect(code { _ = try UNNotificationAttachment(identifier: "a", url: missing) } == .attachmentInvalidURL)

        let text = work.appendingPathComponent("notes.txt")
        try Data("x".utf8).write(to: text)
        #expect(code { _ = try UNNotificationAttachment(identifier: "a", url: text) } == .attachmentUnrecognizedType)
        // The URL's path extension is all iOS looks at without a hint: a PNG named .txt is not an image.
        let wrongHint = [UNNotificationAttachmentOptionsTypeHintKey: "public.plain-text"]
        #expect(
            code { _ = try UNNotificationAttachment(identifier: "a", url: text, options: wrongHint) }
                == .attachmentUnrecognizedType)

        let big = work.appendingPathComponent("big.jpg")
        try Data(count: 10_000_001).write(to: big)
        #expect(code { _ = try UNNotificationAttachment(identifier: "a", url: big) } == .attachmentInvalidFileSize)
        let song = work.appendingPathComponent("song.mp3")
        try Data(count: 5_000_001).write(to: song)
        #expect(code { _ = try UNNotificationAttachment(identifier: "a", url: song) } == .attachmentInvalidFileSize)
        #expect(FileManager.default.fileExists(atPath: big.path), "a refused file stays where it was")
        // The error says how far over the cap of its kind the file is (a sparse 52.4 MB movie).
        let movie = work.appendingPathComponent("movie.mp4")
        try Data().write(to: movie)
        let handle = try FileHandle(forWritingTo: movie)
        try handle.truncate(atOffset: 52_400_000)
        try handle.close()
        do {
            _ = try UNNotificationAttachment(identifier: "a", url: movie)
            Issue.record("no error")
        } catch {
            #expect(
                "\(error)" == "UNError.attachmentInvalidFileSize: 52.4 MB is over the 50 MB limit for video attachments"
            )
        }

        let error = UNError(.attachmentInvalidFileSize)
        #expect(error.errorCode == 102 && UNError.errorDomain == "UNErrorDomain")
        do {
            _ = try UNNotificationAttachment(identifier: "a", url: song)
            Issue.record("no error")
        } catch UNError.attachmentInvalidFileSize {
            // As iOS code catches it.
        }
    }
}
