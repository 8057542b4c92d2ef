import Foundation

/// Someone in a conversation: a message's sender or recipient.
/// https://developer.apple.com/documentation/intents/inperson
open class INPerson: NSObject, @unchecked Sendable {
    // @unchecked: every stored property is a constant.
    /// https://developer.apple.com/documentation/intents/inperson/personhandle
    public let personHandle: INPersonHandle?
    /// https://developer.apple.com/documentation/intents/inperson/namecomponents
    public let nameComponents: PersonNameComponents?
    /// https://developer.apple.com/documentation/intents/inperson/image
    public let image: INImage?
    /// https://developer.apple.com/documentation/intents/inperson/contactidentifier
    public let contactIdentifier: String?
    /// https://developer.apple.com/documentation/intents/inperson/customidentifier
    public let customIdentifier: String?
    /// Whether this is the device's user. https://developer.apple.com/documentation/intents/inperson/isme
    public let isMe: Bool
    /// https://developer.apple.com/documentation/intents/inperson/suggestiontype
    public let suggestionType: INPersonSuggestionType
    /// https://developer.apple.com/documentation/intents/inperson/aliases
    public let aliases: [INPersonHandle]?
    /// https://developer.apple.com/documentation/intents/inperson/iscontactsuggestion
    public let isContactSuggestion: Bool
    private let givenDisplayName: String?

    /// The name shown for the person: the display name given, else their name components (given and family name,
    /// else nickname), else their handle's value.
    /// https://developer.apple.com/documentation/intents/inperson/displayname
    open var displayName: String {
        if let givenDisplayName, !givenDisplayName.isEmpty { return givenDisplayName }
        if let nameComponents {
            let full = [nameComponents.givenName, nameComponents.familyName].compactMap { $0 }.filter { !$0.isEmpty }
            if !full.isEmpty { return full.joined(separator: " ") }
            if let nickname = nameComponents.nickname, !nickname.isEmpty { return nickname }
        }
        return personHandle?.value ?? ""
    }

    /// https://developer.apple.com/documentation/intents/inperson/init(personhandle:namecomponents:displayname:image:contactidentifier:customidentifier:isme:suggestiontype:)
    public init(
        personHandle: INPersonHandle, nameComponents: PersonNameComponents?, displayName: String?, image: INImage?,
        contactIdentifier: String?, customIdentifier: String?, isMe: Bool, suggestionType: INPersonSuggestionType
    ) {
        self.personHandle = personHandle
        self.nameComponents = nameComponents
        givenDisplayName = displayName
        self.image = image
        self.contactIdentifier = contactIdentifier
        self.customIdentifier = customIdentifier
        self.isMe = isMe
        self.suggestionType = suggestionType
        aliases = nil
        isContactSuggestion = false
        super.init()
    }

    /// https://developer.apple.com/documentation/intents/inperson/init(personhandle:namecomponents:displayname:image:contactidentifier:customidentifier:)
    public convenience init(
        personHandle: INPersonHandle, nameComponents: PersonNameComponents?, displayName: String?, image: INImage?,
        contactIdentifier: String?, customIdentifier: String?
    ) {
        self.init(
            personHandle: personHandle, nameComponents: nameComponents, displayName: displayName, image: image,
            contactIdentifier: contactIdentifier, customIdentifier: customIdentifier, isMe: false,
            suggestionType: .none)
    }

    /// https://developer.apple.com/documentation/intents/inperson/init(personhandle:namecomponents:displayname:image:contactidentifier:customidentifier:isme:)
    public convenience init(
        personHandle: INPersonHandle, nameComponents: PersonNameComponents?, displayName: String?, image: INImage?,
        contactIdentifier: String?, customIdentifier: String?, isMe: Bool
    ) {
        self.init(
            personHandle: personHandle, nameComponents: nameComponents, displayName: displayName, image: image,
            contactIdentifier: contactIdentifier, customIdentifier: customIdentifier, isMe: isMe,
            suggestionType: .none)
    }

    /// https://developer.apple.com/documentation/intents/inperson/init(personhandle:namecomponents:displayname:image:contactidentifier:customidentifier:aliases:suggestiontype:)
    public init(
        personHandle: INPersonHandle, nameComponents: PersonNameComponents?, displayName: String?, image: INImage?,
        contactIdentifier: String?, customIdentifier: String?, aliases: [INPersonHandle]?,
        suggestionType: INPersonSuggestionType
    ) {
        self.personHandle = personHandle
        self.nameComponents = nameComponents
        givenDisplayName = displayName
        self.image = image
        self.contactIdentifier = contactIdentifier
        self.customIdentifier = customIdentifier
        isMe = false
        self.suggestionType = suggestionType
        self.aliases = aliases
        isContactSuggestion = false
        super.init()
    }

    /// https://developer.apple.com/documentation/intents/inperson/init(personhandle:namecomponents:displayname:image:contactidentifier:customidentifier:iscontactsuggestion:suggestiontype:)
    public init(
        personHandle: INPersonHandle, nameComponents: PersonNameComponents?, displayName: String?, image: INImage?,
        contactIdentifier: String?, customIdentifier: String?, isContactSuggestion: Bool,
        suggestionType: INPersonSuggestionType
    ) {
        self.personHandle = personHandle
        self.nameComponents = nameComponents
        givenDisplayName = displayName
        self.image = image
        self.contactIdentifier = contactIdentifier
        self.customIdentifier = customIdentifier
        isMe = false
        self.suggestionType = suggestionType
        aliases = nil
        self.isContactSuggestion = isContactSuggestion
        super.init()
    }
}

/// Which identity of a person a donation suggests.
/// https://developer.apple.com/documentation/intents/inpersonsuggestiontype
public enum INPersonSuggestionType: Int, Sendable {
    case none = 0
    case socialProfile = 1
    case instantMessageAddress = 2
}
