import Foundation

/// What a message donation says: whether it mentions or answers the user, how many recipients it has.
/// https://developer.apple.com/documentation/intents/insendmessageintentdonationmetadata
open class INSendMessageIntentDonationMetadata: INIntentDonationMetadata, @unchecked Sendable {
    // @unchecked: as ``INIntent``.
    /// https://developer.apple.com/documentation/intents/insendmessageintentdonationmetadata/mentionscurrentuser
    open var mentionsCurrentUser = false
    /// https://developer.apple.com/documentation/intents/insendmessageintentdonationmetadata/isreplytocurrentuser
    open var isReplyToCurrentUser = false
    /// https://developer.apple.com/documentation/intents/insendmessageintentdonationmetadata/notifyrecipientanyway
    open var notifyRecipientAnyway = false
    /// https://developer.apple.com/documentation/intents/insendmessageintentdonationmetadata/recipientcount
    open var recipientCount = 0

    public override init() { super.init() }
}
