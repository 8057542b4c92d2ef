import Foundation
import RichPushNetwork
import Testing

@Suite("Fault parameters")
struct FaultSpecTests {
    @Test("durations: 250ms and 6s")
    func durations() throws {
        #expect(try FaultSpec.parse(query: "delay=250ms").delay == .milliseconds(250))
        #expect(try FaultSpec.parse(query: "delay=6s").delay == .seconds(6))
        #expect(try FaultSpec.parse(query: "delay=0ms").delay == .zero)
    }

    @Test("sizes: 512, 512KB, 11MB (1 KB = 1024 bytes)")
    func sizes() throws {
        #expect(try FaultSpec.parse(query: "truncate=512").truncate == 512)
        #expect(try FaultSpec.parse(query: "drip=512KB").drip == 512 * 1024)
        #expect(try FaultSpec.parse(query: "pad=11MB").pad == 11 * 1024 * 1024)
        #expect(try FaultSpec.parse(query: "pad=2kb").pad == 2048)
        #expect(try FaultSpec.parse(query: "pad=11MB").pad! > 10 * 1024 * 1024, "pad=11MB must be over the cap")
    }

    @Test("all faults combine; other parameters are ignored")
    func combined() throws {
        let spec = try FaultSpec.parse(
            query: "v=3&delay=250ms&status=404&type=text/html&redirect=https&drip=2KB&pad=11MB&truncate=100")
        #expect(
            spec
                == FaultSpec(
                    delay: .milliseconds(250), status: 404, contentType: .value("text/html"), redirect: .https,
                    drip: 2048, pad: 11 * 1024 * 1024, truncate: 100))
        #expect(try FaultSpec.parse(query: "cachebuster=1").isEmpty)
        #expect(try FaultSpec.parse(query: nil).isEmpty)
    }

    @Test("type: empty omits the header; percent-encoding and + are kept right")
    func contentType() throws {
        #expect(try FaultSpec.parse(query: "type=").contentType == .omit)
        #expect(try FaultSpec.parse(query: "type=image/svg+xml").contentType == .value("image/svg+xml"))
        #expect(
            try FaultSpec.parse(query: "type=text%2Fhtml%3B%20charset%3Dutf-8").contentType
                == .value("text/html; charset=utf-8"))
        #expect(try FaultSpec.parse(query: "redirect=HTTP").redirect == .http)
    }

    @Test(
        "bad values are refused with a message naming the fault",
        arguments: [
            "delay=6", "delay=soon", "delay=5h", "delay=-1s", "delay=999s", "status=99", "status=abc", "status=600",
            "redirect=ftp", "drip=0", "drip=fast", "pad=12XB", "pad=-5", "truncate=1GB", "delay=1s&delay=2s",
            "type=a%0D%0Ab", "pad=%zz",
        ])
    func badValues(query: String) {
        let name = String(query.prefix(while: { $0 != "=" }))
        #expect {
            try FaultSpec.parse(query: query)
        } throws: { error in
            guard let error = error as? FaultSpecError else { return false }
            return error.description.hasPrefix("bad fault \(name)=") && !error.reason.isEmpty
        }
    }

    @Test("a bad fault gets a 400 with the message from the real CDN")
    func badFaultOverHTTPS() async throws {
        try await withHarness { harness in
            let response = try await fetchRaw(harness.cdn, "/cat.png?delay=soon")
            #expect(response.status == 400)
            #expect(response.text.contains("bad fault delay=soon: expected a duration like 250ms or 6s"))
        }
    }
}
