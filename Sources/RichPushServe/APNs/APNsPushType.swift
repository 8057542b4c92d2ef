/// The values of the `apns-push-type` header, with the topic each one is sent to and its payload limit.
public enum APNsPushType: String, Sendable, CaseIterable, Codable {
    case alert
    case background
    case location
    case voip
    case complication
    case fileprovider
    case mdm
    case liveactivity
    case pushtotalk
    case widgets
    case controls

    /// What the topic adds to the app's bundle ID for this push type; nil when the topic is not derived from the
    /// bundle ID (MDM pushes go to the MDM certificate's topic).
    public var topicSuffix: String? {
        switch self {
        case .alert, .background: ""
        case .location: ".location-query"
        case .voip: ".voip"
        case .complication: ".complication"
        case .fileprovider: ".pushkit.fileprovider"
        case .mdm: nil
        case .liveactivity: ".push-type.liveactivity"
        case .pushtotalk: ".voip-ptt"
        case .widgets: ".push-type.widgets"
        case .controls: ".push-type.controls"
        }
    }

    /// The largest payload APNs takes for this push type: 5 KB for VoIP, 4 KB for everything else.
    public var maxPayloadBytes: Int { self == .voip ? 5120 : 4096 }

    /// Every suffix a topic may carry, longest first so `.voip-ptt` is not read as `.voip` plus junk.
    static let knownSuffixes: [String] = allCases.compactMap(\.topicSuffix).filter { !$0.isEmpty }
        .sorted { $0.count > $1.count }

    /// The bundle ID a topic is for: the topic without a push type's suffix.
    static func bundleID(ofTopic topic: String) -> (bundleID: String, suffix: String) {
        for suffix in knownSuffixes where topic.hasSuffix(suffix) && topic.count > suffix.count {
            return (String(topic.dropLast(suffix.count)), suffix)
        }
        return (topic, "")
    }
}
