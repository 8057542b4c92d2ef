import Intents
import UserNotifications

/// A chat app's communication notification (iOS 15): the sender's name and avatar instead of the app's icon.
///
/// The payload names the sender and, for a group, the conversation:
/// `{"aps": {...}, "sender": {"id", "name", "avatar"}, "conversation": {"id", "name"}}`. The avatar is downloaded
/// with URLSession (5 s, https only, `image/*` only), the message becomes an `INSendMessageIntent` with the sender
/// as an `INPerson`, the interaction is donated, and the content is updated from the intent. Whatever fails (no
/// avatar, no sender), the content handler is called once, with the best content there is.
class NotificationService: UNNotificationServiceExtension {
    private let lock = NSLock()
    private var contentHandler: ((UNNotificationContent) -> Void)?
    private var bestAttemptContent: UNMutableNotificationContent?
    private var task: URLSessionDataTask?
    private var completed = false

    override func didReceive(
        _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
    ) {
        // iOS may hand this instance another notification once this one's handler was called: it starts afresh.
        lock.lock()
        self.contentHandler = contentHandler
        completed = false
        lock.unlock()
        guard let content = request.content.mutableCopy() as? UNMutableNotificationContent,
            let sender = request.content.userInfo["sender"] as? [String: Any],
            let senderID = sender["id"] as? String
        else {
            complete(with: request.content)
            return
        }
        bestAttemptContent = content
        let conversation = request.content.userInfo["conversation"] as? [String: Any]
        downloadAvatar(sender["avatar"] as? String) { [weak self] avatar in
            guard let self else { return }
            let intent = self.messageIntent(
                senderID: senderID, senderName: sender["name"] as? String ?? content.title, avatar: avatar,
                conversationID: conversation?["id"] as? String
                    ?? (content.threadIdentifier.isEmpty ? senderID : content.threadIdentifier),
                groupName: conversation?["name"] as? String, body: content.body)
            let interaction = INInteraction(intent: intent, response: nil)
            interaction.direction = .incoming
            interaction.donate { error in
                if let error { print("donation failed: \(error)") }
                do {
                    self.complete(with: try content.updating(from: intent))
                } catch {
                    print("not a communication notification: \(error)")
                    self.complete(with: content)
                }
            }
        }
    }

    override func serviceExtensionTimeWillExpire() {
        task?.cancel()
        if let bestAttemptContent { complete(with: bestAttemptContent) }
    }

    /// The message as Siri and the notification see it: the sender, and for a group its name, its members and
    /// its picture (the sender's avatar here).
    private func messageIntent(
        senderID: String, senderName: String, avatar: INImage?, conversationID: String, groupName: String?,
        body: String
    ) -> INSendMessageIntent {
        let sender = INPerson(
            personHandle: INPersonHandle(value: senderID, type: .unknown), nameComponents: nil,
            displayName: senderName, image: avatar, contactIdentifier: nil, customIdentifier: senderID)
        var recipients: [INPerson]?
        var speakableGroupName: INSpeakableString?
        if let groupName {
            let me = INPerson(
                personHandle: INPersonHandle(value: "me", type: .unknown), nameComponents: nil, displayName: nil,
                image: nil, contactIdentifier: nil, customIdentifier: nil, isMe: true)
            // iOS shows a group only with two or more recipients.
            recipients = [me, sender]
            speakableGroupName = INSpeakableString(spokenPhrase: groupName)
        }
        let intent = INSendMessageIntent(
            recipients: recipients, outgoingMessageType: .outgoingMessageText, content: body,
            speakableGroupName: speakableGroupName, conversationIdentifier: conversationID, serviceName: nil,
            sender: sender, attachments: nil)
        if speakableGroupName != nil {
            intent.setImage(avatar, forParameterNamed: \.speakableGroupName)
        }
        return intent
    }

    /// The avatar's bytes as an INImage; nil when there is no https URL or the download fails.
    private func downloadAvatar(_ address: String?, completion: @escaping (INImage?) -> Void) {
        guard let address, let url = URL(string: address), url.scheme?.lowercased() == "https" else {
            completion(nil)
            return
        }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 5
        configuration.timeoutIntervalForResource = 5
        task = URLSession(configuration: configuration).dataTask(with: url) { data, response, error in
            guard error == nil, let data, !data.isEmpty, let http = response as? HTTPURLResponse,
                http.statusCode == 200, http.mimeType?.lowercased().hasPrefix("image/") == true
            else {
                print(
                    "no avatar from \(url): \(error.map { "\($0)" } ?? "status \((response as? HTTPURLResponse)?.statusCode ?? 0)")"
                )
                completion(nil)
                return
            }
            completion(INImage(imageData: data))
        }
        task?.resume()
    }

    /// Calls the content handler once; later calls are dropped.
    private func complete(with content: UNNotificationContent) {
        lock.lock()
        let handler = completed ? nil : contentHandler
        completed = true
        lock.unlock()
        handler?(content)
    }
}
