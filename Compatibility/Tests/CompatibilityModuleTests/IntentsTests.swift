import Foundation
import Intents
import Testing
// `@testable`: a plain `import UIKit` beside `import Testing` asks for swift-testing's cross-import overlay
// `_Testing_UIKit`, which Linux's toolchain declares but does not ship.
@testable import UIKit
import UserNotifications

/// A provider that is not Apple's: iOS refuses it.
private final class HomemadeProvider: NSObject, UNNotificationContentProviding {}

@Suite("Intents on Linux: communication notifications through updating(from:)", .serialized)
struct IntentsTests {
    /// A small PNG, as an avatar.
    func avatarPNG(_ color: UIColor = .orange) throws -> Data {
        let format = UIGraphicsImageRendererFormat()
        format.scale = 1
        return UIGraphicsImageRenderer(size: CGSize(width: 4, height: 4), format: format).pngData { context in
            color.setFill()
            context.fill(CGRect(x: 0, y: 0, width: 4, height: 4))
        }
    }

    func sender(image: INImage?) -> INPerson {
        INPerson(
            personHandle: INPersonHandle(value: "ada@example.com", type: .emailAddress), nameComponents: nil,
            displayName: "Ada Lovelace", image: image, contactIdentifier: nil, customIdentifier: "user-1")
    }

    @Test("updating(from:) carries the sender, avatar and conversation; copies keep them; the title stays")
    func communicationDetails() throws {
        let avatar = try avatarPNG()
        let intent = INSendMessageIntent(
            recipients: nil, outgoingMessageType: .outgoingMessageText, content: "Tea at four?",
            speakableGroupName: nil, conversationIdentifier: "chat-42", serviceName: nil,
            sender: sender(image: INImage(imageData: avatar)), attachments: nil)
        let content = UNMutableNotificationContent()
        content.title = "New message"
        content.body = "Tea at four?"
        let updated = try content.updating(from: intent)
        let details = try #require(updated._communication)
        #expect(details.senderName == "Ada Lovelace" && details.senderHandle == "ada@example.com")
        #expect(details.avatarImageData == avatar)
        #expect(details.conversationIdentifier == "chat-42" && details.groupName == nil)
        #expect(updated.title == "New message" && updated.body == "Tea at four?")
        #expect(content._communication == nil, "the receiver is unchanged")
        // Extensions force-cast the result of a mutable content, and copy it.
        let mutable = try #require(updated as? UNMutableNotificationContent)
        #expect((mutable.mutableCopy() as? UNMutableNotificationContent)?._communication == details)
        #expect((mutable.copy() as? UNNotificationContent)?._communication == details)
        #expect(!(try UNNotificationContent().updating(from: intent) is UNMutableNotificationContent))
    }

