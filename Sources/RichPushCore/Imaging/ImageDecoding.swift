public import Foundation

/// The codecs' side of the system: confirms that a downloaded attachment decodes to pixels.
///
/// ``ImageInspector`` reads headers only, so a file whose header is fine but whose data is cut short or
/// damaged passes it; a decoder reads every byte of image data. Implementations are CPU-bound and synchronous
/// in effect: ``NotificationSystem`` runs them through its ``ComputePool``, apart from the downloads in flight.
public protocol ImageDecoding: Sendable {
    /// Decodes the file at `file`, which the inspector found to be `format`, and says whether it gave pixels.
    func verify(_ file: URL, format: ImageFormat) async -> DecodeVerdict
}

/// Whether an image decoded, and why not when it did not.
public enum DecodeVerdict: Sendable, Equatable {
    case decoded
    /// Not decoded; the sentence says why ("the JPEG data ends early", "… over the 50-megapixel budget").
    case notDecoded(String)

    public var isDecoded: Bool { self == .decoded }

    /// The sentence for a verdict that is not decoded, else nil.
    public var error: String? {
        if case .notDecoded(let sentence) = self { return sentence }
        return nil
    }
}
