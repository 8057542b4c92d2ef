import Foundation
import Logging
import RichPushCodecs
import RichPushCore
import RichPushCustomExtension
import RichPushNetwork
import ServiceLifecycle

/// The real network side of the emulator: the attachment store, the HTTPS downloader, the display-receipt
/// sender and, when needed, the embedded fixture CDN that `https://fixtures.richpush.test` maps to.
final class EmulatorEnvironment: Sendable {
    let store: AttachmentStore
    let cdn: FixtureCDN?
    let downloader: HTTPSImageDownloader
    let receiptSender: HTTPSReceiptSender
    /// The team's own extension (`--extension`), run instead of the emulated one; nil without it.
    let customExtension: ExtensionProcessHost?

    private init(
        store: AttachmentStore, cdn: FixtureCDN?, downloader: HTTPSImageDownloader, receiptSender: HTTPSReceiptSender,
        customExtension: ExtensionProcessHost?
    ) {
        self.customExtension = customExtension
        self.store = store
        self.cdn = cdn
        self.downloader = downloader
        self.receiptSender = receiptSender
    }

    /// Why the environment could not start, as one sentence ("cannot create the attachment folder in /tmp/x:
    /// permission denied").
    struct StartFailure: Error, CustomStringConvertible {
        let description: String
    }

    /// Makes the attachment store and starts the downloader, the fixture CDN on `fixtureRoot` when one is given, and
    /// the host of the team's own extension when one was built.
    static func start(
        fixtureRoot: String?, customExtension built: BuiltExtension? = nil,
        extensionMemoryBytes: Int = DeliveryConfiguration.defaultExtensionMemoryBytes, logger: Logger
    ) async throws(StartFailure) -> EmulatorEnvironment {
        let store: AttachmentStore
        do {
            store = try AttachmentStore(logger: logger)
        } catch {
            let folder = FileManager.default.temporaryDirectory.path
            throw StartFailure(
                description: "cannot create the attachment folder in \(folder) (TMPDIR): \(Self.reason(error))")
        }
        var cdn: FixtureCDN?
        do throws(StartFailure) {
            if let fixtureRoot {
                // Requests the client abandoned (a timeout, an expired extension) end in server-side errors
                // that are expected here; the CDN speaks only when richpush runs verbose.
                var serverLogger = logger
                if serverLogger.logLevel > .debug { serverLogger.logLevel = .critical }
                do {
                    cdn = try await FixtureCDN.start(root: URL(fileURLWithPath: fixtureRoot), logger: serverLogger)
                } catch {
                    throw StartFailure(
                        description: "cannot start the fixture CDN on \(fixtureRoot): \(Self.reason(error))")
                }
            }
            do {
                let downloader = try HTTPSImageDownloader(store: store, fixtureHost: cdn?.hostMapping, logger: logger)
                let receiptSender = try HTTPSReceiptSender(fixtureHost: cdn?.hostMapping, logger: logger)
                var host: ExtensionProcessHost?
                if let built {
                    do {
                        host = try await ExtensionProcessHost.start(
                            built, fixtureCDN: cdn, memoryLimitBytes: extensionMemoryBytes)
                    } catch {
                        await downloader.shutdown()
                        await receiptSender.shutdown()
                        throw StartFailure(description: "cannot start the extension's host: \(error)")
                    }
                    if let problem = host?.trustProblem { logger.warning("\(problem)") }
                }
                return EmulatorEnvironment(
                    store: store, cdn: cdn, downloader: downloader, receiptSender: receiptSender,
                    customExtension: host)
            } catch let failure as StartFailure {
                throw failure
            } catch {
                throw StartFailure(description: "cannot start the image downloader: \(Self.reason(error))")
            }
        } catch {
            await cdn?.shutdown()
            store.removeAll()
            throw error
        }
    }

    /// The notification system every front end delivers through on this environment: its downloader, the team's
    /// extension when one runs, image decoding with a cache of verdicts, receipts through `receiptSender` (the
    /// environment's own unless a push server routes receipts to itself, ``ServerReceiptRouter/sender(for:environment:parts:logger:command:)``).
    func system(
        configuration: DeliveryConfiguration, logger: Logger, receiptSender: (any ReceiptSending)? = nil,
        computePool: ComputePool = ComputePool()
    ) -> NotificationSystem {
        NotificationSystem(
            downloader: downloader, configuration: configuration, logger: logger,
            receiptSender: receiptSender ?? self.receiptSender, decoder: ImageDecoder(), computePool: computePool,
            verdicts: DecodeVerdictCache(), customExtension: customExtension)
    }

    /// A system error as the system's own words ("permission denied"), anything else as it describes itself.
    static func reason(_ error: any Error) -> String {
        var code: Int32?
        if let posix = error as? POSIXError {
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

    /// Stops the servers and clients and removes every downloaded attachment.
    ///
    /// The HTTP clients are told to shut down but not waited for: async-http-client's shutdown waits for a
    /// connection attempt in flight, up to a download's 5 s deadline when the image's server never answers, and
    /// they hold nothing to clean up; the process exits with their shutdown under way. (Ctrl-C on a replay waiting
    /// for such a server took 4.5 s.)
    func shutdown() async {
        let (downloader, receiptSender) = (self.downloader, self.receiptSender)
        Task.detached {
            await downloader.shutdown()
            await receiptSender.shutdown()
        }
        await cdn?.shutdown()
        customExtension?.shutdown()
        store.removeAll()
    }
}

extension EmulatorEnvironment: Service {
    /// Starts the environment as a part of a command (it stops when the command ends); `command` names who
    /// says it in the failure ("richpush replay").
    static func start(
        fixtureRoot: String?, customExtension: BuiltExtension? = nil,
        extensionMemoryBytes: Int = DeliveryConfiguration.defaultExtensionMemoryBytes, logger: Logger,
        in parts: CommandLifecycle.Parts, command: String
    ) async throws(CommandFailure) -> EmulatorEnvironment {
        do {
            return parts.add(
                try await start(
                    fixtureRoot: fixtureRoot, customExtension: customExtension,
                    extensionMemoryBytes: extensionMemoryBytes, logger: logger))
        } catch {
            throw .io("\(command): \(error)")
        }
    }

    /// Runs until the command ends, then stops the servers and clients and removes the attachments.
    func run() async {
        try? await gracefulShutdown()
        await shutdown()
    }
}
