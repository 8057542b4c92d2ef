import Foundation
import RichPushTestSupport
import Testing

/// Code as real extensions write it with each module, compiled unmodified (Swift 5 mode) against the compatibility
/// modules.
@Suite("Extension code using each compatibility module compiles unmodified")
struct CompatibilitySnippetsCompileTests {
    func expectCompiles(_ name: String, _ code: String, sourceLocation: SourceLocation = #_sourceLocation)
        async throws
    {
        let (status, output) = try await CompatibilityTypecheck.typecheck(name, code)
        #expect(status == 0, "\(output)", sourceLocation: sourceLocation)
        #expect(!output.contains("warning:"), "\(output)", sourceLocation: sourceLocation)
    }

    @Test("MobileCoreServices: kUTType constants, CFString casts, the UTType C functions, the type hint")
    func mobileCoreServices() async throws {
        try await expectCompiles(
            "NotificationService.swift",
            """
            import MobileCoreServices
            import UserNotifications

            class NotificationService: UNNotificationServiceExtension {
                func typeHint(for mimeType: String) -> String? {
                    guard let uti = UTTypeCreatePreferredIdentifierForTag(
                        kUTTagClassMIMEType, mimeType as CFString, nil)?.takeRetainedValue()
                    else { return nil }
                    guard UTTypeConformsTo(uti, kUTTypeImage) || UTTypeConformsTo(uti, kUTTypeMovie)
                        || UTTypeConformsTo(uti, kUTTypeAudio) else { return nil }
                    return uti as String
                }

                func fileExtension(for mimeType: String) -> String {
                    if let uti = UTTypeCreatePreferredIdentifierForTag(kUTTagClassMIMEType, mimeType as CFString, nil)?
                        .takeRetainedValue(),
                        let ext = UTTypeCopyPreferredTagWithClass(uti, kUTTagClassFilenameExtension)?.takeRetainedValue()
                    {
                        return ext as String
                    }
                    return "jpg"
                }

                func attach(_ url: URL) throws -> UNNotificationAttachment {
                    let options = [UNNotificationAttachmentOptionsTypeHintKey: kUTTypeJPEG]
                    return try UNNotificationAttachment(identifier: "image", url: url, options: options)
                }

                func attachAny(_ url: URL, _ hint: CFString) throws -> UNNotificationAttachment {
                    let types: [String] = [
                        kUTTypeJPEG as String, kUTTypePNG as String, kUTTypeGIF as String, kUTTypeMP3 as String,
                        kUTTypeMPEG4Audio as String, kUTTypeWaveformAudio as String, kUTTypeVideo as String,
                        kUTTypeMPEG4 as String, kUTTypeQuickTimeMovie as String,
                    ]
                    let known = types.contains(hint as String)
                    return try UNNotificationAttachment(
                        identifier: "a", url: url,
                        options: known ? [UNNotificationAttachmentOptionsTypeHintKey: hint] : nil)
                }
            }

            """)
    }

    @Test("UniformTypeIdentifiers: UTType from the response's MIME type and the URL's extension")
    func uniformTypeIdentifiers() async throws {
        try await expectCompiles(
            "NotificationService.swift",
            """
            import UniformTypeIdentifiers
            import UserNotifications

            class NotificationService: UNNotificationServiceExtension {
                func fileExtension(for response: URLResponse, url: URL) -> String? {
                    if let mime = response.mimeType, let type = UTType(mimeType: mime), type.conforms(to: .image) {
                        return type.preferredFilenameExtension
                    }
                    if let type = UTType(filenameExtension: url.pathExtension, conformingTo: .audiovisualContent) {
                        return type.preferredFilenameExtension
                    }
                    let supported: Set<UTType> = [.jpeg, .png, .gif, .heic, .webP, .mp3, .mpeg4Audio, .mpeg4Movie]
                    return supported.first { $0.identifier == url.pathExtension }?.preferredFilenameExtension
                }

                func attach(_ local: URL, mimeType: String?) throws -> UNNotificationAttachment {
                    let type = mimeType.flatMap { UTType(mimeType: $0) } ?? .jpeg
                    return try UNNotificationAttachment(
                        identifier: "image", url: local,
                        options: [UNNotificationAttachmentOptionsTypeHintKey: type.identifier])
                }

                func describe(_ type: UTType) -> String {
                    let kinds: [UTType] = [
                        .item, .content, .data, .image, .tiff, .bmp, .svg, .heif, .audio, .wav, .aiff, .movie, .video,
                        .quickTimeMovie, .mpeg, .mpeg2Video, .avi, .json, .plainText, .text,
                    ]
                    let matching = kinds.filter { type.conforms(to: $0) }.map(\\.identifier)
                    let mime = type.preferredMIMEType ?? "?"
                    let parents = type.supertypes.map(\\.description).sorted().joined(separator: ",")
                    return "\\(type.identifier) \\(mime) \\(type.isDeclared) \\(matching) \\(parents)"
                        + (UTType("public.jpeg")?.description ?? "")
                }
            }

            """)
    }

    @Test("os: os_log with printf formats and Logger with privacy, formats and alignment")
    func os() async throws {
        try await expectCompiles(
            "NotificationService.swift",
            """
            import UserNotifications
            import os

            class NotificationService: UNNotificationServiceExtension {
                let log = OSLog(subsystem: "com.example.app.NotificationService", category: "rich")
                let logger = Logger(subsystem: "com.example.app.NotificationService", category: "rich")

                override func didReceive(
                    _ request: UNNotificationRequest,
                    withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
                ) {
                    os_log("didReceive %{public}@", log: log, type: .info, request.identifier)
                    os_log("payload has %d keys", request.content.userInfo.count)
                    os_log(.debug, log: log, "title %{private}@ body %@", request.content.title, request.content.body)
                    os_log("%{public}s", log: OSLog.default, type: .fault, "fault")
                    let error = NSError(domain: "x", code: 1)
                    os_log("failed: %{public}@", log: log, type: .error, error)
                    os_log("failed: %@", log: log, type: .error, error.localizedDescription)
                    logger.info("didReceive \\(request.identifier, privacy: .public)")
                    logger.debug("title \\(request.content.title, privacy: .private(mask: .hash))")
                    logger.notice("badge \\(request.content.badge?.intValue ?? 0, format: .decimal(minDigits: 2))")
                    logger.warning("body \\(request.content.body, privacy: .sensitive) \\(3.5, format: .fixed(precision: 1))")
                    logger.error("failed: \\(error.localizedDescription, privacy: .public)")
                    logger.critical("\\(request.content.title, align: .left(columns: 10))|\\(true)")
                    logger.fault("\\(error) \\(Self.self) \\(255, format: .hex(includePrefix: true))")
                    logger.trace("trace \\(request.content.userInfo.count, privacy: .auto)")
                    logger.log(level: .error, "level \\(self.log)")
                    Logger().log("default logger")
                    Logger(log).info("from an OSLog")
                    contentHandler(request.content)
                }
            }

            """)
        try await expectCompiles(
            "Logging.swift",
            """
            import OSLog

            extension Logger {
                private static var subsystem = Bundle.main.bundleIdentifier ?? "nse"
                static let network = Logger(subsystem: subsystem, category: "network")
            }

            func fetched(_ url: URL, bytes: Int, seconds: Double) {
                Logger.network.info("fetched \\(url.absoluteString, privacy: .public): \\(bytes) bytes in \\(seconds) s")
                os_log(.info, "fetched %{public}@ %ld %.2f", url.absoluteString, bytes, seconds)
            }

            """)
    }

    @Test("FirebaseMessaging: Firebase's documented extension and the delivery metrics call")
    func firebaseMessaging() async throws {
        try await expectCompiles(
            "NotificationService.swift",
            """
            import UserNotifications
            import FirebaseMessaging

            class NotificationService: UNNotificationServiceExtension {
                var contentHandler: ((UNNotificationContent) -> Void)?
                var bestAttemptContent: UNMutableNotificationContent?

                override func didReceive(
                    _ request: UNNotificationRequest,
                    withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
                ) {
                    self.contentHandler = contentHandler
                    bestAttemptContent = (request.content.mutableCopy() as? UNMutableNotificationContent)
                    if let bestAttemptContent = bestAttemptContent {
                        bestAttemptContent.title = "\\(bestAttemptContent.title) [modified]"
                        Messaging.serviceExtension().exportDeliveryMetricsToBigQuery(
                            withMessageInfo: request.content.userInfo)
                        let info = Messaging.messaging().appDidReceiveMessage(request.content.userInfo)
                        if info.status == .new { print("new") }
                        FirebaseMessaging.Messaging.serviceExtension()
                            .populateNotificationContent(bestAttemptContent, withContentHandler: contentHandler)
                    }
                }

                override func serviceExtensionTimeWillExpire() {
                    if let contentHandler = contentHandler, let bestAttemptContent = bestAttemptContent {
                        contentHandler(bestAttemptContent)
                    }
                }
            }

            """)
        let example = try String(
            contentsOfFile: repositoryRootPath + "/examples/extensions/firebase/NotificationService.swift",
            encoding: .utf8)
        try await expectCompiles("NotificationService.swift", example)
    }

    @Test("Apple's limits stay: a String variable is not a Logger message, an Error is not interpolated")
    func loggerRejectsWhatAppleRejects() async throws {
        let (status, output) = try await CompatibilityTypecheck.typecheck(
            "Wrong.swift",
            """
            import os
            func log(_ text: String, _ error: Error) {
                Logger().info(text)
                Logger().error("\\(error)")
            }

            """)
        #expect(status != 0 && output.contains("OSLogMessage") && output.contains("any Error"), "\(output)")
    }
}
