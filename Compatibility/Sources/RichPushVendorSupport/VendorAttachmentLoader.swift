import Foundation
public import RichPushRules
public import UserNotifications

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a vendor module's image code does, read from that vendor's rules (`RichPushRules.Vendors`): the image URLs
/// from `userInfo`, the URL checks, the download with the vendor's timeout and size rule (URLSession, in the
/// extension's process, through richpush's proxy), the file named and typed as the vendor names it, and the
/// attachments as the vendor takes several. `--sdk VENDOR` reads the same rules, so both end alike.
public struct VendorAttachmentLoader: Sendable {
    public let rules: any VendorRules
    /// The request the images are for, where richpush's process host knows it: its failures and a refused attachment
    /// are reported to that notification alone (several can be in one process).
    public var requestID: String?

    /// `userInfo`: the payload of the request the loader works for, as it arrived.
    public init(rules: any VendorRules, userInfo: [AnyHashable: Any]? = nil) {
        self.rules = rules
        self.requestID = userInfo.flatMap { RichPushHostChannel.request(owning: $0) }
    }

    /// What became of one image: its attachment, or why there is none.
    public enum Outcome: Sendable {
        case attached(UncheckedAttachment)
        case failed(Failure)
    }

    /// Why an image was not attached, in the result contract's words (`httpStatus`, `timeout`, `networkError`,
    /// `unsupportedImageType`, …) and for people; reported to richpush (``VendorChannel``) as the SDK's own outcome.
    public struct Failure: Sendable, CustomStringConvertible {
        public var reason: FallbackReason
        public var detail: String
        /// The request it is about, where the loader knows it (``load(for:completion:)``).
        public var requestID: String?

        public init(_ reason: FallbackReason, _ detail: String) {
            self.reason = reason
            self.detail = detail
        }

        public var description: String { "\(reason): \(detail)" }
    }

    /// `UNNotificationAttachment` is iOS's class, not Sendable; each is made by one download and handed on once.
    public struct UncheckedAttachment: @unchecked Sendable {
        public let attachment: UNNotificationAttachment
    }

    /// The attachments the vendor would make for `userInfo`, in its order, and a line for each image that failed;
    /// `completion` is called once, on a background queue.
    public func load(
        for userInfo: [AnyHashable: Any],
        completion given: @escaping @Sendable (_ attachments: [UNNotificationAttachment], _ failures: [Failure]) -> Void
    ) {
        var loader = self
        loader.requestID = requestID ?? RichPushHostChannel.request(owning: userInfo)
        let requestID = loader.requestID
        let completion: @Sendable ([UNNotificationAttachment], [Failure]) -> Void = { attachments, failures in
            given(
                attachments,
                failures.map {
                    var failure = $0; failure.requestID = requestID; return failure
                })
        }
        var requests = rules.imageRequests(in: UserInfoNode(userInfo))
        if rules.plurality == .first { requests = Array(requests.prefix(1)) }
        guard !requests.isEmpty else { return completion([], []) }
        switch rules.plurality {
        case .first, .eachInTurn:
            // One after another; a failed one is skipped.
            Self.inTurn(requests[...], loader: loader, done: [], failures: [], completion: completion)
        case .allOrNothing:
            let group = DispatchGroup()
            let results = Results(count: requests.count)
            for (index, request) in requests.enumerated() {
                group.enter()
                loader.loadOne(request) { outcome in
                    results.set(index, outcome)
                    group.leave()
                }
            }
            group.notify(queue: .global()) {
                let outcomes = results.all
                let failures = outcomes.compactMap { if case .failed(let why) = $0 { why } else { nil } }
                if let first = failures.first, outcomes.count > 1 {
                    let dropped = Failure(
                        first.reason,
                        "\(rules.title) drops every attachment when one of its \(outcomes.count) fails: \(first.detail)"
                    )
                    return completion([], [dropped])
                }
                let attachments = outcomes.compactMap {
                    if case .attached(let one) = $0 { one.attachment } else { nil }
                }
                completion(attachments, failures)
            }
        }
    }

    private static func inTurn(
        _ rest: ArraySlice<ImageRequest>, loader: VendorAttachmentLoader, done: [UncheckedAttachment],
        failures: [Failure], completion: @escaping @Sendable ([UNNotificationAttachment], [Failure]) -> Void
    ) {
        guard let next = rest.first else { return completion(done.map(\.attachment), failures) }
        loader.loadOne(next) { outcome in
            switch outcome {
            case .attached(let attachment):
                inTurn(
                    rest.dropFirst(), loader: loader, done: done + [attachment], failures: failures,
                    completion: completion)
            case .failed(let why):
                inTurn(rest.dropFirst(), loader: loader, done: done, failures: failures + [why], completion: completion)
            }
        }
    }

