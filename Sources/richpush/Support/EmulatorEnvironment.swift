import Foundation
import Logging
import RichPushCodecs
import RichPushCore
import RichPushCustomExtension
import RichPushFiles
import RichPushNetwork

/// The real network side of the emulator: the attachment store, the HTTPS downloader, the display-receipt
/// sender and, when needed, the embedded fixture CDN that `https://fixtures.richpush.test` maps to, and the host of
/// the team's own extension. Each is a part of the command that started it, stopped when the command ends.
struct EmulatorEnvironment: Sendable {
    let store: AttachmentStore
    let cdn: FixtureCDN?
    let downloader: HTTPSImageDownloader
    let receiptSender: HTTPSReceiptSender
    /// The team's own extension (`--extension`), run instead of the emulated one; nil without it.
    let customExtension: ExtensionProcessHost?
    /// Where CPU-bound work runs (decoding attachments, rendering reports, the extension host's file work), one slot
    /// per core, apart from the extensions in flight.
    let computePool: ComputePool

    /// Makes the attachment store and starts the fixture CDN on `fixtureRoot` when one is given, the downloader, the
    /// receipt sender and the host of the team's extension when one was built. Each is added to `parts` once it
    /// runs, so whatever started is stopped when the command ends, a failed start included; they stop in the
    /// reverse order, the attachments removed last. `command` names who says a failure ("richpush replay").
    static func start(
        fixtureRoot: String?, recordedFixtureRoots: [String] = [], customExtension built: BuiltExtension? = nil,
        extensionMemoryBytes: Int = DeliveryConfiguration.defaultExtensionMemoryBytes, logger: Logger,
        in parts: CommandLifecycle.Parts, command: String
    ) async throws(CommandFailure) -> EmulatorEnvironment {
        let store: AttachmentStore
        do {
            store = parts.add(try AttachmentStore(logger: logger))
        } catch {
            let folder = FileManager.default.temporaryDirectory.path
            throw .io("\(command): cannot create the attachment folder in \(folder) (TMPDIR): \(Self.reason(error))")
        }
        var cdn: FixtureCDN?
        // Recordings' own image folders (`given.fixtures`) are served with the fixture root, or alone without it.
        var recordedRoots = recordedFixtureRoots
        var fixtureRoot = fixtureRoot
        if fixtureRoot.map({ !FileNode.exists($0) }) ?? true, !recordedRoots.isEmpty {
            fixtureRoot = recordedRoots.removeFirst()
        }
        if let fixtureRoot {
            // Requests the client abandoned (a timeout, an expired extension) end in server-side errors that are
            // expected here; the CDN speaks only when richpush runs verbose.
            var serverLogger = logger
            if serverLogger.logLevel > .debug { serverLogger.logLevel = .critical }
            do {
                cdn = parts.add(
                    try await FixtureCDN.start(
                        root: URL(fileURLWithPath: fixtureRoot),
                        recordedRoots: recordedRoots.map { URL(fileURLWithPath: $0) }, logger: serverLogger))
            } catch {
                throw .io("\(command): cannot start the fixture CDN on \(fixtureRoot): \(Self.reason(error))")
            }
        }
        let downloader: HTTPSImageDownloader
        let receiptSender: HTTPSReceiptSender
        do {
            downloader = parts.add(
                try HTTPSImageDownloader(store: store, fixtureHost: cdn?.hostMapping, logger: logger))
            receiptSender = parts.add(try HTTPSReceiptSender(fixtureHost: cdn?.hostMapping, logger: logger))
        } catch {
            throw .io("\(command): cannot start the image downloader: \(Self.reason(error))")
        }
        let computePool = ComputePool()
        var host: ExtensionProcessHost?
        if let built {
            do {
                host = parts.add(
                    try await ExtensionProcessHost.start(
                        built, fixtureCDN: cdn, memoryLimitBytes: extensionMemoryBytes, computePool: computePool))
            } catch {
                throw .io("\(command): cannot start the extension's host: \(error)")
            }
            if let problem = host?.sandboxProblem { logger.warning("\(problem)") }
        }
        return EmulatorEnvironment(
            store: store, cdn: cdn, downloader: downloader, receiptSender: receiptSender, customExtension: host,
            computePool: computePool)
    }

    /// The notification system every front end delivers through on this environment: its downloader, the team's
    /// extension when one runs, image decoding with a cache of verdicts, receipts through `receiptSender` (the
    /// environment's own unless a push server routes receipts to itself, ``ServerReceiptRouter/sender(for:environment:parts:logger:command:)``).
    func system(
        configuration: DeliveryConfiguration, logger: Logger, receiptSender: (any ReceiptSending)? = nil
    ) -> NotificationSystem {
        NotificationSystem(
            downloader: downloader, configuration: configuration, logger: logger,
            receiptSender: receiptSender ?? self.receiptSender, decoder: ImageDecoder(), computePool: computePool,
            verdicts: DecodeVerdictCache(), customExtension: customExtension)
    }

    /// A system error as the system's own words ("permission denied"), anything else as it describes itself.
    static func reason(_ error: any Error) -> String {
        var code: Int32?
        if let problem = error as? FileProblem {
            if problem.code != 0 { code = problem.code }
        } else if let posix = error as? POSIXError {
            code = posix.code.rawValue
        } else {
            let cocoa = error as NSError
            if cocoa.domain == NSPOSIXErrorDomain {
                code = Int32(cocoa.code)
            } else if let underlying = cocoa.userInfo[NSUnderlyingErrorKey] as? any Error {
                if let posix = underlying as? POSIXError {
                    code = posix.code.rawValue
                } else if (underlying as NSError).domain == NSPOSIXErrorDomain {
                    code = Int32((underlying as NSError).code)
                }
            }
        }
        guard let code else { return "\(error)" }
        return FileDescriptorWriter.describe(code).lowercased()
    }
}
