import Foundation
import Logging
import RichPushCore
import RichPushNetwork

/// The real network side of the emulator: the attachment store, the HTTPS downloader, the display-receipt
/// sender and, when needed, the embedded fixture CDN that `https://fixtures.richpush.test` maps to.
final class EmulatorEnvironment: Sendable {
    let store: AttachmentStore
    let cdn: FixtureCDN?
    let downloader: HTTPSImageDownloader
    let receiptSender: HTTPSReceiptSender

    private init(
        store: AttachmentStore, cdn: FixtureCDN?, downloader: HTTPSImageDownloader, receiptSender: HTTPSReceiptSender
    ) {
        self.store = store
        self.cdn = cdn
        self.downloader = downloader
        self.receiptSender = receiptSender
    }

    /// Starts the downloader, and the fixture CDN on `fixtureRoot` when `withFixtureCDN` is set.
    static func start(fixtureRoot: String?, logger: Logger) async throws -> EmulatorEnvironment {
        let store = try AttachmentStore(logger: logger)
        var cdn: FixtureCDN?
        do {
            if let fixtureRoot {
                // Requests the client abandoned (a timeout, an expired extension) end in server-side errors
                // that are expected here; the CDN speaks only when richpush runs verbose.
                var serverLogger = logger
                if serverLogger.logLevel > .debug { serverLogger.logLevel = .critical }
                cdn = try await FixtureCDN.start(root: URL(fileURLWithPath: fixtureRoot), logger: serverLogger)
            }
            let downloader = try HTTPSImageDownloader(store: store, fixtureHost: cdn?.hostMapping, logger: logger)
            let receiptSender = try HTTPSReceiptSender(fixtureHost: cdn?.hostMapping, logger: logger)
            return EmulatorEnvironment(store: store, cdn: cdn, downloader: downloader, receiptSender: receiptSender)
        } catch {
            await cdn?.shutdown()
            store.removeAll()
            throw error
        }
    }

    /// Stops the servers and clients and removes every downloaded attachment.
    func shutdown() async {
        await downloader.shutdown()
        await receiptSender.shutdown()
        await cdn?.shutdown()
        store.removeAll()
    }
}
