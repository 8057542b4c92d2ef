/// Why a notification was shown as plain text although an image was asked for.
///
/// The raw values are the stable reason codes of the JSON result contract (the README's "The result contract").
public enum FallbackReason: String, Sendable, CaseIterable, Codable {
    case foreground
    case notMutable
    case noAlert
    case invalidURL
    case insecureURL
    case insecureRedirect
    case timeout
    case httpStatus
    case networkError
    case notAnImage
    case unsupportedImageType
    case tooLarge
    case extensionExpired
    case attachmentRejected
    /// A team's extension crashed before calling its content handler (signal, last lines of standard error).
    case extensionCrashed
    /// A team's extension's memory footprint passed the limit (`--extension-memory`, 24 MB as on iOS).
    case extensionMemoryLimit
    /// A team's extension ended, or was ended after its budget and grace, without calling its content handler.
    case contentHandlerNeverCalled
}

extension FallbackReason {
    /// The reason an extension's refusal to fetch or attach is reported with.
    public init(_ refusal: Refusal.Reason) {
        switch refusal {
        case .invalidURL: self = .invalidURL
        case .insecureURL: self = .insecureURL
        case .unsupportedImageType: self = .unsupportedImageType
        }
    }
}
