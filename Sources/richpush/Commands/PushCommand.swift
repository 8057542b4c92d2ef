import ArgumentParser
import Foundation
import Logging
import RichPushCore
import RichPushLibrary
import RichPushServe

/// `richpush push FILE...`: sends payload files to a running richpush over HTTP/2, like `xcrun simctl push`.
struct PushCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "push",
        abstract: "Send payload files to a running richpush (serve or the TUI) over HTTP/2, as a backend would.",
        discussion: """
            APNs JSON and .apns files go to POST /3/device/<token> (a .apns file's Simulator Target Bundle is the \
            topic unless --topic is given), FCM HTTP v1 bodies ({"message": …}) to \
            POST /v1/projects/<project>/messages:send. Prints the answer for each file: status, apns-id or message \
            name, reason, and says when an answer is not one APNs or FCM gives (a 200 without apns-id, an error \
            without Apple's JSON reason). Exit 0 when every push was accepted, 1 otherwise, 2 for usage errors or \
            when no richpush answers at --to. Provider tokens are signed with --auth-key, else with a throwaway key \
            that a richpush without --auth-key accepts.

            Example:
              richpush serve --ca-out ca.pem &
              richpush push payloads/rich/png-closed.json --cacert ca.pem \\
                --topic com.example.shop
            """
    )

    @Argument(help: ArgumentHelp("Payload files (.json, .apns).", valueName: "FILE"))
    var files: [String]

    @Option(help: ArgumentHelp("The richpush to send to.", valueName: "URL"))
    var to: String = "https://127.0.0.1:\(PushServerConfiguration.defaultPort)"

    @Option(help: ArgumentHelp("The CA to trust (what richpush serve wrote with --ca-out).", valueName: "FILE"))
    var cacert: String?

    @Option(help: ArgumentHelp("The device token (hex).", valueName: "HEX"))
    var token: String = PushCommand.defaultToken

    @Option(help: ArgumentHelp("apns-topic (default: a .apns file's Simulator Target Bundle).", valueName: "ID"))
    var topic: String?

    @Option(name: .customLong("push-type"), help: ArgumentHelp("apns-push-type.", valueName: "T"))
    var pushType: String = "alert"

    @Option(help: ArgumentHelp("apns-priority: 10, 5 or 1.", valueName: "P"))
    var priority: String?

    @Option(name: .customLong("collapse-id"), help: ArgumentHelp("apns-collapse-id.", valueName: "ID"))
    var collapseID: String?

    @Option(help: ArgumentHelp("The FCM project in the message URL.", valueName: "P"))
    var project: String = "richpush"

    @OptionGroup var providerKey: ProviderKeyOptions

    static let defaultToken = String(repeating: "0123456789abcdef", count: 4)

    func validate() throws {
        guard let url = URL(string: to), ["https", "http"].contains(url.scheme ?? ""), url.host != nil else {
            throw ValidationError("--to must be a URL like https://127.0.0.1:2197")
        }
        guard !token.isEmpty else { throw ValidationError("--token needs a value") }
    }

    func run() async throws {
        // As replay: a path that does not exist is refused before anything is sent.
        if let missing = PayloadDiscovery.firstMissing(files) { throw Self.failure("\(missing)") }
        let signer = try loadSigner()
        var caPEM: String?
        if let cacert {
            do {
                caPEM = try String(contentsOfFile: cacert, encoding: .utf8)
            } catch {
                throw Self.failure(
                    "cannot read the CA certificate \(cacert): \((error as NSError).localizedDescription)")
            }
        }
        let command = self
        let ca = caPEM
        let logger = Logger(label: "richpush.push", factory: { _ in SwiftLogNoOpLogHandler() })
        let outcome = try await CommandLifecycle.run(logger: logger) { parts in
            let client: PushClient
            do {
                client = try PushClient(baseURL: command.to, caCertificatePEM: ca)
            } catch {
                throw Self.failure("\(command.cacert ?? "the CA") is not a PEM certificate")
            }
            parts.add(client)
            return { try await command.send(command.files, client: client, signer: signer) }
        }
        if case .interrupted(let signal) = outcome { throw CommandFailure.interrupted(by: signal) }
    }

    /// Sends each file and prints a line for it; a check failure (status 1) when one was refused or unreadable.
    private func send(_ files: [String], client: PushClient, signer: ProviderTokenSigner) async throws(CommandFailure) {
        var allAccepted = true
        for file in files {
            let line: String
            switch try await send(file, client: client, signer: signer) {
            case .answered(let answer, let endpoint):
                allAccepted = allAccepted && answer.accepted
                line = Self.describe(answer, endpoint: endpoint)
            case .unreadable(let problem):
                allAccepted = false
                line = "error: \(problem)"
            case .unreachable(let problem):
                throw Self.failure("no richpush answers at \(to): \(problem)")
            }
            try StandardStreams.output("\(TextSanitizer.singleLine(file, limit: 200))  \(line)\n")
        }
        if !allAccepted { throw .checkFailed }
    }

    enum Outcome {
        case answered(PushAnswer, endpoint: String)
        case unreadable(String)
        case unreachable(String)
    }

    private func send(_ file: String, client: PushClient, signer: ProviderTokenSigner) async throws(CommandFailure)
        -> Outcome
    {
        // The reader replay and the notification center use, so a file that cannot be sent is named in their words.
        let loaded = LoadedPayload.load(PayloadFile(path: file))
        guard let payload = loaded.bytes else {
            if let size = loaded.oversizedBytes {
                return .unreadable(PayloadRejection.oversizedFile(bytes: size).detail)
            }
            return .unreadable(loaded.readError ?? "cannot read the file")
        }
        let kind = PushKind(payload: payload)
        var providerToken = ""
        if case .apns = kind {
            do {
                providerToken = try signer.token()
            } catch {
                throw Self.failure("cannot sign a provider token: \(error)")
            }
        }
        do throws(PushFailure) {
            switch kind {
            case .fcm:
                return .answered(try await client.sendFCM(body: payload, project: project), endpoint: "FCM")
            case .apns(let targetBundle):
                var headers: [(name: String, value: String)] = [("apns-push-type", pushType)]
                if let topic = topic ?? targetBundle { headers.append(("apns-topic", topic)) }
                if let priority { headers.append(("apns-priority", priority)) }
                if let collapseID { headers.append(("apns-collapse-id", collapseID)) }
                let answer = try await client.sendAPNs(
                    payload: payload, token: token, headers: headers, providerToken: providerToken)
                return .answered(answer, endpoint: "APNs")
            }
        } catch {
            switch error {
            case .refused:
                return .unreachable("connection refused (is richpush serve running on that port?)")
            case .handshakeFailed:
                return .unreachable(
                    "the TLS handshake failed (is its certificate trusted? give --cacert FILE, the CA richpush serve "
                        + "wrote with --ca-out)")
            case .notHTTP:
                return .unreachable(
                    "what answers there does not speak HTTP: its answer is no HTTP/2 or HTTP/1.1 response"
                        + Self.isItServe)
            case .closedWithoutAnswer:
                return .unreachable(
                    "the connection was closed without an answer: what listens there stopped, or does not speak "
                        + "HTTP/2 as APNs does" + Self.isItServe)
            case .timedOut:
                let limit = PushClient.connectTimeout.shortDescription
                return .unreachable(
                    "no connection was ready within \(limit): nothing answers there, or what does never started "
                        + "HTTP/2 as APNs does" + Self.isItServe)
            case .other(let detail):
                return .unreachable(detail)
            }
        }
    }

    /// What to check when something other than richpush answers at `--to`.
    private static let isItServe = " (is --to the address of richpush serve?)"

    /// `APNs 200 apns-id 9ce5…` or `APNs 400 BadTopic apns-id …` or `FCM 200 projects/p/messages/…`, and for an
    /// answer the service would not give, `APNs 200  not an APNs answer: …`.
    static func describe(_ answer: PushAnswer, endpoint: String) -> String {
        var parts = ["\(endpoint) \(answer.status)"]
        if let reason = answer.reason { parts.append(TextSanitizer.singleLine(reason, limit: 60)) }
        if let timestamp = answer.timestamp { parts.append("timestamp \(Int64(timestamp))") }
        if let identifier = answer.identifier {
            parts.append(
                (endpoint == "APNs" ? "apns-id " : "") + TextSanitizer.singleLine(identifier, limit: 120))
        }
        if let problem = answer.notFromTheService { parts.append(problem) }
        return parts.joined(separator: "  ")
    }

    /// The `--auth-key` to sign provider tokens with, else a throwaway key that an emulator without
    /// `--auth-key` accepts.
    private func loadSigner() throws(CommandFailure) -> ProviderTokenSigner {
        guard let (pem, keyID, teamID) = try providerKey.pem(command: "richpush push") else { return .throwaway() }
        do {
            return try ProviderTokenSigner(p8: pem, keyID: keyID, teamID: teamID)
        } catch {
            throw Self.failure(
                "\(providerKey.authKey ?? "") is not a P-256 private key in PEM (an AuthKey_KEYID.p8 file)")
        }
    }

    private static func failure(_ message: String) -> CommandFailure { .io("richpush push: \(message)") }
}
