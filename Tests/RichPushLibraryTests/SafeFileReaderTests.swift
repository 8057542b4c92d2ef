import Foundation
import RichPushLibrary
import RichPushTestSupport
import Testing

@Suite struct SafeFileReaderTests {
    @Test func aFileOfAtMostTheLimitIsReadWhole() throws {
        let folder = try TemporaryFolder()
        let text = String(repeating: "0123456789", count: 100)
        try folder.write("exact.json", text)
        try folder.write("empty.json", "")
        #expect(SafeFileReader.read("\(folder.path)/exact.json", limit: 1000) == .bytes(Array(text.utf8)))
        #expect(SafeFileReader.read("\(folder.path)/exact.json", limit: 64 * 1024) == .bytes(Array(text.utf8)))
        #expect(SafeFileReader.read("\(folder.path)/empty.json", limit: 1000) == .bytes([]))
    }

    @Test func aFileOverTheLimitIsOnlyMeasured() throws {
        let folder = try TemporaryFolder()
        try folder.write("big.json", String(repeating: "x", count: 1001))
        #expect(SafeFileReader.read("\(folder.path)/big.json", limit: 1000) == .tooLarge(size: 1001))
    }

    /// A file holding more than its size said when it was opened, as one still being written: /proc's files say
    /// 0 bytes and hold more.
    @Test func aFileLargerThanItsStatedSizeIsReadToItsEndOrFoundTooLarge() throws {
        guard case .bytes(let status) = SafeFileReader.read("/proc/self/status", limit: 64 * 1024) else {
            Issue.record("/proc/self/status was not read")
            return
        }
        let text = String(decoding: status, as: UTF8.self)
        #expect(text.hasPrefix("Name:"))
        #expect(text.contains("\nVmRSS:") && text.hasSuffix("\n"), "read to its end: \(text.suffix(80))")
        guard case .tooLarge(let size) = SafeFileReader.read("/proc/self/status", limit: 100) else {
            Issue.record("a 100-byte limit was not enforced on a file that says it is empty")
            return
        }
        #expect(size == 101)
    }

    @Test func aFIFOIsRefusedWithoutBlocking() throws {
        let folder = try TemporaryFolder()
        let path = try folder.fifo("pipe.json")
        #expect(SafeFileReader.read(path, limit: 1000) == .failure("is a FIFO (named pipe), not a regular file"))
    }
}
