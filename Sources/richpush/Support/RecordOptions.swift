import ArgumentParser
import Foundation
import RichPushCore
import RichPushServe

/// `--record DIR` and its limits, as `serve` and the notification center's listener take them.
struct RecordOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Write each push answered as a payload file with its expectation into DIR (refused ones into DIR/rejected/), for `richpush replay DIR`.",
            valueName: "DIR"))
    var record: String?

    @Flag(
        name: .customLong("record-tokens"),
        help: "Write device and FCM registration tokens as sent instead of a stable hash of each.")
    var recordTokens = false

    @Option(
        name: .customLong("record-max"),
        help: ArgumentHelp(
            "Record at most N pushes in this run; later ones are served, not recorded.",
            valueName: "N"))
    var recordMax: Int = PushRecorder.Options.defaultMaxRecordings

    @Option(
        name: .customLong("record-max-bytes"),
        help: ArgumentHelp(
            "Write at most SIZE (e.g. 50MB) of recordings in this run, images included (default: \(ByteSize.describe(PushRecorder.Options.defaultMaxBytes)), 1 GB).",
            valueName: "SIZE"))
    var recordMaxBytes: SizeArgument?

    @Flag(
        name: .customLong("record-images"),
        help:
            "Also save each image shown into DIR/images/ and point the recording at the fixture CDN, so it replays offline."
    )
    var recordImages = false

    @Flag(
        name: .customLong("record-auth-refusals"),
        help:
            "Also record pushes refused for their provider token (403 InvalidProviderToken, ExpiredProviderToken, MissingProviderToken; FCM's 401), which replay cannot judge again; by default they are only counted."
    )
    var recordAuthRefusals = false

    func validate() throws {
        if recordMax < 1 { throw ValidationError("--record-max must be at least 1") }
        if record == nil,
            recordTokens || recordImages || recordAuthRefusals || recordMaxBytes != nil
                || recordMax != PushRecorder.Options.defaultMaxRecordings
        {
            throw ValidationError(
                "--record-tokens, --record-max, --record-max-bytes, --record-images and --record-auth-refusals go with --record DIR"
            )
        }
    }

    /// The recorder for `--record DIR`, or nil without it. A folder that cannot be used is a start-up error naming
    /// it (status 2). `delivery` is how the run delivers, which every recording says in its `given`, the team's
    /// extension in use included.
    func recorder(
        command: String, delivery: DeliveryOptions, note: @escaping @Sendable (String) -> Void
    ) throws(CommandFailure) -> PushRecorder? {
        guard let record else { return nil }
        return try Self.recorder(
            directory: record, keepsTokens: recordTokens, maxRecordings: recordMax,
            maxBytes: recordMaxBytes?.bytes ?? PushRecorder.Options.defaultMaxBytes, savesImages: recordImages,
            recordsAuthRefusals: recordAuthRefusals, command: command, extensionFolder: delivery.extensionFolder,
            given: delivery.overrides.deliveryGiven, note: note)
    }

    static func recorder(
        directory: String, keepsTokens: Bool = false, maxRecordings: Int = PushRecorder.Options.defaultMaxRecordings,
        maxBytes: Int = PushRecorder.Options.defaultMaxBytes, savesImages: Bool = false,
        recordsAuthRefusals: Bool = false, command: String, extensionFolder: String?, given: JSONObject = [:],
        note: @escaping @Sendable (String) -> Void
    ) throws(CommandFailure) -> PushRecorder {
        let options = PushRecorder.Options(
            directory: directory, maxRecordings: maxRecordings, maxBytes: maxBytes,
            settings: RecordedPayload.Settings(
                keepsTokens: keepsTokens,
                extensionFolder: extensionFolder.map { relativePath(from: directory, to: $0) }, given: given),
            savesImages: savesImages, recordsAuthRefusals: recordsAuthRefusals)
        do {
            return try PushRecorder(options: options, note: note)
        } catch {
            throw .usage(
                "\(command): cannot record into \(TextSanitizer.singleLine(error.path)): \(error.reason)")
        }
    }

    /// `target` as a path relative to the folder `base` (both made absolute from the working directory), as
    /// `given.extension` names a folder relative to the payload's.
    static func relativePath(from base: String, to target: String) -> String {
        let cwd = FileManager.default.currentDirectoryPath
        func parts(_ path: String) -> [String] {
            let absolute = path.hasPrefix("/") ? path : (cwd as NSString).appendingPathComponent(path)
            return URL(fileURLWithPath: absolute).standardizedFileURL.pathComponents.filter { $0 != "/" }
        }
        let from = parts(base)
        let to = parts(target)
        var common = 0
        while common < min(from.count, to.count), from[common] == to[common] { common += 1 }
        let path = Array(repeating: "..", count: from.count - common) + to[common...]
        return path.isEmpty ? "." : path.joined(separator: "/")
    }
}
