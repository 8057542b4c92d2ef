import Foundation

/// An intent and how it went, donated so the system learns the user's habits.
/// https://developer.apple.com/documentation/intents/ininteraction
///
/// A donation always succeeds under richpush and goes nowhere (there is no Siri, Spotlight or share sheet to
/// feed); the completion is called on a background queue, as iOS calls it asynchronously.
open class INInteraction: NSObject, @unchecked Sendable {
    // @unchecked: as ``INIntent``.
    /// https://developer.apple.com/documentation/intents/ininteraction/intent
    public let intent: INIntent
    /// https://developer.apple.com/documentation/intents/ininteraction/intentresponse
    public let intentResponse: INIntentResponse?
    /// https://developer.apple.com/documentation/intents/ininteraction/direction
    open var direction = INInteractionDirection.unspecified
    /// https://developer.apple.com/documentation/intents/ininteraction/dateinterval
    open var dateInterval: DateInterval?
    /// https://developer.apple.com/documentation/intents/ininteraction/identifier
    open var identifier = UUID().uuidString
    /// https://developer.apple.com/documentation/intents/ininteraction/groupidentifier
    open var groupIdentifier: String?
    /// https://developer.apple.com/documentation/intents/ininteraction/intenthandlingstatus
    open var intentHandlingStatus: INIntentHandlingStatus { .success }

    /// https://developer.apple.com/documentation/intents/ininteraction/init(intent:response:)
    public init(intent: INIntent, response: INIntentResponse?) {
        self.intent = intent
        intentResponse = response
        super.init()
    }

    /// Donates the interaction: `completion` gets nil (success).
    /// https://developer.apple.com/documentation/intents/ininteraction/donate(completion:)
    open func donate(completion: (@Sendable ((any Error)?) -> Void)? = nil) {
        guard let completion else { return }
        DispatchQueue.global().async { completion(nil) }
    }

    /// Donates the interaction; never throws here.
    /// https://developer.apple.com/documentation/intents/ininteraction/donate(completion:)
    open func donate() async throws {}

    /// Deletes every donation (there are none to delete).
    /// https://developer.apple.com/documentation/intents/ininteraction/deleteall(completion:)
    open class func deleteAll(completion: (@Sendable ((any Error)?) -> Void)? = nil) {
        guard let completion else { return }
        DispatchQueue.global().async { completion(nil) }
    }

    /// https://developer.apple.com/documentation/intents/ininteraction/delete(with:completion:)-1pbhu
    open class func delete(with identifiers: [String], completion: (@Sendable ((any Error)?) -> Void)? = nil) {
        deleteAll(completion: completion)
    }

    /// https://developer.apple.com/documentation/intents/ininteraction/delete(with:completion:)-9n0ly
    open class func delete(with groupIdentifier: String, completion: (@Sendable ((any Error)?) -> Void)? = nil) {
        deleteAll(completion: completion)
    }
}

/// Whether the interaction brought information in or sent it out.
/// https://developer.apple.com/documentation/intents/ininteractiondirection
public enum INInteractionDirection: Int, Sendable {
    case unspecified = 0
    case outgoing = 1
    case incoming = 2
}

/// How handling an intent went. https://developer.apple.com/documentation/intents/inintenthandlingstatus
public enum INIntentHandlingStatus: Int, Sendable {
    case unspecified = 0
    case ready = 1
    case inProgress = 2
    case success = 3
    case failure = 4
    case deferredToApplication = 5
    case userConfirmationRequired = 6
}

/// The base of intent responses. https://developer.apple.com/documentation/intents/inintentresponse
open class INIntentResponse: NSObject, @unchecked Sendable {
    // @unchecked: no stored state.
    public override init() { super.init() }
}
