import Foundation
import RichPushNetwork
public import RichPushCore

/// Sends receipts addressed to the push server itself (`https://localhost:PORT/…`, `https://127.0.0.1:PORT/…` or
/// its `--host` name, on its port) through `own`, which trusts the server's CA for those hosts, and every other
/// receipt through `other`, so no other https URL is routed to the server. A plaintext server has no https, so a
/// receipt to it is refused with a reason that says so.
public struct ServerReceiptRouter: ReceiptSending {
    let own: (any ReceiptSending)?
    let other: any ReceiptSending
    let hosts: Set<String>
    let port: Int

    /// - Parameters:
    ///   - own: a sender that reaches `server` (routes from ``PushServer/receiptHostMappings``); nil for a
    ///     plaintext server.
    ///   - other: the sender for every other URL.
    public init(server: PushServer, own: (any ReceiptSending)?, other: any ReceiptSending) {
        self.own = own
        self.other = other
        hosts = Set(
            ["localhost", "127.0.0.1", ServerCertificates.certificateName(for: server.configuration.host).lowercased()])
        port = server.port
    }

    public func send(_ receipt: DisplayReceipt) async throws -> Int {
        guard let host = receipt.url.host?.lowercased(), hosts.contains(host), receipt.url.port == port else {
            return try await other.send(receipt)
        }
        guard let own else {
            throw ReceiptFailure(
                "not sent: this server runs with --plaintext, which has no https, and receipts are https only (App Transport Security)"
            )
        }
        return try await own.send(receipt)
    }
}
