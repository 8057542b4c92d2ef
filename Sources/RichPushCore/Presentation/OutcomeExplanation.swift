/// One sentence per fallback and rejection reason, written for a product owner: the notification center's
/// detail view and the HTML report explain an outcome with the same words.
public enum OutcomeExplanation {
    /// `limits` are the ones this notification was delivered under, its payload's own settings applied.
    public static func sentence(for reason: FallbackReason, limits: EffectiveLimits) -> String {
        switch reason {
        case .foreground:
            "The app was open on screen, so iOS did not run the extension: the text shows without the image, and only as the app's willPresent asks (a banner, the list or nothing); images only appear when the app is in the background or closed."
        case .notMutable:
            "The push did not ask for the extension (mutable-content is not 1), so the phone never downloaded the image and showed the text only."
        case .noAlert:
            "The push had no title or text, so the phone showed nothing at all and never looked at the image."
        case .invalidURL:
            "The image address in the push is not a valid web address, so the phone could not download it and showed the text without it."
        case .insecureURL:
            "The image address does not start with https://, and iPhones download notification images over secure https only, so the phone showed the text without the image."
        case .insecureRedirect:
            "The image server sent the phone on to an insecure http:// address, which iPhones refuse, so the phone showed the text without the image."
        case .timeout:
            "The image took longer than \(limits.downloadTimeout.inWords) to download, so the phone showed the text without it."
        case .httpStatus:
            "The image server answered with an error instead of the image, so the phone showed the text without it."
        case .networkError:
            "The phone could not reach the image server, so it showed the text without the image."
        case .notAnImage:
            "The image address returned something that is not a picture (for example a web page), so the phone showed the text without it."
        case .unsupportedImageType:
            "The picture is in a format notifications cannot show (only PNG, JPEG and GIF work), so the phone showed the text without it."
        case .tooLarge:
            if limits.downloadMaxBytes == limits.attachmentMaxBytes {
                "The picture is bigger than the \(ByteCount.limit(limits.downloadMaxBytes)) iOS allows for notification images, so the phone showed the text without it."
            } else {
                "The picture is bigger than the \(ByteCount.limit(limits.downloadMaxBytes)) the extension downloads at most, so the phone showed the text without it."
            }
        case .extensionExpired:
            "The extension used up its \(limits.extensionBudget.inWords) before the image was ready, so the phone showed the text without it."
        case .attachmentRejected:
            "iOS refused the downloaded file as a notification attachment (it takes images of up to \(ByteCount.limit(limits.attachmentMaxBytes))), so the phone showed the text without the image."
        case .extensionCrashed:
            "The app's own extension crashed before it handed the notification back, so the phone showed the original text without the image."
        case .extensionMemoryLimit:
            "The app's own extension used more memory than iOS allows an extension (\(ByteCount.limit(limits.extensionMemoryBytes))) and was stopped, so the phone showed the original text without the image."
        case .contentHandlerNeverCalled:
            "The app's own extension never handed the notification back, so after its \(limits.extensionBudget.inWords) the phone showed the original text without the image."
        }
    }

    public static func sentence(for reason: RejectionReason) -> String {
        switch reason {
        case .malformedJSON:
            "The payload is not valid JSON, so Apple's push service would refuse it and nothing reaches the phone."
        case .notAnObject:
            "The payload is JSON but not an object in curly braces, so Apple's push service would refuse it and nothing reaches the phone."
        case .missingAps:
            "The payload has no \"aps\" section, so it is not a notification and the phone shows nothing."
        case .payloadTooLarge:
            "The payload is over the 4 KB Apple allows, so Apple's push service would refuse it and nothing reaches the phone."
        }
    }

    /// Silent without a fallback: nothing was asked for and nothing is shown.
    public static let silent =
        "The push has no title or text, so the phone shows nothing; apps use such pushes to refresh data in the background."

    /// An attachment iOS accepted whose pixels do not decode (`attachment.decoded` false).
    public static let undecodedImage =
        "The picture arrived and was attached, but its data is damaged or too large to draw, so expect the notification without a picture."

    /// The sentence for a result: its rejection, its fallback, silence, or an attached picture that cannot be
    /// drawn; nil when the image was shown or none was asked for.
    public static func sentence(for result: DeliveryResult) -> String? {
        if let rejection = result.rejection { return sentence(for: rejection.reason) }
        if let fallback = result.fallback {
            return sentence(
                for: fallback.reason, limits: result.limits ?? EffectiveLimits(DeliveryConfiguration()))
        }
        if result.attachment?.decoded == false { return undecodedImage }
        return result.style == .silent ? silent : nil
    }
}
