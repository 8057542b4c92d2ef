// The reference for figure 1 of scripts/bench: async-http-client alone fetching the benchmark's URLs, with nothing
// of richpush around it (no payloads, deadlines, files, decoding or report), the way curl --parallel fetches them.
// It shows how close to curl the HTTP client richpush is built on gets by itself.
//
//   bench-client PORT CA_PEM PREFIX COUNT PARALLEL
//
// Fetches https://fixtures.richpush.test:PORT/<PREFIX><i>.png for i in 0..<COUNT, PARALLEL at a time, over HTTP/1.1
// to 127.0.0.1 (as curl --resolve), trusting CA_PEM only and checking the certificate against the fixture host.
// Reads every body to its end and prints the number of 200 responses; exits 1 when any request failed.
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL

let arguments = CommandLine.arguments
guard arguments.count == 6, let port = Int(arguments[1]), let count = Int(arguments[4]),
    let parallel = Int(arguments[5]), parallel > 0
else {
    FileHandle.standardError.write(Data("usage: bench-client PORT CA_PEM PREFIX COUNT PARALLEL\n".utf8))
    exit(2)
}
let prefix = arguments[3]
var tls = TLSConfiguration.makeClientConfiguration()
tls.trustRoots = .file(arguments[2])
var configuration = HTTPClient.Configuration(tlsConfiguration: tls)
configuration.httpVersion = .http1Only
configuration.dnsOverride = ["fixtures.richpush.test": "127.0.0.1"]
let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)

func fetch(_ index: Int) async -> Bool {
    do {
        let request = HTTPClientRequest(url: "https://fixtures.richpush.test:\(port)/\(prefix)\(index).png")
        let response = try await client.execute(request, timeout: .seconds(30))
        var bytes = 0
        for try await chunk in response.body { bytes += chunk.readableBytes }
        return response.status == .ok && bytes > 0
    } catch {
        return false
    }
}

let succeeded = await withTaskGroup(of: Bool.self) { group in
    var next = 0
    var succeeded = 0
    while next < min(parallel, count) {
        let index = next
        group.addTask { await fetch(index) }
        next += 1
    }
    while let ok = await group.next() {
        if ok { succeeded += 1 }
        if next < count {
            let index = next
            group.addTask { await fetch(index) }
            next += 1
        }
    }
    return succeeded
}
_ = try? await client.shutdown().get()
print(succeeded)
exit(succeeded == count ? 0 : 1)