    /// Checks, downloads, names and attaches one image.
    public func loadOne(_ request: ImageRequest, completion given: @escaping @Sendable (Outcome) -> Void) {
        let requestID = self.requestID
        let completion: @Sendable (Outcome) -> Void = { outcome in
            guard case .failed(var failure) = outcome else { return given(outcome) }
            failure.requestID = failure.requestID ?? requestID
            given(.failed(failure))
        }
        let url: URL
        switch rules.check(imageURL: request.url) {
        case .failure(let refusal) where refusal.reason == .insecureURL && rules.schemes == .urlSession:
            // The vendor hands it to URLSession as it is: App Transport Security refuses it there (under richpush, its
            // proxy does, and the timeline says so).
            guard let given = URL(string: request.url) else {
                return completion(.failed(Failure(FallbackReason(refusal.reason), refusal.detail)))
            }
            url = given
        case .failure(let refusal):
            return completion(.failed(Failure(FallbackReason(refusal.reason), refusal.detail)))
        case .success(let checked):
            url = checked
        }
        let configuration = URLSessionConfiguration.default
        if case .fixed(let duration) = rules.timeout {
            let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
            configuration.timeoutIntervalForRequest = seconds
            configuration.timeoutIntervalForResource = seconds
        }
        let session = URLSession(configuration: configuration)
        let rules = self.rules
        let task = session.downloadTask(with: url) { location, response, error in
            session.finishTasksAndInvalidate()
            if let error { return completion(.failed(Self.classify(error, url: url, rules: rules))) }
            guard let location else {
                return completion(
                    .failed(Failure(.networkError, "the download of \(url.absoluteString) left no file")))
            }
            if case .contentLengthOver(let limit) = rules.size, let response, response.expectedContentLength > limit {
                return completion(
                    .failed(
                        Failure(
                            .tooLarge,
                            "\(response.expectedContentLength) bytes announced, over \(rules.title)'s limit of \(limit)"
                        )))
            }
            // The download's file is gone when this handler returns: it becomes the extension's own first.
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                "richpush-vendor-\(UUID().uuidString)", isDirectory: true)
            let stem = UUID().uuidString
            var file = folder.appendingPathComponent(stem)
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                try FileManager.default.moveItem(at: location, to: file)
            } catch {
                return completion(.failed(Failure(.networkError, "cannot keep the download: \(error)")))
            }
            let http = response as? HTTPURLResponse
            let downloaded = DownloadedFile(
                url: url, payloadType: request.type, name: stem, mediaType: response?.mimeType?.lowercased(),
                contentDisposition: http?.value(forHTTPHeaderField: "Content-Disposition"),
                head: { [file] in DownloadedFile.head(of: file) })
            let name: AttachmentName
            switch rules.attachmentName(for: downloaded) {
            case .failure(let refusal):
                return completion(.failed(Failure(FallbackReason(refusal.reason), refusal.detail)))
            case .success(let given): name = given
            }
            if name.fileName != stem {
                let renamed = folder.appendingPathComponent(name.fileName)
                do {
                    try FileManager.default.moveItem(at: file, to: renamed)
                } catch {
                    return completion(
                        .failed(Failure(.networkError, "cannot name the attachment \(name.fileName): \(error)")))
                }
                file = renamed
            }
            let options = name.typeHint.map { [UNNotificationAttachmentOptionsTypeHintKey: $0] as [AnyHashable: Any] }
            do {
                let attachment = try RichPushHostChannel.withRequest(requestID) {
                    try UNNotificationAttachment(identifier: "", url: file, options: options)
                }
                completion(.attached(UncheckedAttachment(attachment: attachment)))
            } catch {
                // richpush has seen the UNError itself (attachmentRejected in the timeline).
                completion(.failed(Failure(.attachmentRejected, "UNNotificationAttachment threw \(error)")))
            }
        }
        task.resume()
    }

    /// A URLSession error in the result contract's words.
    static func classify(_ error: any Error, url: URL, rules: any VendorRules) -> Failure {
        let code = (error as NSError).code
        if code == NSURLErrorTimedOut {
            return Failure(.timeout, "no complete image within \(rules.timeout) (\(rules.title))")
        }
        if url.scheme?.lowercased() == "http" {
            return Failure(
                .insecureURL, "\(rules.title) handed http:// to URLSession, which App Transport Security refuses")
        }
        return Failure(
            .networkError, "the download of \(url.absoluteString) failed: \((error as NSError).localizedDescription)")
    }

    /// The outcomes of downloads running at once, by index.
    private final class Results: @unchecked Sendable {
        // @unchecked: every access holds `lock`.
        private let lock = NSLock()
        private var outcomes: [Outcome?]

        init(count: Int) { outcomes = Array(repeating: nil, count: count) }

        func set(_ index: Int, _ outcome: Outcome) {
            lock.lock()
            defer { lock.unlock() }
            outcomes[index] = outcome
        }

        var all: [Outcome] {
            lock.lock()
            defer { lock.unlock() }
            return outcomes.compactMap { $0 }
        }
    }
}

extension VendorAttachmentLoader {
    /// What most vendors' extensions do with a notification: record what the SDK would send, load the images by the
    /// vendor's rules, put them on `content` (replacing what it had, or after it), report each failure, and call
    /// `completion` once with the content. Nothing is loaded when the payload names no image.
    public func populate(
        _ content: UNMutableNotificationContent, replacingAttachments: Bool = true,
        completion: @escaping (UNNotificationContent) -> Void
    ) {
        let userInfo = content.userInfo
        VendorChannel.recordWouldSend(rules, for: userInfo)
        let box = UncheckedContent(content: content, completion: completion)
        load(for: userInfo) { [rules] attachments, failures in
            for failure in failures { VendorChannel.imageFailed(rules, failure) }
            if !attachments.isEmpty {
                box.content.attachments = replacingAttachments ? attachments : box.content.attachments + attachments
            }
            box.completion(box.content)
        }
    }

    /// iOS's content and handler, handed to the completion of a download on another thread, once.
    private struct UncheckedContent: @unchecked Sendable {
        let content: UNMutableNotificationContent
        let completion: (UNNotificationContent) -> Void
    }
}
