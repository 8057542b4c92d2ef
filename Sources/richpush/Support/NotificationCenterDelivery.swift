import Foundation
import RichPushCore
import RichPushFiles
import RichPushLibrary
import RichPushNetwork
import RichPushReplay
import RichPushServe
import RichPushTUI

/// Sends payloads from the notification center through the notification system, with the SDK picked on screen
/// (`p`) unless the payload's own `given.sdk` names one.
struct NotificationCenterDelivery: NotificationDelivering {
    var system: NotificationSystem
    var store: AttachmentStore
    /// Where `e` writes its reports.
    var reportFolder: String = FileManager.default.currentDirectoryPath
    /// The SDK picked on screen; a payload's own `given.sdk` still wins.
    let selectedSDK = SDKSelection()
    /// The team's extension folder (`--extension`), for the report's header.
    var customExtension: String?
    /// The `--record` recorder, which `w` writes with; nil without `--record`.
    var recorder: PushRecorder?
    /// The pushes received, for `w`; nil when the notification center does not listen.
    var recentPushes: RecentPushes?

    func deliver(_ input: DeliveryInput, observer: @escaping @Sendable (DeliveryProgress) -> Void) async
        -> DeliveryResult
    {
        var input = input
        if input.settings.sdk == nil { input.settings.sdk = selectedSDK.current }
        return await system.deliver(input, observer: observer)
    }

    func sdkChanged(_ sdk: SDKProfile) {
        selectedSDK.current = sdk
    }

    func discardAttachments(_ files: [String]) async {
        for file in files { store.remove(URL(fileURLWithPath: file)) }
    }

    /// The notifications as the replay's HTML report, written to a new file
    /// `richpush-report-YYYYMMDD-HHMMSS.html` in ``reportFolder`` (never over an existing one).
    func exportReport(_ results: [DeliveryResult]) async -> Result<String, ExportError> {
        let items = results.map { ReplayItem(file: PayloadFile(path: $0.file), result: $0, verdict: .unchecked) }
        // The SDK picked on screen is the one the deliveries used (a payload's own given.sdk aside).
        var configuration = system.configuration
        if let picked = selectedSDK.current { configuration.sdk = picked }
        let context = ReportContext(
            about: [.init("From", "the notification center")], configuration: configuration,
            customExtension: customExtension)
        let html = HTMLReporter(context: context, attachmentBytes: AttachmentFile.read).render(
            ReplayReport(items: items, elapsed: results.map(\.elapsed).reduce(0, +)))
        let stamp = Self.stamp(Date())
        var lastProblem = "no free file name"
        for attempt in 1...20 {
            let name = "richpush-report-\(stamp)\(attempt == 1 ? "" : "-\(attempt)").html"
            let path = (reportFolder as NSString).appendingPathComponent(name)
            do {
                try OutputFile.createNew(path, text: html)
                return .success(path)
            } catch {
                lastProblem = "\(path): \(error.reason)"
                guard FileNode.exists(path) else { break }
            }
        }
        return .failure(ExportError(lastProblem))
    }

    /// `w`: the notification as `--record` writes it, into the `--record` folder. A push that arrived over the
    /// network is written from the request kept for it; a library payload from its file (the path the delivery
    /// read), with its own expectation's settings.
    func record(_ result: DeliveryResult) async -> Result<String, ExportError> {
        guard let recorder else {
            return .failure(ExportError("start the notification center with --record DIR to record notifications"))
        }
        let push: RecordedPush
        if result.transport == .file {
            let file = result.file
            guard case .bytes(let body) = SafeFileReader.read(file, limit: PayloadDecoder.maxFileBytes) else {
                return .failure(ExportError("cannot read \(file)"))
            }
            var library = RecordedPush(
                outcome: .delivered(result), transport: .file, attributes: result.apns ?? APNsAttributes(id: ""),
                body: body, appState: result.appState)
            library.attributes.id = UUID().uuidString.lowercased()
            library.given = Self.given(ofPayloadAt: file)
            push = library
        } else if let id = result.apns?.id, let kept = recentPushes?.push(id: id) {
            push = kept
        } else {
            return .failure(ExportError("this push is no longer kept (the newest \(RecentPushes.capacity) are)"))
        }
        return await recorder.recordNow(push).map { recorder.folder.fullPath($0) }.mapError { ExportError($0.message) }
    }

    /// The `given` of a library payload's expectation, without the keys that name folders relative to the payload
    /// (`extension`, `fixtures`), which would not hold beside the recording.
    static func given(ofPayloadAt path: String) -> JSONObject {
        guard let expectation = PayloadFile.at(path).expectationPath,
            case .bytes(let bytes) = SafeFileReader.read(expectation, limit: LoadedPayload.maxExpectationBytes),
            case .object(var given)? = (try? JSONParser.parse(bytes))?["given"]
        else { return [:] }
        given["extension"] = nil
        given["fixtures"] = nil
        return given
    }

    static func stamp(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ value: Int?) -> String { String(format: "%02d", value ?? 0) }
        return
            "\(parts.year ?? 0)\(two(parts.month))\(two(parts.day))-\(two(parts.hour))\(two(parts.minute))\(two(parts.second))"
    }
}
