import Foundation

/// The base of every intent. https://developer.apple.com/documentation/intents/inintent
open class INIntent: NSObject, @unchecked Sendable {
    // @unchecked: as iOS's, an intent is not thread-safe and belongs to the extension that made it; iOS's classes
    // come from Objective-C without Sendable, which Swift 5 code captures in `@Sendable` closures (a donation's
    // completion) without a word, and so does it here.
    /// The images set for parameters (``INIntentSetImageKeyPath``), by key path.
    var parameterImages: [AnyKeyPath: INImage] = [:]

    /// A unique identifier, made when the intent is.
    /// https://developer.apple.com/documentation/intents/inintent/identifier
    public let identifier: String? = UUID().uuidString

    /// https://developer.apple.com/documentation/intents/inintent/intentdescription
    open var intentDescription: String?

    /// https://developer.apple.com/documentation/intents/inintent/suggestedinvocationphrase
    open var suggestedInvocationPhrase: String?

    /// What the donation says about the intent (``INSendMessageIntentDonationMetadata`` for a message).
    /// https://developer.apple.com/documentation/intents/inintent/donationmetadata
    open var donationMetadata: INIntentDonationMetadata?

    public override init() { super.init() }

    /// The image most worth showing: the first one set for a parameter.
    /// https://developer.apple.com/documentation/intents/inintent/keyimage()
    open func keyImage() -> INImage? { parameterImages.values.first }
}

/// Intents whose parameters can have images, set by key path (`intent.setImage(avatar, forParameterNamed:
/// \.speakableGroupName)` gives a group conversation its picture).
/// https://developer.apple.com/documentation/intents/inintentsetimagekeypath
public protocol INIntentSetImageKeyPath {}

extension INIntentSetImageKeyPath where Self: INIntent {
    /// Sets (or with nil removes) the image of the parameter at `parameterName`.
    /// https://developer.apple.com/documentation/intents/inintent/setimage(_:forparameternamed:)
    public func setImage<Value>(_ image: INImage?, forParameterNamed parameterName: KeyPath<Self, Value>) {
        parameterImages[parameterName] = image
    }

    /// The image set for the parameter at `parameterName`.
    /// https://developer.apple.com/documentation/intents/inintent/image(forparameternamed:)
    public func image<Value>(forParameterNamed parameterName: KeyPath<Self, Value>) -> INImage? {
        parameterImages[parameterName]
    }
}

/// The base of what a donation says about its intent.
/// https://developer.apple.com/documentation/intents/inintentdonationmetadata
open class INIntentDonationMetadata: NSObject, @unchecked Sendable {
    // @unchecked: as ``INIntent``.
    public override init() { super.init() }
}
