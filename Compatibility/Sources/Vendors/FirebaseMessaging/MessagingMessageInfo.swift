import Foundation

/// What ``Messaging/appDidReceiveMessage(_:)`` returns (`FIRMessagingMessageInfo`).
open class MessagingMessageInfo: NSObject, @unchecked Sendable {
    // @unchecked: immutable after init.
    public let status: MessagingMessageStatus

    init(status: MessagingMessageStatus) {
        self.status = status
        super.init()
    }
}

/// Whether Firebase had seen a message (`FIRMessagingMessageStatus`).
public enum MessagingMessageStatus: Int, Sendable {
    case unknown = 0
    case new = 1
}
