import Logging
import RichPushCore
import RichPushNetwork
import RichPushServe

extension ServerReceiptRouter {
    /// The receipt sender of a command whose push server is `server` (already started, so its port and CA are
    /// known): receipts to the server itself (`https://localhost:PORT/richpush/v1/receipts`) go through a sender
    /// that trusts its CA for its own names only, every other one through the environment's. Without a server
    /// (not listening), every receipt goes through the environment's sender.
    static func sender(
        for server: PushServer?, environment: EmulatorEnvironment, parts: CommandLifecycle.Parts, logger: Logger,
        command: String
    ) throws(CommandFailure) -> any ReceiptSending {
        guard let server else { return environment.receiptSender }
        // With --plaintext there is no https here, so such receipts are refused, saying why.
        var own: HTTPSReceiptSender?
        if !server.receiptHostMappings.isEmpty {
            do {
                own = parts.add(
                    try HTTPSReceiptSender(
                        fixtureHost: environment.cdn?.hostMapping, additionalHosts: server.receiptHostMappings,
                        logger: logger))
            } catch {
                throw .io("\(command): cannot start the receipt sender: \(error)")
            }
        }
        return ServerReceiptRouter(server: server, own: own, other: environment.receiptSender)
    }
}
