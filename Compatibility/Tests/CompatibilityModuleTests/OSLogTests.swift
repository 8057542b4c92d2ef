import Foundation
import OSLog
import Testing

@testable import os

#if canImport(Glibc)
    import Glibc
#endif

@Suite("os and OSLog on Linux: os_log and Logger write one line each to standard error", .serialized)
struct OSLogTests {
    let log = OSLog(subsystem: "com.example.app.nse", category: "images")

    @Test("os_log: Apple's annotations in printf formats, the level and the log's subsystem and category")
    func osLogFormats() {
        let url = "https://cdn.example.com/cat.png"
        let lines = LogOutput.capturing {
            os_log("Downloading %{public}@", log: log, type: .info, url)
            os_log(
                "%{private}s and %{public}d bytes, %.2f s, 0x%x, %5s|%-4d|", log: log, "secret", 1024, 1.5, 255, "ab", 7
            )
            os_log("on the default log")
            os_log(
                .error, log: log, "failed: %{public}@ (%ld)", NSError(domain: "NSURLErrorDomain", code: -1001), -1001)
            os_log("%{bool}d %{BOOL}d %{public, bool}d 100%%", log: log, type: .debug, 1, 0, true)
            os_log("%@ then %@", log: log, type: .fault, "one")
            os_log("a\nb", log: OSLog.default, type: .default)
            os_log("never written", log: .disabled, type: .error)
        }
        #expect(lines.count == 7, "\(lines)")
        guard lines.count == 7 else { return }
        #expect(lines[0] == "Info [com.example.app.nse:images] Downloading https://cdn.example.com/cat.png")
        #expect(lines[1] == "Default [com.example.app.nse:images] secret and 1024 bytes, 1.50 s, 0xff,    ab|7   |")
        #expect(lines[2] == "Default on the default log")
        #expect(lines[3].hasPrefix("Error [com.example.app.nse:images] failed: "))
        #expect(lines[3].contains("NSURLErrorDomain") && lines[3].hasSuffix("(-1001)"))
        #expect(lines[4] == "Debug [com.example.app.nse:images] true NO true 100%")
        #expect(lines[5] == "Fault [com.example.app.nse:images] one then <decode: missing data>")
        #expect(lines[6] == "Default a\\nb", "one line per message")
    }

    @Test("Logger: each method's level, interpolations with privacy (values shown), formats and alignment")
    func logger() {
        let logger = Logger(subsystem: "com.example.app.nse", category: "network")
        let token = "abc123"
        let lines = LogOutput.capturing {
            logger.info("token \(token, privacy: .public) \(token, privacy: .private) \(token, privacy: .sensitive)")
            logger.debug("hash \(token, privacy: .private(mask: .hash)) auto \(token, privacy: .auto) \(token)")
            logger.notice("n=\(255, format: .hex) \(255, format: .hex(includePrefix: true, uppercase: true))")
            logger.warning("[\(7, format: .decimal(minDigits: 3))] [\(42, align: .right(columns: 5))]")
            logger.error("[\("ab", align: .left(columns: 4))] \(2.5, format: .fixed(precision: 2)) \(Float(1.25))")
            logger.critical("\(true) \(false, format: .answer) \(URL(string: "https://x.test/a.png")!)")
            logger.fault("\(NSNumber(value: 3)) \(Int.self) \(-5, format: .decimal(explicitPositiveSign: true))")
            logger.trace("trace \(UInt8(9))")
            logger.log("plain")
            logger.log(level: .info, "leveled")
            Logger().info("no subsystem")
            Logger(log).error("from OSLog \(1)")
            Logger(.disabled).fault("never written")
        }
        let expected = [
            "Info [com.example.app.nse:network] token abc123 abc123 abc123",
            "Debug [com.example.app.nse:network] hash abc123 auto abc123 abc123",
            "Default [com.example.app.nse:network] n=ff 0XFF",
            "Error [com.example.app.nse:network] [007] [   42]",
            "Error [com.example.app.nse:network] [ab  ] 2.50 1.250000",
            "Fault [com.example.app.nse:network] true NO https://x.test/a.png",
            "Fault [com.example.app.nse:network] 3 Int -5",
            "Debug [com.example.app.nse:network] trace 9",
            "Default [com.example.app.nse:network] plain",
            "Info [com.example.app.nse:network] leveled",
            "Info no subsystem",
            "Error [com.example.app.nse:images] from OSLog 1",
        ]
        #expect(lines == expected)
        #expect(os_log_type_enabled(log, .debug) && !os_log_type_enabled(.disabled, .error))
    }

    @Test("os_log with an interpolated message, as iOS 14 takes it")
    func interpolatedOSLog() {
        let count = 3
        let lines = LogOutput.capturing {
            os_log("got \(count) images")
            os_log(.error, log: log, "got \(count, privacy: .public)")
        }
        #expect(lines == ["Default got 3 images", "Error [com.example.app.nse:images] got 3"])
    }

    @Test("a Logger line reaches the process's standard error, whole")
    func standardError() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("richpush-oslog-\(UUID().uuidString)")
            .path
        let file = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        #expect(file >= 0)
        defer { unlink(path) }
        let saved = dup(STDERR_FILENO)
        dup2(file, STDERR_FILENO)
        let marker = UUID().uuidString
        Logger(subsystem: "com.example.app.nse", category: "stderr").error("marker \(marker, privacy: .public)")
        os_log("os_log %{public}@", log: log, type: .info, marker)
        dup2(saved, STDERR_FILENO)
        close(saved)
        close(file)
        let written = try String(contentsOfFile: path, encoding: .utf8)
        #expect(written.contains("Error [com.example.app.nse:stderr] marker \(marker)\n"))
        #expect(written.contains("Info [com.example.app.nse:images] os_log \(marker)\n"))
    }
}
