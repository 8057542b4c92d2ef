import Foundation
import UIKit

/// An image for an intent: a person's avatar, a group's picture.
/// https://developer.apple.com/documentation/intents/inimage
///
/// The bytes are kept as given (any format); `updating(from:)` hands the avatar's bytes to richpush, which shows them
/// when they are an image iOS shows.
open class INImage: NSObject, @unchecked Sendable {
    // @unchecked: every stored property is a constant.
    /// The image's bytes; nil for a named image that is not there.
    let imageData: Data?

    init(bytes: Data?) {
        imageData = bytes
        super.init()
    }

    /// https://developer.apple.com/documentation/intents/inimage/init(imagedata:)
    public convenience init(imageData: Data) {
        self.init(bytes: imageData)
    }

    /// The image in a file of the local file system; nil when the URL is not a file's or the file cannot be read, as
    /// on iOS. https://developer.apple.com/documentation/intents/inimage/init(url:)
    public convenience init?(url: URL) {
        guard url.isFileURL, let data = try? Data(contentsOf: url) else { return nil }
        self.init(bytes: data)
    }

    /// As ``init(url:)``; the size is a hint iOS uses for remote images and is not needed here.
    /// https://developer.apple.com/documentation/intents/inimage/init(url:width:height:)
    public convenience init?(url: URL, width: Double, height: Double) {
        self.init(url: url)
    }

    /// An image the extension ships: on iOS from its bundle; under richpush from a file of that name in the
    /// extension's working directory, as `UIImage(named:)` reads it (no image when there is none).
    /// https://developer.apple.com/documentation/intents/inimage/init(named:)
    public convenience init(named name: String) {
        self.init(bytes: UIImage(named: name)?.pngData())
    }

    /// A UIImage's pixels, as PNG. https://developer.apple.com/documentation/intents/inimage/init(uiimage:)
    public convenience init(uiImage: UIImage) {
        self.init(bytes: uiImage.pngData())
    }
}
