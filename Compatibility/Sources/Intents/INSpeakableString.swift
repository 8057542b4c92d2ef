import Foundation

/// Something Siri can say: a group's name, a vocabulary term.
/// https://developer.apple.com/documentation/intents/inspeakable
public protocol INSpeakable {
    var spokenPhrase: String { get }
    var pronunciationHint: String? { get }
    var vocabularyIdentifier: String? { get }
}

/// A phrase with how to say it. https://developer.apple.com/documentation/intents/inspeakablestring
open class INSpeakableString: NSObject, INSpeakable, @unchecked Sendable {
    // @unchecked: every stored property is a constant.
    /// https://developer.apple.com/documentation/intents/inspeakablestring/spokenphrase
    public let spokenPhrase: String
    /// https://developer.apple.com/documentation/intents/inspeakablestring/pronunciationhint
    public let pronunciationHint: String?
    /// https://developer.apple.com/documentation/intents/inspeakablestring/vocabularyidentifier
    public let vocabularyIdentifier: String?

    /// https://developer.apple.com/documentation/intents/inspeakablestring/init(spokenphrase:)
    public convenience init(spokenPhrase: String) {
        self.init(vocabularyIdentifier: UUID().uuidString, spokenPhrase: spokenPhrase, pronunciationHint: nil)
    }

    /// https://developer.apple.com/documentation/intents/inspeakablestring/init(vocabularyidentifier:spokenphrase:pronunciationhint:)
    public init(vocabularyIdentifier: String, spokenPhrase: String, pronunciationHint: String?) {
        self.vocabularyIdentifier = vocabularyIdentifier
        self.spokenPhrase = spokenPhrase
        self.pronunciationHint = pronunciationHint
        super.init()
    }

    open override var description: String { spokenPhrase }
}
