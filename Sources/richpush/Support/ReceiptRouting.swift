import Logging
import RichPushNetwork
import RichPushServe

extension BindableReceiptSender {
    /// Binds the sender of a command whose push server is `server`: receipts to the server itself
    /// (`https://localhost:PORT/richpush/v1/receipts`) through a sender that trusts its CA for its own names only,
    /// every other one through the environment's. Without a server (not listening), every receipt goes through the
    /// environment's sender.
    func route(
        to server: PushServer?, environment: EmulatorEnvironment, parts: CommandLifecycle.Parts, logger: Logger,
        command: String
    ) throws(CommandFailure) {
        guard let server else {
            bind(environment.receiptSender)
            return
        }
        // With --plaintext there is no https here, so such receipts are refused, saying why.
        var own: HTTPSReceiptSender?
        if !server.receiptHostMappings.isEmpty {
            do {
                let sender = try HTTPSReceiptSender(
                    fixtureHost: environment.cdn?.hostMapping, additionalHosts: server.receiptHostMappings,
                    logger: logger)
                parts.add(ShutdownAction { await sender.shutdown() })
                own = sender
            } catch {
                throw .io("\(command): cannot start the receipt sender: \(error)")
            }
        }
        bind(ServerReceiptRouter(server: server, own: own, other: environment.receiptSender))
    }
}
