import Foundation

/// A message: who sent it, to whom, in which conversation. Handed to `UNNotificationContent.updating(from:)` it makes
/// the notification a communication notification. https://developer.apple.com/documentation/intents/insendmessageintent
open class INSendMessageIntent: INIntent, INIntentSetImageKeyPath, @unchecked Sendable {
    // @unchecked: as ``INIntent``.
    /// https://developer.apple.com/documentation/intents/insendmessageintent/recipients
    public let recipients: [INPerson]?
    /// https://developer.apple.com/documentation/intents/insendmessageintent/outgoingmessagetype
    public let outgoingMessageType: INOutgoingMessageType
    /// https://developer.apple.com/documentation/intents/insendmessageintent/content
    public let content: String?
    /// The group conversation's name.
    /// https://developer.apple.com/documentation/intents/insendmessageintent/speakablegroupname
    public let speakableGroupName: INSpeakableString?
    /// https://developer.apple.com/documentation/intents/insendmessageintent/conversationidentifier
    public let conversationIdentifier: String?
    /// https://developer.apple.com/documentation/intents/insendmessageintent/servicename
    public let serviceName: String?
    /// https://developer.apple.com/documentation/intents/insendmessageintent/sender
    public let sender: INPerson?
    /// https://developer.apple.com/documentation/intents/insendmessageintent/attachments
    public let attachments: [INSendMessageAttachment]?

    /// https://developer.apple.com/documentation/intents/insendmessageintent/init(recipients:outgoingmessagetype:content:speakablegroupname:conversationidentifier:servicename:sender:attachments:)
    public init(
        recipients: [INPerson]?, outgoingMessageType: INOutgoingMessageType, content: String?,
        speakableGroupName: INSpeakableString?, conversationIdentifier: String?, serviceName: String?,
        sender: INPerson?, attachments: [INSendMessageAttachment]?
    ) {
        self.recipients = recipients
        self.outgoingMessageType = outgoingMessageType
        self.content = content
        self.speakableGroupName = speakableGroupName
        self.conversationIdentifier = conversationIdentifier
        self.serviceName = serviceName
        self.sender = sender
        self.attachments = attachments
        super.init()
    }

    /// The iOS 14.0 form, without attachments.
    /// https://developer.apple.com/documentation/intents/insendmessageintent/init(recipients:outgoingmessagetype:content:speakablegroupname:conversationidentifier:servicename:sender:)
    public convenience init(
        recipients: [INPerson]?, outgoingMessageType: INOutgoingMessageType, content: String?,
        speakableGroupName: INSpeakableString?, conversationIdentifier: String?, serviceName: String?,
        sender: INPerson?
    ) {
        self.init(
            recipients: recipients, outgoingMessageType: outgoingMessageType, content: content,
            speakableGroupName: speakableGroupName, conversationIdentifier: conversationIdentifier,
            serviceName: serviceName, sender: sender, attachments: nil)
    }

    /// The iOS 11 form (a text message).
    /// https://developer.apple.com/documentation/intents/insendmessageintent/init(recipients:content:speakablegroupname:conversationidentifier:servicename:sender:)
    public convenience init(
        recipients: [INPerson]?, content: String?, speakableGroupName: INSpeakableString?,
        conversationIdentifier: String?, serviceName: String?, sender: INPerson?
    ) {
        self.init(
            recipients: recipients, outgoingMessageType: .outgoingMessageText, content: content,
            speakableGroupName: speakableGroupName, conversationIdentifier: conversationIdentifier,
            serviceName: serviceName, sender: sender, attachments: nil)
    }

    /// The iOS 10 form, the group named by text.
    /// https://developer.apple.com/documentation/intents/insendmessageintent/init(recipients:content:groupname:servicename:sender:)
    public convenience init(
        recipients: [INPerson]?, content: String?, groupName: String?, serviceName: String?, sender: INPerson?
    ) {
        self.init(
            recipients: recipients, outgoingMessageType: .outgoingMessageText, content: content,
            speakableGroupName: groupName.map { INSpeakableString(spokenPhrase: $0) }, conversationIdentifier: nil,
            serviceName: serviceName, sender: sender, attachments: nil)
    }

    /// The group's name as text (deprecated in iOS 11 for ``speakableGroupName``).
    /// https://developer.apple.com/documentation/intents/insendmessageintent/groupname
    open var groupName: String? { speakableGroupName?.spokenPhrase }
}

/// The kind of message. https://developer.apple.com/documentation/intents/inoutgoingmessagetype
public enum INOutgoingMessageType: Int, Sendable {
    case unknown = 0
    case outgoingMessageText = 1
    case outgoingMessageAudio = 2
}

extension INSendMessageIntent: UNNotificationContentProviding, _UNCommunicationDetailsProviding {
    /// The sender and conversation `updating(from:)` stores: the sender's display name and handle, the avatar (the
    /// image set for ``speakableGroupName`` in a group conversation, else the sender's image), the conversation and
    /// the group's name.
    public func _communicationDetails() throws -> _UNCommunicationDetails {
        let groupName = speakableGroupName?.spokenPhrase.isEmpty == false ? speakableGroupName?.spokenPhrase : nil
        let groupImage = groupName == nil ? nil : image(forParameterNamed: \INSendMessageIntent.speakableGroupName)
        let handle = sender?.personHandle?.value
        return _UNCommunicationDetails(
            senderName: sender.map(\.displayName).flatMap { $0.isEmpty ? nil : $0 },
            senderHandle: handle?.isEmpty == false ? handle : nil,
            avatarImageData: (groupImage ?? sender?.image)?.imageData, conversationIdentifier: conversationIdentifier,
            groupName: groupName)
    }
}
