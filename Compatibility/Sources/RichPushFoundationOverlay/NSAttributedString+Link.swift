import Foundation

// iOS's Foundation names the link attribute of an attributed string (`NSAttributedString.Key.link`, whose value is a
// URL or a string: https://developer.apple.com/documentation/foundation/nsattributedstring/key/link, the Objective-C
// `NSLinkAttributeName`); swift-corelibs-foundation has the key type but not this key. Extensions that turn a
// message's HTML into text (Metatext's Mastodon package) read and write it.
extension NSAttributedString.Key {
    /// The link for the text, as iOS's `NSLinkAttributeName` ("NSLink").
    public static let link = NSAttributedString.Key("NSLink")
}
