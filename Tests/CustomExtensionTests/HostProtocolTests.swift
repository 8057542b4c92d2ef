import Foundation
import RichPushCore
import RichPushHostProtocol
import RichPushTestSupport
import Testing

@testable import RichPushCustomExtension

/// The protocol between richpush and the extension's process is checked before anything runs, and a stale
/// compatibility SDK is rebuilt or refused in its own words, not taken for the team's build error.
@Suite("Host protocol versions and the SDK's stamp")
struct HostProtocolTests {
    /// Runs `script` (a shell script standing for an extension's executable) for one notification.
    func run(script: String) async throws -> CustomExtensionRun {
        let folder = try TemporaryFolder()
        let executable = try folder.write("extension", "#!/bin/sh\n" + script + "\n")
        chmod(executable, 0o755)
        let built = BuiltExtension(
            folder: folder.path, principalClass: "NotificationService", executable: executable, sources: [],
            cached: true)
        let host = try await ExtensionProcessHost.start(built, fixtureCDN: nil)
        defer { Task { await host.shutdown() } }
        let request = try PayloadDecoder().decode(Array(#"{"aps":{"alert":"hi","mutable-content":1}}"#.utf8))
        let invocation = CustomExtensionInvocation(identifier: "one", request: request, budget: .seconds(120))
        for await event in host.run(invocation, clock: ContinuousClock()) {
            if case .ended(let run) = event { return run }
        }
        Issue.record("no end")
        return CustomExtensionRun(end: .contentHandlerCalled, contentHandlerCalls: 0, log: [])
    }

    @Test("a host from before versions (ready without hello) is refused at once, in one line")
    func firstProtocol() async throws {
        let started = ContinuousClock.now
        let ended = try await run(script: #"echo '{"event":"ready"}' >&3; read line; sleep 200"#)
        #expect(
            ended.end
                == .failedToStart(.protocolVersion(found: 1, expected: HostProtocol.version, sdk: nil)))
        #expect(!ended.end.detail.contains("\n") && ended.end.detail.contains("host protocol version 1"))
        // The budget is 120 s and the script sleeps 200 s: the refusal ended it, whatever the machine's load.
        #expect(ContinuousClock.now - started < .seconds(100), "refused at the hello, not at the budget")
    }

    @Test("a host of another version is refused, naming both versions")
    func otherVersion() async throws {
        let ended = try await run(script: #"echo '{"event":"hello","protocolVersion":99}' >&3; read line; sleep 200"#)
        #expect(ended.end == .failedToStart(.protocolVersion(found: 99, expected: HostProtocol.version, sdk: nil)))
        #expect(ended.end.detail.contains("99") && ended.end.detail.contains("\(HostProtocol.version)"))
    }

    @Test("the host is told to start only after its hello, and is handed the request after start")
    func handshake() async throws {
        // Echoes what it reads on standard input to standard output, then exits without calling its handler.
        let ended = try await run(
            script:
                #"echo '{"event":"hello","protocolVersion":\#(HostProtocol.version)}' >&3; read -r a; printf "%s\\n" "$a"; read -r b; printf "%s\\n" "$b""#
        )
        #expect(ended.log.count == 2, "\(ended.log)")
        #expect(ended.log.first.flatMap { HostProtocol.decode(HostCommand.self, from: $0) } == .start)
        guard case .request(let request)? = ended.log.last.flatMap({ HostProtocol.decode(HostCommand.self, from: $0) })
        else {
            Issue.record("no request after start: \(ended.log)")
            return
        }
        #expect(request.id == "one" && request.content.body == "hi")
        #expect(ended.end == .contentHandlerNeverCalled(.exited))
    }

    @Test("an SDK stamped by another compiler is rebuilt; one from elsewhere is refused in one line")
    func staleSDK() async throws {
        let sdk = try await ExtensionSDK.locate()
        let stamp = try #require(sdk.recordedStamp, "a built SDK carries its stamp")
        #expect(stamp.contains(await ExtensionBuilder.compilerVersion()))
        try "compiler: Swift version 5.9 (an older toolchain)\nhost protocol: 1\n".write(
            toFile: sdk.stampFile, atomically: true, encoding: .utf8)
        let heard = Heard()
        let rebuilt = try await ExtensionSDK.locate { heard.add($0) }
        #expect(heard.lines.contains { $0.contains("building the compatibility modules") && $0.contains("5.9") })
        #expect(rebuilt.recordedStamp == stamp)

        // An SDK folder named by RICHPUSH_EXTENSION_SDK is not richpush's to rebuild.
        let other = try TemporaryFolder()
        _ = try other.write("Modules/UserNotifications.swiftmodule", "")
        _ = try other.write("libRichPushExtensionSDK.so", "")
        _ = try other.write(ExtensionSDK.stampFileName, "compiler: Swift version 5.9\nhost protocol: 1\n")
        do {
            _ = try await ExtensionSDK.locate(environment: ["RICHPUSH_EXTENSION_SDK": other.path])
            Issue.record("an SDK built by another compiler was taken")
        } catch {
            #expect(error.description.contains("Swift version 5.9") && !error.description.contains("\n"))
        }
    }

    final class Heard: @unchecked Sendable {
        private let lock = NSLock()
        private var kept: [String] = []
        func add(_ line: String) {
            lock.lock()
            kept.append(line)
            lock.unlock()
        }
        var lines: [String] {
            lock.lock()
            defer { lock.unlock() }
            return kept
        }
    }
}
