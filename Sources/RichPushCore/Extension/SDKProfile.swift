import Foundation

/// The extension richpush emulates for a delivery: richpush's own (the requirement's, the default) or a vendor's.
/// Its rules are the shared ones in `Shared/Sources/RichPushRules/Vendors/`, which the vendor modules a team's
/// extension imports read too; this type gives them to the pipeline. iOS's own rules (mutable-content, alert text,
/// foreground, the 30 s budget, attachment validation) are the same for every profile and are not part of it.
public struct SDKProfile: Sendable, Equatable, CustomStringConvertible {
    public let rules: any VendorRules

    public init(_ rules: any VendorRules) {
        self.rules = rules
    }

    /// The name on the command line and in results: `requirement`, `firebase`, `onesignal`, …
    public var name: String { rules.name }
    /// The vendor and the extension class, for people.
    public var title: String { rules.title }
    /// Where the rules were read: repository, file and version.
    public var source: String { rules.source }
    public var description: String { name }

    public static func == (lhs: SDKProfile, rhs: SDKProfile) -> Bool { lhs.name == rhs.name }

    /// richpush's own extension.
    public static let requirement = SDKProfile(Requirement())

    /// Every profile, the default first, in the order of the README's table and the matrix's columns.
    public static let all: [SDKProfile] = Vendors.all.map(SDKProfile.init)

    /// The profile called `name` (case-insensitive), or nil.
    public static func named(_ name: String) -> SDKProfile? {
        Vendors.named(name).map(SDKProfile.init)
    }

    /// The profile after this one in ``all``, wrapping around (the notification center's key cycles with it).
    public var next: SDKProfile {
        let index = Self.all.firstIndex(of: self) ?? 0
        return Self.all[(index + 1) % Self.all.count]
    }

    /// The names, for help texts and errors.
    public static var names: [String] { all.map(\.name) }

    /// The image URLs this extension reads from `payload`, in the order it fetches them: the configured key paths'
    /// first match for richpush's own extension, the vendor's own keys for a vendor's.
    public func imageRequests(in payload: JSONObject, policy: ImageURLPolicy) -> [ImageRequest] {
        if rules.usesConfiguredImageKeys {
            return policy.resolve(in: payload).map { [ImageRequest(keyPath: $0.keyPath, url: $0.url)] } ?? []
        }
        let requests = rules.imageRequests(in: JSONValue.object(payload))
        return rules.plurality == .first ? Array(requests.prefix(1)) : requests
    }

    /// When this vendor's extension found no image URL but the payload holds one where it does not look (or lacks the
    /// type it needs), one sentence saying so. Nil for richpush's own extension, whose hints name `--image-key`.
    public func missedImageHint(in payload: JSONObject) -> String? {
        guard !rules.usesConfiguredImageKeys else { return nil }
        if let hint = rules.missingCompanionHint(in: JSONValue.object(payload)) { return hint }
        let own = ImageURLPolicy(keyPaths: rules.imageKeyPaths)
        guard let missed = own.missedImageKey(in: payload) else { return nil }
        let reads = rules.imageKeyPaths.map(\.description).joined(separator: ", ")
        return "\(title) reads the image from \(reads) only, but \(missed.keyPath) holds an https URL."
    }

    /// This profile's rules under another name, title and source: a column of the matrix that stands for something
    /// else (the team's own extension).
    public func relabelled(name: String, title: String, source: String) -> SDKProfile {
        SDKProfile(Relabelled(base: rules, name: name, title: title, source: source))
    }
}

/// Rules under another name: everything else is the base's.
private struct Relabelled: VendorRules {
    let base: any VendorRules
    let name: String
    let title: String
    let source: String

    var imageKeyPaths: [PayloadKeyPath] { base.imageKeyPaths }
    func imageRequests<Node: PayloadNode>(in payload: Node) -> [ImageRequest] { base.imageRequests(in: payload) }
    func missingCompanionHint<Node: PayloadNode>(in payload: Node) -> String? { base.missingCompanionHint(in: payload) }
    var usesConfiguredImageKeys: Bool { base.usesConfiguredImageKeys }
    var schemes: SchemeRule { base.schemes }
    func check(imageURL text: String) -> Result<URL, Refusal> { base.check(imageURL: text) }
    var timeout: TimeoutRule { base.timeout }
    var contentType: ContentTypeRule { base.contentType }
    var checksStatus: Bool { base.checksStatus }
    var size: SizeRule { base.size }
    func attachmentName(for file: DownloadedFile) -> Result<AttachmentName, Refusal> { base.attachmentName(for: file) }
    var plurality: Plurality { base.plurality }
    var sdk: VendorSDK? { base.sdk }
    func wouldSend<Node: PayloadNode>(for payload: Node) -> [WouldSend] { base.wouldSend(for: payload) }
    func withheldContentHandler<Node: PayloadNode>(for payload: Node) -> String? {
        base.withheldContentHandler(for: payload)
    }
}
