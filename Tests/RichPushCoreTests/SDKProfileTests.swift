import Foundation
import RichPushCore
import Synchronization
import Testing

/// A downloader double that writes real bytes to a real file, as the HTTPS downloader does (`<uuid>.<sniffed
/// format>`), so the profiles' renaming and magic-byte sniffing act on a file. Each URL's answer is scripted.
final class FileDownloader: ImageDownloading, Sendable {
    struct Answer: Sendable {
        var contentType: String?
        var bytes: [UInt8] = FileDownloader.jfif
        var format: ImageFormat = .jpeg
        var failure: DownloadFailure?
    }

    /// A JPEG's first bytes as most encoders write them (JFIF, `FF D8 FF E0`).
    static let jfif: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0x01]
    /// A camera JPEG's first bytes (Exif, `FF D8 FF E1`).
    static let exif: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE1, 0x00, 0x10, 0x45, 0x78, 0x69, 0x66, 0x00, 0x00]

    let directory: URL
    let answers: @Sendable (URL) -> Answer
    private let seen = Mutex<[(URL, DownloadLimits)]>([])
    private let discardedFiles = Mutex<[URL]>([])

    init(_ answers: @escaping @Sendable (URL) -> Answer) {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "richpush-sdk-tests-\(UUID().uuidString)", isDirectory: true)
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        self.answers = answers
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    var requests: [(url: URL, limits: DownloadLimits)] { seen.withLock { $0.map { ($0.0, $0.1) } } }
    var discarded: [URL] { discardedFiles.withLock { $0 } }

    func download(
        _ url: URL, limits: DownloadLimits, events: @escaping @Sendable (DownloadEvent) -> Void
    ) async throws -> DownloadedImage {
        seen.withLock { $0.append((url, limits)) }
        let answer = answers(url)
        if let failure = answer.failure { throw failure }
        events(.responseReceived(status: 200, contentType: answer.contentType, expectedBytes: answer.bytes.count))
        let file = directory.appendingPathComponent("\(UUID().uuidString.lowercased()).\(answer.format.fileExtension)")
        try Data(answer.bytes).write(to: file)
        return DownloadedImage(
            file: file, format: answer.format, width: 320, height: 240, frames: 1, bytes: answer.bytes.count,
            sha256: String(repeating: "cd", count: 32), servedContentType: answer.contentType)
    }

    func discard(_ image: DownloadedImage) async {
        discardedFiles.withLock { $0.append(image.file) }
        try? FileManager.default.removeItem(at: image.file)
    }
}

/// One test per profile rule that differs from the requirement's extension; each names the source it follows.
@Suite struct SDKProfileTests {
    static let alert = #""aps": {"alert": {"title": "Sale", "body": "Today only"}, "mutable-content": 1}"#

    func deliver(
        _ body: String, sdk: SDKProfile, downloader: FileDownloader, state: AppState = .background
    ) async -> DeliveryResult {
        let system = NotificationSystem(
            downloader: downloader, configuration: DeliveryConfiguration())
        return await system.deliver(
            .file(
                "p.json", bytes: payload("{\(Self.alert), \(body)}"), appState: state,
                settings: DeliveryOverrides(sdk: sdk)))
    }

    var fileName: (DeliveryResult) -> String {
        { ($0.attachment?.file).map { URL(fileURLWithPath: $0).lastPathComponent } ?? "" }
    }

    // MARK: - Where the image URL comes from

    /// FIRMessagingExtensionHelper.m reads `userInfo[@"fcm_options"][@"image"]` only.
    @Test func firebaseReadsFcmOptionsImageOnly() async {
        let downloader = FileDownloader { _ in .init(contentType: "image/jpeg") }
        let other = await deliver(
            #""notification": {"image": "https://cdn.test/a.jpg"}"#, sdk: SDKProfile(Firebase()), downloader: downloader
        )
        #expect(other.style == .plain)
        #expect(downloader.requests.isEmpty)
        #expect(other.imageURL == nil)
        #expect(
            other.hint
                == "Firebase (FIRMessagingExtensionHelper) reads the image from fcm_options.image only, but notification.image holds an https URL."
        )
        let own = await deliver(
            #""fcm_options": {"image": "https://cdn.test/a.jpg"}"#, sdk: SDKProfile(Firebase()), downloader: downloader)
        #expect(own.style == .rich)
    }

