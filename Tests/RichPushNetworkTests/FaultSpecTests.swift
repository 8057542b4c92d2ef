import Foundation
import RichPushCore
import RichPushNetwork
import Testing

@Suite("Fault parameters")
struct FaultSpecTests {
    @Test("durations: 250ms, 6s and 1.5s")
    func durations() throws {
        #expect(try FaultSpec.parse(query: "delay=250ms").delay == .milliseconds(250))
        #expect(try FaultSpec.parse(query: "delay=6s").delay == .seconds(6))
        #expect(try FaultSpec.parse(query: "delay=0ms").delay == .zero)
        #expect(try FaultSpec.parse(query: "delay=1.5s").delay == .milliseconds(1500))
        #expect(try FaultSpec.parse(query: "delay=0.25S").delay == .milliseconds(250))
    }

    @Test(
        "a duration is accepted in a fixture URL exactly when the command line accepts it",
        arguments: [
            "250ms", "6s", "1.5s", "0.5s", ".5s", "1.s", "2.25ms", "6S", "250MS", "0s", "120s", "6", "1.5", "s",
            "ms", "1..5s", "1,5s", "-1s", "+1s", " 1s", "1 s", "1h", "1e3ms", "inf s", "nans", "0x10s", "１s",
        ])
    func durationsMatchTheCommandLine(text: String) throws {
        let commandLine = Duration(humanReadable: text)
        let fixture = try? FaultSpec.parseDuration(text)
        #expect(
            fixture == commandLine,
            "\(text): URL \(String(describing: fixture)), CLI \(String(describing: commandLine))")
    }

    @Test("sizes: 512, 512KB, 11MB (1 KB = 1024 bytes)")
    func sizes() throws {
        #expect(try FaultSpec.parse(query: "truncate=512").truncate == 512)
        #expect(try FaultSpec.parse(query: "drip=512KB").drip == 512 * 1024)
        #expect(try FaultSpec.parse(query: "pad=11MB").pad == 11 * 1024 * 1024)
        #expect(try FaultSpec.parse(query: "pad=2kb").pad == 2048)
        #expect(try FaultSpec.parse(query: "pad=11MB").pad! > 10 * 1024 * 1024, "pad=11MB must be over the cap")
    }

    @Test("all faults combine")
    func combined() throws {
        let spec = try FaultSpec.parse(
            query: "delay=250ms&status=404&type=text/html&redirect=https&drip=2KB&pad=11MB&truncate=100")
        #expect(
            spec
                == FaultSpec(
                    delay: .milliseconds(250), status: 404, contentType: .value("text/html"), redirect: .https,
                    drip: 2048, pad: 11 * 1024 * 1024, truncate: 100))
        #expect(try FaultSpec.parse(query: nil).isEmpty)
        #expect(try FaultSpec.parse(query: "").isEmpty)
        #expect(try FaultSpec.parse(query: "&&").isEmpty)
    }

    @Test(
        "a parameter that is no fault is ignored, as a CDN ignores what it does not know",
        arguments: [
            "v=2", "w=600&h=400", "X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Expires=300&X-Amz-Signature=0a1b",
            "Expires=1767225600&Signature=abc~def&Key-Pair-Id=K2JCJMDEHXQW5F", "evil=1", "cat.png", "crop=faces",
            "dpr=2", "page=2", "sat=10", "fit=crop&fm=jpg&q=80&auto=format", "bad=%zz", "pid=7", "trim=5",
            "key=a", "v=1&v=2",
        ])
    func unknownParameterIgnored(query: String) throws {
        #expect(try FaultSpec.parse(query: query).isEmpty)
        #expect(try FaultSpec.parse(query: query + "&delay=250ms") == FaultSpec(delay: .milliseconds(250)))
    }

    @Test(
        "a near miss of a fault name is refused, naming the fault it misses",
        arguments: [
            ("dealy=6s", "delay"), ("stauts=404", "status"), ("tpye=", "type"), ("Delay=6s", "delay"),
            ("STATUS=404", "status"), ("dely=1s", "delay"), ("redirct=http", "redirect"), ("truncat=100", "truncate"),
            ("dirp=2KB", "drip"), ("pda=1", "pad"), ("pads=1", "pad"), ("typ=", "type"), ("relay=1s", "delay"),
            ("delay=1s&statsu=500", "status"),
        ])
    func nearMissRefused(query: String, fault: String) {
        let field = String(query.split(separator: "&").last!)
        #expect(
            throws: FaultSpecError(
                String(field.prefix(while: { $0 != "=" })), String(field.drop(while: { $0 != "=" }).dropFirst()),
                "there is no such fault; did you mean `\(fault)`?")
        ) {
            try FaultSpec.parse(query: query)
        }
    }

    @Test(
        "type: control characters, line breaks, non-ASCII and edge spaces are refused; the message shows them escaped",
        arguments: [
            ("type=%1b[31m", "control characters (found U+001B)"),
            ("type=a%0D%0Ab", "control characters (found U+000D)"),
            ("type=image/png%00", "control characters (found U+0000)"),
            ("type=a%7Fb", "control characters (found U+007F)"),
            ("type=image/p%C3%A9g", "printable ASCII (found U+00E9)"),
            ("type=%E2%80%AEgnp/egami", "printable ASCII (found U+202E)"),
            ("type=%20image/png", "start or end with white space"),
            ("type=image/png%09", "start or end with white space"),
        ])
    func badContentType(query: String, problem: String) {
        #expect {
            try FaultSpec.parse(query: query)
        } throws: { error in
            guard let error = error as? FaultSpecError else { return false }
            let printable = !error.description.unicodeScalars.contains {
                $0.value < 0x20 || $0.value == 0x7F || $0.properties.generalCategory == .format
            }
            return error.reason.contains(problem) && printable
        }
    }

    @Test("type: empty omits the header; percent-encoding, + and inner spaces are kept right")
    func contentType() throws {
        #expect(try FaultSpec.parse(query: "type=").contentType == .omit)
        #expect(try FaultSpec.parse(query: "type=image/png;%09q=1").contentType == .value("image/png;\tq=1"))
        #expect(try FaultSpec.parse(query: "type=image/svg+xml").contentType == .value("image/svg+xml"))
        #expect(
            try FaultSpec.parse(query: "type=text%2Fhtml%3B%20charset%3Dutf-8").contentType
                == .value("text/html; charset=utf-8"))
        #expect(try FaultSpec.parse(query: "redirect=HTTP").redirect == .http)
    }

    @Test(
        "bad values are refused with a message naming the fault",
        arguments: [
            "delay=6", "delay=soon", "delay=5h", "delay=-1s", "delay=999s", "delay=121s", "delay=100000s",
            "status=99", "status=100", "status=101", "status=abc", "status=600", "status=+404", "redirect=ftp",
            "drip=0", "drip=fast", "pad=12XB", "pad=-5", "pad=1.5MB", "truncate=1GB", "truncate=257MB",
            "pad=99999999999999999999", "delay=1s&delay=2s", "type=a%0D%0Ab", "pad=%zz",
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

    @Test("sizes are ByteSize's, with the fault's name and a 256MB limit in the message")
    func sizesAreByteSizes() throws {
        for text in ["0", "512", "512b", "512KB", "2kib", "11MB", "3m", "256MB"] {
            #expect(try FaultSpec.parseSize(text, name: "pad") == ByteSize.parse(text), "\(text)")
        }
        #expect(throws: FaultSpecError("size", "12XB", "unknown unit \"XB\"; use a plain byte count, KB or MB")) {
            try FaultSpec.parseSize("12XB", name: "size")
        }
        #expect(throws: FaultSpecError("pad", "257MB", "the largest size is 256MB")) {
            try FaultSpec.parseSize("257MB", name: "pad")
        }
        #expect(throws: FaultSpecError("pad", "99999999999999999999", "the largest size is 256MB")) {
            try FaultSpec.parseSize("99999999999999999999", name: "pad")
        }
    }

    @Test("a bad fault gets a 400 with the message from the real CDN")
    func badFaultOverHTTPS() async throws {
        try await withHarness { harness in
            let response = try await fetchRaw(harness.cdn, "/cat.png?delay=soon")
            #expect(response.status == 400)
            #expect(response.text.contains("bad fault delay=soon: expected a duration like 250ms, 1.5s or 6s"))

            let typo = try await fetchRaw(harness.cdn, "/cat.png?dealy=6s")
            #expect(typo.status == 400)
            let sentence = "bad fault dealy=6s: there is no such fault; did you mean `delay`?"
            #expect(typo.text == sentence + "\n")
            #expect(typo.header(FixtureCDN.faultErrorHeader) == sentence, "the reason, for the downloader")

            let unknown = try await fetchRaw(harness.cdn, "/cat.png?v=2&w=600&h=400&X-Amz-Signature=0a1b")
            #expect(unknown.status == 200, "a CDN ignores parameters it does not know")
            #expect(unknown.body == Array(try fixtureBytes("cat.png")))

            let escape = try await fetchRaw(harness.cdn, "/cat.png?type=%1b%5B31m")
            #expect(escape.status == 400)
            #expect(escape.header("content-type") == "text/plain; charset=utf-8")
            #expect(
                escape.text.hasPrefix(#"bad fault type=\u{1B}[31m: a Content-Type cannot contain control"#),
                "\(escape.text.prefix(200))")
            #expect(!escape.body.contains(0x1B), "no raw escape byte in the answer")
            let accent = try await fetchRaw(harness.cdn, "/cat.png?type=image/p%C3%A9g")
            #expect(
                accent.header(FixtureCDN.faultErrorHeader)
                    == #"bad fault type=image/p\u{E9}g: a Content-Type must be printable ASCII (found U+00E9)"#,
                "the header is printable ASCII")

            let fractional = try await fetchRaw(harness.cdn, "/cat.png?delay=0.1s")
            #expect(fractional.status == 200, "1.5s-style durations work in URLs as on the command line")
            #expect(fractional.body == Array(try fixtureBytes("cat.png")))
        }
    }

    @Test(
        "a fault the CDN refused: the result's detail and hint carry its reason, not only HTTP 400 (replay, TUI, JSON)"
    )
    func refusalReachesTheResult() async throws {
        try await withHarness { harness in
            let system = NotificationSystem(
                downloader: harness.downloader,
                configuration: DeliveryConfiguration(downloadTimeout: .seconds(60)), logger: quietLogger)
            let payload =
                #"{"aps":{"alert":{"title":"Typo"},"mutable-content":1},"fcm_options":{"image":"https://fixtures.richpush.test/cat.png?dealy=6s"}}"#
            let result = await system.deliver(.file("typo.json", bytes: Array(payload.utf8), appState: .background))
            let sentence = "bad fault dealy=6s: there is no such fault; did you mean `delay`?"
            #expect(result.style == .plain)
            #expect(result.fallback == Fallback(.httpStatus, "HTTP 400 Bad Request from the fixture CDN: \(sentence)"))
            #expect(result.hint == "The fixture CDN refused the image URL: \(sentence)")
            #expect(result.jsonValue["hint"]?.stringValue == result.hint)

            // Any other error status keeps its detail as it was, and adds no hint.
            let missing =
                #"{"aps":{"alert":{"title":"Gone"},"mutable-content":1},"fcm_options":{"image":"https://fixtures.richpush.test/cat.png?status=404"}}"#
            let notFound = await system.deliver(.file("gone.json", bytes: Array(missing.utf8), appState: .background))
            #expect(notFound.fallback == Fallback(.httpStatus, "HTTP 404 Not Found"))
            #expect(notFound.hint == nil)
        }
    }
}