    @Test("a group conversation shows its name and the image set for speakableGroupName")
    func groupConversation() throws {
        let senderAvatar = try avatarPNG(.orange)
        let groupAvatar = try avatarPNG(.blue)
        let me = INPerson(
            personHandle: INPersonHandle(value: "me", type: .unknown), nameComponents: nil, displayName: nil,
            image: nil, contactIdentifier: nil, customIdentifier: nil, isMe: true, suggestionType: .none)
        let intent = INSendMessageIntent(
            recipients: [me, sender(image: nil)], outgoingMessageType: .outgoingMessageText, content: "Hi all",
            speakableGroupName: INSpeakableString(spokenPhrase: "Tea club"), conversationIdentifier: "group-7",
            serviceName: nil, sender: sender(image: INImage(imageData: senderAvatar)), attachments: nil)
        #expect(
            try UNMutableNotificationContent().updating(from: intent)._communication?.avatarImageData == senderAvatar)
        intent.setImage(INImage(imageData: groupAvatar), forParameterNamed: \.speakableGroupName)
        #expect(intent.image(forParameterNamed: \.speakableGroupName) != nil)
        let details = try #require(try UNMutableNotificationContent().updating(from: intent)._communication)
        #expect(details.groupName == "Tea club" && details.avatarImageData == groupAvatar)
        // An empty group name (Damus's "default formatting") is no group.
        let unnamed = INSendMessageIntent(
            recipients: nil, outgoingMessageType: .outgoingMessageText, content: nil,
            speakableGroupName: INSpeakableString(spokenPhrase: ""), conversationIdentifier: nil, serviceName: nil,
            sender: sender(image: nil), attachments: nil)
        #expect(try UNMutableNotificationContent().updating(from: unnamed)._communication?.groupName == nil)
    }

    @Test("only Apple's providers are accepted, as on iOS")
    func homemadeProvider() {
        #expect(throws: UNError.self) { try UNMutableNotificationContent().updating(from: HomemadeProvider()) }
        do {
            _ = try UNMutableNotificationContent().updating(from: HomemadeProvider())
        } catch {
            #expect((error as? UNError)?.code == .contentProvidingObjectNotAllowed)
        }
    }

    @Test("a person's display name falls back to their name components, then their handle")
    func displayNames() {
        var components = PersonNameComponents()
        components.nickname = "Bark"
        let nickname = INPerson(
            personHandle: INPersonHandle(value: "", type: .unknown), nameComponents: components, displayName: nil,
            image: nil, contactIdentifier: nil, customIdentifier: nil, isMe: false, suggestionType: .none)
        #expect(nickname.displayName == "Bark")
        components.givenName = "Grace"
        components.familyName = "Hopper"
        let full = INPerson(
            personHandle: INPersonHandle(value: "g", type: .unknown), nameComponents: components, displayName: nil,
            image: nil, contactIdentifier: nil, customIdentifier: nil)
        #expect(full.displayName == "Grace Hopper")
        let handleOnly = INPerson(
            personHandle: INPersonHandle(value: "+15551234", type: .phoneNumber), nameComponents: nil,
            displayName: nil, image: nil, contactIdentifier: nil, customIdentifier: nil)
        #expect(handleOnly.displayName == "+15551234")
    }

    @Test("INImage(url:) reads a local file and refuses a remote URL or a missing file")
    func imageFromURL() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("richpush-avatar-\(UUID()).png")
        try avatarPNG().write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let person = sender(image: INImage(url: file))
        let intent = INSendMessageIntent(
            recipients: nil, outgoingMessageType: .outgoingMessageText, content: nil, speakableGroupName: nil,
            conversationIdentifier: nil, serviceName: nil, sender: person, attachments: nil)
        #expect(
            try UNMutableNotificationContent().updating(from: intent)._communication?.avatarImageData == avatarPNG())
        #expect(INImage(url: URL(string: "https://fixtures.richpush.test/cat.png")!) == nil)
        #expect(INImage(url: file.appendingPathExtension("missing")) == nil)
    }

    @Test("a donation succeeds: the completion gets nil, the async form does not throw")
    func donation() async throws {
        let intent = INSendMessageIntent(
            recipients: nil, outgoingMessageType: .outgoingMessageText, content: "x", speakableGroupName: nil,
            conversationIdentifier: "c", serviceName: nil, sender: nil, attachments: nil)
        let interaction = INInteraction(intent: intent, response: nil)
        interaction.direction = .incoming
        let failure: (any Error)?? = await withCheckedContinuation { continuation in
            interaction.donate { error in continuation.resume(returning: .some(error)) }
        }
        #expect(failure.map { $0 == nil } == true)
        try await interaction.donate()
        // No sender: a communication with no name, which richpush shows as the app's own.
        #expect(try UNMutableNotificationContent().updating(from: intent)._communication?.senderName == nil)
    }

    @Test("the avatar is written into the attachment store, named from its format; other bytes are no avatar")
    func avatarFile() throws {
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("richpush-store-\(UUID())")
        setenv("RICHPUSH_ATTACHMENT_STORE", store.path, 1)
        defer {
            unsetenv("RICHPUSH_ATTACHMENT_STORE")
            try? FileManager.default.removeItem(at: store)
        }
        let png = try avatarPNG()
        let details = _UNCommunicationDetails(
            senderName: "Ada", senderHandle: nil, avatarImageData: png, conversationIdentifier: nil, groupName: nil)
        let path = try #require(details._writeAvatar())
        #expect(path.hasPrefix(store.path) && path.hasSuffix(".png"))
        #expect(FileManager.default.contents(atPath: path) == png)
        let jpeg = try #require(UIImage(data: png)?.jpegData(compressionQuality: 0.8))
        var other = details
        other.avatarImageData = jpeg
        #expect(other._writeAvatar()?.hasSuffix(".jpg") == true)
        other.avatarImageData = Data("not an image".utf8)
        #expect(other._writeAvatar() == nil)
    }
}