    /// OSNotification.m: `_attachments = _rawPayload[@"att"]`, or `os_data[@"att"]` when os_data is a dictionary;
    /// OneSignalAttachmentHandler.m walks every key in turn and skips one that fails.
    @Test func oneSignalTakesEachAttEntryInTurnAndSkipsAFailedOne() async {
        let downloader = FileDownloader { url in
            url.path.hasSuffix("gone.jpg")
                ? .init(failure: DownloadFailure(.httpStatus, "HTTP 404")) : .init(contentType: "image/jpeg")
        }
        let result = await deliver(
            #""att": {"id": "https://cdn.test/gone.jpg", "second": "https://cdn.test/b.jpg"}"#,
            sdk: SDKProfile(OneSignal()),
            downloader: downloader)
        #expect(result.style == .rich)
        #expect(result.attachment?.url == "https://cdn.test/b.jpg")
        #expect(result.imageURL == "https://cdn.test/gone.jpg", "the first URL the extension reads")
        #expect(result.jsonValue["sdk"] == .string("onesignal"))
        #expect(downloader.requests.map(\.url.lastPathComponent) == ["gone.jpg", "b.jpg"])

        let nested = await deliver(
            #""os_data": {"att": {"id": "https://cdn.test/c.jpg"}}, "att": {"id": "https://cdn.test/d.jpg"}"#,
            sdk: SDKProfile(OneSignal()), downloader: downloader)
        #expect(nested.attachment?.url == "https://cdn.test/c.jpg")
    }

    /// MediaAttachmentPayload.swift: `urls` ([{url}]) else `url` (string or array); AirshipNotificationMutationProvider
    /// loads them in a throwing task group, so one failure leaves no attachment at all.
    @Test func airshipDropsEveryAttachmentWhenOneFails() async {
        let downloader = FileDownloader { url in
            url.path.hasSuffix("gone.jpg")
                ? .init(failure: DownloadFailure(.httpStatus, "HTTP 404")) : .init(contentType: "image/jpeg")
        }
        let result = await deliver(
            #""com.urbanairship.media_attachment": {"urls": [{"url": "https://cdn.test/a.jpg"}, {"url": "https://cdn.test/gone.jpg"}]}"#,
            sdk: SDKProfile(Airship()), downloader: downloader)
        #expect(result.style == .plain)
        #expect(result.fallback?.reason == .httpStatus)
        #expect(result.fallback?.detail.contains("drops every attachment when one of its 2 fails") == true)
        #expect(downloader.requests.count == 2)
        #expect(downloader.discarded.count == 1)

        let both = await deliver(
            #""com.urbanairship.media_attachment": {"url": ["https://cdn.test/a.jpg", "https://cdn.test/b.jpg"]}"#,
            sdk: SDKProfile(Airship()), downloader: downloader)
        #expect(both.style == .rich)
        #expect(both.attachment?.url == "https://cdn.test/a.jpg")
    }

