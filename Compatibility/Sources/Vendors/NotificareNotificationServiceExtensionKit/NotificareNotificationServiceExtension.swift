@_exported import Foundation
@_exported import UserNotifications
import RichPushRules
import RichPushVendorSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Notificare's extension kit (NotificareNotificationServiceExtensionKit 3.0.0+; NotificareNotificationServiceExtension.swift
/// @ da2d7e3f, 4.2.3): one static call that fetches the image of `attachment.uri` and gives back the content with it.
///
/// - no `attachment.uri` string: success with the content unchanged;
/// - a value `URL(string:)` refuses: failure ``Error/invalidUrl``;
/// - the download (`URLSession.shared`, 60 s, no status, Content-Type or size check), the file named after the URL's
///   last path component, typed by the response's MIME type: the shared rules (`RichPushRules.Notificare`), which
///   `richpush --sdk notificare` reads too; a failed download is the `URLError`, a file iOS refuses
///   ``Error/downloadFailed``;
/// - success: `content.attachments = [attachment]`.
///
/// There is no base class and nothing for `serviceExtensionTimeWillExpire`; the kit sends nothing else.
public class NotificareNotificationServiceExtension {
    private init() {}

    private static let rules = RichPushRules.Notificare()

    /// Why the kit gave no content with an image.
    public enum Error: Swift.Error {
        case invalidUrl
        case downloadFailed
    }

    /// Calls `completion` once, from a background task (4.0.0 runs the async form in a `Task`).
    public static func handleNotificationRequest(
        _ request: UNNotificationRequest,
        _ completion: @escaping (Result<UNNotificationContent, Swift.Error>) -> Void
    ) {
        let call = CompletionBox(completion: completion)
        Task {
            do {
                call.completion(.success(try await handleNotificationRequest(request)))
            } catch {
                call.completion(.failure(error))
            }
        }
    }

    public static func handleNotificationRequest(_ request: UNNotificationRequest) async throws
        -> UNNotificationContent
    {
        let content =
            request.content.mutableCopy() as? UNMutableNotificationContent ?? UNMutableNotificationContent()
        guard let image = rules.imageRequests(in: UserInfoNode(content.userInfo)).first else { return content }
        guard URL(string: image.url) != nil else {
            VendorChannel.imageFailed(
                rules, VendorAttachmentLoader.Failure(.invalidURL, "\"\(image.url)\" is not a URL (Error.invalidUrl)"))
            throw Error.invalidUrl
        }
        let outcome = await withCheckedContinuation { continuation in
            VendorAttachmentLoader(rules: rules, userInfo: content.userInfo).loadOne(image) {
                continuation.resume(returning: $0)
            }
        }
        switch outcome {
        case .attached(let one):
            content.attachments = [one.attachment]
            return content
        case .failed(let failure):
            VendorChannel.imageFailed(rules, failure)
            throw thrown(for: failure)
        }
    }

    /// What the kit throws for a failure: URLSession's error for the download, `downloadFailed` for the file.
    private static func thrown(for failure: VendorAttachmentLoader.Failure) -> any Swift.Error {
        switch failure.reason {
        case .timeout: URLError(.timedOut)
        case .insecureURL: URLError(.appTransportSecurityRequiresSecureConnection)
        case .networkError: URLError(.cannotConnectToHost)
        case .invalidURL: URLError(.badURL)
        default: Error.downloadFailed
        }
    }

    /// The caller's completion, called once from the task.
    private struct CompletionBox: @unchecked Sendable {
        // @unchecked: the closure is called once, from one task, and not kept.
        let completion: (Result<UNNotificationContent, Swift.Error>) -> Void
    }
}
