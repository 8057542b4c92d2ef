import Foundation

/// Notificare's `NotificareNotificationServiceExtension.handleNotificationRequest` (NotificareNotificationServiceExtensionKit,
/// 3.0.0+; the download code is the same since 3.0.0).
///
/// Read in Notificare/notificare-sdk-ios at 27c1f95477b869f17edef9710e40a0cc6bf59a9f (4.2.3):
/// NotificareNotificationServiceExtensionKit/Sources/NotificareNotificationServiceExtension.swift at
/// da2d7e3faba011537e1e1a9366bc1faffe980e39; Notificare.podspec and Package.swift at 69cf2a7e. The 2.x library
/// (Notificare/notificare-push-lib, closed source) is not confirmed and not emulated.
public struct Notificare: VendorRules {
    public init() {}
    public let name = "notificare"
    public let title = "Notificare (NotificareNotificationServiceExtension)"
    public let source =
        "Notificare/notificare-sdk-ios NotificareNotificationServiceExtensionKit/Sources/NotificareNotificationServiceExtension.swift @ da2d7e3f (4.2.3)"

    /// The extension kit is its own module, pod subspec `Notificare/NotificareNotificationServiceExtensionKit` and
    /// product of the package notificare-sdk-ios (Notificare.podspec, Package.swift @ 69cf2a7e). The 3.x push-module
    /// method (`Notificare.shared.push().handleNotificationRequest`, NotificarePushKit, removed in 4.0.0) has no module
    /// here.
    public let sdk: VendorSDK? = VendorSDK(
        modules: ["NotificareNotificationServiceExtensionKit"], pods: ["Notificare"], packages: ["notificare-sdk-ios"])

    /// `userInfo["attachment"] as? [String: Any]`, then `attachment["uri"] as? String`; anything else is success with
    /// the content unchanged. No sender check (`x-sender` is not read by the kit); `attachment.mimeType` is not read.
    public let imageKeyPaths: [PayloadKeyPath] = ["attachment.uri"]
    public func imageRequests<Node: PayloadNode>(in payload: Node) -> [ImageRequest] {
        guard let attachment = payload.member("attachment"), attachment.isObject,
            let uri = attachment.member("uri")?.string
        else { return [] }
        return [ImageRequest(keyPath: imageKeyPaths[0], url: uri)]
    }

    /// `URL(string:)` nil throws `.invalidUrl`; the URL then goes to `URLSession.shared` (ATS blocks http). The file
    /// name is `url.pathComponents.last!`: a URL without a path traps there (the extension crashes, and iOS shows the
    /// original content), and one whose path is `/` names the file "/", whose write fails (`.downloadFailed`).
    public func check(imageURL text: String) -> Result<URL, Refusal> {
        let checked = standardCheck(imageURL: text)
        guard case .success(let url) = checked else { return checked }
        guard let last = url.pathComponents.last else {
            return .failure(
                Refusal(
                    .invalidURL,
                    "\(title) names the file after the URL's last path component, and \(text) has none: `pathComponents.last!` traps and the extension crashes"
                ))
        }
        if last == "/" {
            return .failure(
                Refusal(
                    .invalidURL,
                    "\(title) names the file after the URL's last path component, which is \"/\" for \(text): writing it fails (downloadFailed)"
                ))
        }
        return checked
    }

    public let schemes = SchemeRule.urlSession
    /// `URLSession.shared.data(from:)`: no timeout set, the 60 s default.
    public let timeout = TimeoutRule.fixed(.seconds(60))
    /// The body is written as it came: no status, Content-Type or size check.
    public let contentType = ContentTypeRule.ignored
    public let size = SizeRule.unchecked

    /// The file is `<Documents>/<url.pathComponents.last>` (no UUID: the same name is written over); the type hint is
    /// `UTTypeCreatePreferredIdentifierForTag(kUTTagClassMIMEType, response.mimeType, nil)` when the response has a
    /// MIME type, which iOS then types the file by instead of its extension. A MIME type no attachable type claims
    /// (`application/octet-stream` is `public.data`; an unknown one is a dynamic `dyn.` type) makes
    /// `UNNotificationAttachment` throw, which the kit reports as `.downloadFailed`: no image.
    public func attachmentName(for file: DownloadedFile) -> Result<AttachmentName, Refusal> {
        let name = FileNaming.sanitized(file.url.pathComponents.last ?? file.name)
        guard let mediaType = file.mediaType else { return .success(AttachmentName(fileName: name)) }
        let hint = TypeDeclaration.declarations(forMIMEType: mediaType).first?.identifier
        guard let hint, TypeDeclaration.named(hint)?.attachment != nil else {
            return .failure(
                Refusal(
                    .unsupportedImageType,
                    "\(title) passes the type hint of the response's MIME type \(mediaType) (\(hint ?? "a dynamic type")), which names no type iOS attaches: UNNotificationAttachment throws and the kit fails with downloadFailed"
                ))
        }
        return .success(AttachmentName(fileName: name, typeHint: hint))
    }

    /// `content.attachments = [attachment]`: one, replacing any the content had.
    public let plurality = Plurality.first

    // No `wouldSend`: the kit sends nothing besides the image (no analytics, no App Group); Notificare's delivery
    // events come from the app SDK.
}