    /// The Appboy sample's NotificationService.swift ends with "Push attachment has no type." without `ab.att.type`.
    @Test func brazeNeedsTheAttachmentType() async {
        let downloader = FileDownloader { _ in .init(contentType: "image/jpeg") }
        let untyped = await deliver(
            #""ab": {"att": {"url": "https://cdn.test/a.jpg"}}"#, sdk: SDKProfile(Braze()), downloader: downloader)
        #expect(untyped.style == .plain)
        #expect(untyped.fallback == nil)
        #expect(downloader.requests.isEmpty)
        #expect(untyped.hint?.contains("needs ab.att.type beside ab.att.url") == true)
        let typed = await deliver(
            #""ab": {"att": {"url": "https://cdn.test/a", "type": "jpg"}}"#, sdk: SDKProfile(Braze()),
            downloader: downloader)
        #expect(typed.style == .rich)
        #expect(fileName(typed).hasSuffix(".jpg"))
    }

    // MARK: - What is checked of the response

    /// Every vendor hands the response to its completion handler without looking at the Content-Type
    /// (e.g. FIRMessagingExtensionHelper.m checks only `error`); the requirement's extension wants image/*.
    @Test(arguments: SDKProfile.all.filter { $0 != .requirement })
    func vendorsDoNotCheckTheContentType(sdk: SDKProfile) async {
        let downloader = FileDownloader { _ in .init(contentType: "image/jpeg") }
        _ = await deliver(Self.everyKey("https://cdn.test/a.jpg", for: sdk), sdk: sdk, downloader: downloader)
        #expect(downloader.requests.first?.limits.contentTypeRule == .ignored, "\(sdk.name)")
        let requirement = FileDownloader { _ in .init(contentType: "image/jpeg") }
        _ = await deliver(Self.everyKey("https://cdn.test/a.jpg"), sdk: .requirement, downloader: requirement)
        #expect(requirement.requests.first?.limits.contentTypeRule == .imageOnly)
    }

    /// Timeouts: NSURLSession's default 60 s where the SDK sets none (Firebase, OneSignal, Airship, Braze,
    /// CleverTap, Iterable); Customer.io's RichPushHttpClient sets `timeoutIntervalForResource = 30`; Batch's
    /// Consts.swift `timeoutIntervalSecs = 20`. Sizes: OneSignal cancels over 50,000,000 bytes
    /// (`MAX_NOTIFICATION_MEDIA_SIZE_BYTES`); the others do not check (richpush's own cap applies).
    @Test func timeoutsAndSizeLimitsFollowEachSDK() async {
        let expected: [String: (Duration, Int)] = [
            "requirement": (.seconds(5), 10 * 1024 * 1024), "firebase": (.seconds(60), Vendors.safetyCapBytes),
            "onesignal": (.seconds(60), 50_000_000), "airship": (.seconds(60), Vendors.safetyCapBytes),
            "braze": (.seconds(60), Vendors.safetyCapBytes), "clevertap": (.seconds(60), Vendors.safetyCapBytes),
            "iterable": (.seconds(60), Vendors.safetyCapBytes),
            "customerio": (.seconds(30), Vendors.safetyCapBytes),
            "batch": (.seconds(20), Vendors.safetyCapBytes),
            // MoEngage, Pushwoosh, Notificare, Kumulos, Optimove, Klaviyo set no timeout (URLSession's 60 s); Infobip
            // 15.x sets 20 s (MMNSEAttachmentDownloader.swift); none checks the size.
            "moengage": (.seconds(60), Vendors.safetyCapBytes), "pushwoosh": (.seconds(60), Vendors.safetyCapBytes),
            "notificare": (.seconds(60), Vendors.safetyCapBytes), "kumulos": (.seconds(60), Vendors.safetyCapBytes),
            "optimove": (.seconds(60), Vendors.safetyCapBytes), "infobip": (.seconds(20), Vendors.safetyCapBytes),
            "klaviyo": (.seconds(60), Vendors.safetyCapBytes),
        ]
        for sdk in SDKProfile.all {
            let downloader = FileDownloader { _ in .init(contentType: "image/jpeg") }
            let result = await deliver(
                Self.everyKey("https://cdn.test/a.jpg", for: sdk), sdk: sdk, downloader: downloader)
            #expect(downloader.requests.first?.limits.timeout == expected[sdk.name]?.0, "\(sdk.name)")
            #expect(downloader.requests.first?.limits.maxBytes == expected[sdk.name]?.1, "\(sdk.name)")
            #expect(result.limits?.downloadTimeout == expected[sdk.name]?.0, "\(sdk.name)")
        }
    }

    /// An image that takes 6 s: the requirement's 5 s deadline gives up, Firebase's NSURLSession default (60 s,
    /// FIRMessagingExtensionHelper.m sets none) waits for it within the 30 s budget.
    @Test func aSixSecondImageShowsWithFirebaseButNotWithTheRequirementsFiveSeconds() async {
        for (sdk, style) in [(SDKProfile.requirement, PresentationStyle.plain), (SDKProfile(Firebase()), .rich)] {
            let clock = ArmedTestClock()
            let downloader = ScriptedDownloader { _, _, _ in
                try await clock.sleep(for: .seconds(6))
                return DownloadedImage(
                    file: URL(fileURLWithPath: "/tmp/richpush-test/\(UUID().uuidString).png"), format: .png, width: 8,
                    height: 8, frames: 1, bytes: 100, sha256: "", servedContentType: "image/png")
            }
            let system = NotificationSystem(downloader: downloader, clock: clock)
            let result = await driving(clock) {
                await system.deliver(
                    .file(
                        "slow.json",
                        bytes: payload(#"{\#(Self.alert), "fcm_options": {"image": "https://cdn.test/cat.png"}}"#),
                        appState: .background, settings: DeliveryOverrides(sdk: sdk)))
            }
            #expect(result.style == style, "\(sdk.name)")
            if sdk == .requirement { #expect(result.fallback?.reason == .timeout) }
        }
    }

    /// A vendor hands http:// to NSURLSession, where App Transport Security refuses it: the same outcome as the
    /// requirement's own https check, said as it happens.
    @Test func httpIsRefusedByAppTransportSecurityForVendorsToo() async {
        let downloader = FileDownloader { _ in .init(contentType: "image/jpeg") }
        let result = await deliver(
            #""fcm_options": {"image": "http://cdn.test/a.jpg"}"#, sdk: SDKProfile(Firebase()), downloader: downloader)
        #expect(result.fallback?.reason == .insecureURL)
        #expect(result.fallback?.detail.contains("NSURLSession") == true)
        #expect(downloader.requests.isEmpty)
    }

    // MARK: - How the file is named, and so whether iOS accepts it

    /// FIRMessagingExtensionHelper.m names the file `<temp>.` + `[response.suggestedFilename pathExtension]`;
    /// Apple's suggested name takes the MIME type's extension when the URL has none.
    @Test func firebaseNamesTheFileFromTheSuggestedFilename() async {
        let jpeg = FileDownloader { _ in .init(contentType: "image/jpeg") }
        let served = await deliver(
            #""fcm_options": {"image": "https://cdn.test/photo"}"#, sdk: SDKProfile(Firebase()), downloader: jpeg)
        #expect(served.style == .rich)
        #expect(fileName(served).hasSuffix(".jpeg"))

        let octet = FileDownloader { _ in .init(contentType: "application/octet-stream") }
        let untyped = await deliver(
            #""fcm_options": {"image": "https://cdn.test/photo"}"#, sdk: SDKProfile(Firebase()), downloader: octet)
        #expect(untyped.style == .plain)
        #expect(untyped.fallback?.reason == .attachmentRejected)
        #expect(octet.requests.count == 1)
    }

    /// OneSignalAttachmentHandler.m `getSupportedFileExtensionFromURL:mimeType:`: filename= query item, MIME map,
    /// URL extension, query items; nothing supported: no attachment.
    @Test func oneSignalNeedsASupportedExtensionFromQueryMimeOrPath() async {
        let octet = FileDownloader { _ in .init(contentType: "application/octet-stream") }
        let none = await deliver(
            #""att": {"id": "https://cdn.test/photo"}"#, sdk: SDKProfile(OneSignal()), downloader: octet)
        #expect(none.style == .plain)
        #expect(none.fallback?.reason == .unsupportedImageType)
        #expect(octet.discarded.count == 1)

        let query = await deliver(
            #""att": {"id": "https://cdn.test/photo?filename=shot.jpg"}"#, sdk: SDKProfile(OneSignal()),
            downloader: octet)
        #expect(query.style == .rich)
        #expect(fileName(query).hasSuffix(".jpg"))

        let jpeg = FileDownloader { _ in .init(contentType: "image/jpeg") }
        let mime = await deliver(
            #""att": {"id": "https://cdn.test/photo"}"#, sdk: SDKProfile(OneSignal()), downloader: jpeg)
        #expect(fileName(mime).hasSuffix(".jpeg"))
    }

    /// AirshipNotificationMutationProvider.swift: without a supported suffix, a type hint from the MIME type, else
    /// from `FileHeader.supportedHeaders` (JPEG only as `FF D8 FF E0/E2/E3`).
    @Test func airshipSniffsMagicBytesWhenNameAndMimeSayNothing() async {
        let jfif = FileDownloader { _ in .init(contentType: "application/octet-stream", bytes: FileDownloader.jfif) }
        let sniffed = await deliver(
            #""com.urbanairship.media_attachment": {"url": "https://cdn.test/photo"}"#, sdk: SDKProfile(Airship()),
            downloader: jfif)
        #expect(sniffed.style == .rich)
        #expect(sniffed.timeline.contains { $0.kind == .attachmentCreated && $0.detail.contains("public.jpeg") })

        let exif = FileDownloader { _ in .init(contentType: "application/octet-stream", bytes: FileDownloader.exif) }
        let unknown = await deliver(
            #""com.urbanairship.media_attachment": {"url": "https://cdn.test/photo"}"#, sdk: SDKProfile(Airship()),
            downloader: exif)
        #expect(unknown.style == .plain)
        #expect(unknown.fallback?.reason == .attachmentRejected)
    }

    /// CTNotificationServiceExtension.m `fileExtensionForMediaType:`: image → jpg.
    @Test func cleverTapMapsTheMediaTypeImageToJpg() async {
        let octet = FileDownloader { _ in .init(contentType: "application/octet-stream") }
        let result = await deliver(
            #""ct_mediaUrl": "https://cdn.test/photo", "ct_mediaType": "image""#, sdk: SDKProfile(CleverTap()),
            downloader: octet)
        #expect(result.style == .rich)
        #expect(fileName(result).hasSuffix(".jpg"))
    }

    /// ITBNotificationServiceExtension.swift: `UUID().uuidString + suggestedFilename`, key `itbl.attachment-url`;
    /// Customer.io: `UUID + "_" + suggestedFileName`, key `CIO.push.image`.
    @Test func iterableAndCustomerIOKeepTheWholeSuggestedName() async {
        let jpeg = FileDownloader { _ in .init(contentType: "image/jpeg") }
        let iterable = await deliver(
            #""itbl": {"attachment-url": "https://cdn.test/photo"}"#, sdk: SDKProfile(Iterable()), downloader: jpeg)
        #expect(fileName(iterable).hasSuffix("photo.jpeg"))
        let customerIO = await deliver(
            #""CIO": {"push": {"image": "https://cdn.test/photo"}}, "CIO-Delivery-ID": "d", "CIO-Delivery-Token": "t""#,
            sdk: SDKProfile(CustomerIO()), downloader: jpeg)
        #expect(fileName(customerIO).hasSuffix("_photo.jpeg"))
        #expect(customerIO.style == .rich)
    }

    /// RichNotificationHelper.swift passes `com.batch.at.t` as UNNotificationAttachmentOptionsTypeHintKey on the
    /// download's own (extension-less) file.
    @Test func batchTypesTheFileByThePayloadsTypeHint() async {
        let octet = FileDownloader { _ in .init(contentType: "application/octet-stream") }
        let uti = await deliver(
            #""com.batch": {"at": {"u": "https://cdn.test/photo", "t": "public.jpeg"}}"#, sdk: SDKProfile(Batch()),
            downloader: octet
        )
        #expect(uti.style == .rich)
        let word = await deliver(
            #""com.batch": {"at": {"u": "https://cdn.test/photo", "t": "image"}}"#, sdk: SDKProfile(Batch()),
            downloader: octet)
        #expect(word.style == .plain)
        #expect(word.fallback?.reason == .attachmentRejected)
    }

    /// OneSignalAttachmentHandler.m `isWWWScheme:`: an att value that is not http(s) names a file in the app
    /// bundle, which richpush cannot emulate.
    @Test func oneSignalTakesANonWebAttValueForABundleFile() async {
        let downloader = FileDownloader { _ in .init(contentType: "image/jpeg") }
        let result = await deliver(#""att": {"id": "promo.png"}"#, sdk: SDKProfile(OneSignal()), downloader: downloader)
        #expect(result.style == .plain)
        #expect(result.fallback?.reason == .invalidURL)
        let local = await deliver(
            #""att": {"id": "file:///promo.png"}"#, sdk: SDKProfile(OneSignal()), downloader: downloader)
        #expect(local.fallback?.detail.contains("a file in the app bundle") == true)
        #expect(downloader.requests.isEmpty)
    }

    /// AirshipNotificationMutationProvider.swift `hintMimeType`: the MIME type's UTI comes before the magic bytes,
    /// so an Exif JPEG served as image/jpeg is typed although its header is not in `supportedHeaders`.
    @Test func airshipHintsFromTheMimeTypeBeforeTheBytes() async {
        let exif = FileDownloader { _ in .init(contentType: "image/jpeg", bytes: FileDownloader.exif) }
        let result = await deliver(
            #""com.urbanairship.media_attachment": {"url": "https://cdn.test/photo"}"#, sdk: SDKProfile(Airship()),
            downloader: exif)
        #expect(result.style == .rich)
    }

    /// FIRMessagingExtensionHelper.m checks no size: a body past richpush's own cap says that cap is richpush's.
    @Test func aVendorWithoutASizeCheckStopsAtRichpushsOwnCapAndSaysSo() async {
        let downloader = FileDownloader { _ in
            .init(failure: DownloadFailure(.tooLarge, "over the 67108864-byte limit"))
        }
        let result = await deliver(
            #""fcm_options": {"image": "https://cdn.test/huge.png"}"#, sdk: SDKProfile(Firebase()),
            downloader: downloader)
        #expect(result.fallback?.reason == .tooLarge)
        #expect(
            result.fallback?.detail.contains(
                "richpush's own cap: Firebase (FIRMessagingExtensionHelper) does not check the size") == true)
    }

    // MARK: - Settings

    @Test func givenSdkNamesAProfileOrSaysWhichExist() throws {
        let settings = try DeliveryOverrides.parse(given: .object(["sdk": .string("Firebase")]))
        #expect(settings.sdk == SDKProfile(Firebase()))
        #expect(settings.applied(to: DeliveryConfiguration()).sdk == SDKProfile(Firebase()))
        #expect(throws: DeliveryOverridesError.self) {
            try DeliveryOverrides.parse(given: .object(["sdk": .string("fcm")]))
        }
        do {
            _ = try DeliveryOverrides.parse(given: .object(["sdk": .string("fcm")]))
        } catch {
            #expect(error.message.contains("\"onesignal\""))
        }
    }

    /// A payload carrying the same URL under every vendor's key, as the corpus's comparison payloads do.
    /// The same URL under every vendor's key, with what each vendor needs beside it to take the push as its own.
    /// Pushwoosh and Notificare both read a top-level `attachment` (a string, an object): Notificare gets its own.
    static func everyKey(_ url: String, for sdk: SDKProfile? = nil) -> String {
        let attachment = sdk?.name == "notificare" ? #"{"uri": "\#(url)"}"# : #""\#(url)""#
        return """
            "fcm_options": {"image": "\(url)"}, "att": {"id": "\(url)"},
            "com.urbanairship.media_attachment": {"url": "\(url)"}, "ab": {"att": {"url": "\(url)", "type": "jpg"}},
            "ct_mediaUrl": "\(url)", "ct_mediaType": "image", "itbl": {"attachment-url": "\(url)"},
            "CIO": {"push": {"image": "\(url)"}}, "CIO-Delivery-ID": "d1", "CIO-Delivery-Token": "t1",
            "com.batch": {"at": {"u": "\(url)", "t": "public.jpeg"}},
            "moengage": {"app_id": "A", "cid": "C", "media-attachment": "\(url)"},
            "pw_msg": "1", "p": "richpush", "attachment": \(attachment),
            "custom": {"a": {"k.message": {"type": 1, "data": {"id": 1}}}}, "attachments": {"pictureUrl": "\(url)"},
            "messageId": "m1", "internalData": {"atts": [{"url": "\(url)"}]},
            "rich-media": "\(url)", "rich-media-type": "jpg"
            """
    }
}
