import RichPushCore
import Testing

@Suite("ByteSize")
struct ByteSizeTests {
    @Test(
        "sizes: a plain byte count, KB and MB (1 KB = 1024 bytes), any letter case",
        arguments: [
            ("0", 0), ("512", 512), ("512B", 512), ("512b", 512), ("1K", 1024), ("2kb", 2048), ("2KiB", 2048),
            ("512KB", 512 * 1024), ("1M", 1_048_576), ("11MB", 11 * 1_048_576), ("3mib", 3 * 1_048_576),
            ("0010KB", 10 * 1024),
        ])
    func sizes(text: String, bytes: Int) {
        #expect(ByteSize.parse(text) == bytes)
    }

    @Test("11MB is over iOS's 10 MB attachment limit, counted in the same megabytes")
    func overTheLimit() throws {
        let eleven = try #require(ByteSize.parse("11MB"))
        #expect(eleven > 10 * 1024 * 1024)
        #expect(ByteSize.parse("10MB") == 10 * 1024 * 1024)
    }

    @Test(
        "not sizes, each with the reason",
        arguments: [
            ("", ByteSize.Problem.notANumber), ("fast", .notANumber), ("-5", .notANumber), ("+5", .notANumber),
            (" 5", .notANumber), ("1.5MB", .notANumber), ("1,5MB", .notANumber), ("MB", .notANumber),
            ("12XB", .unknownUnit("XB")), ("5 MB", .unknownUnit(" MB")), ("1GB", .unknownUnit("GB")),
            ("5MBs", .unknownUnit("MBs")), ("99999999999999999999", .tooLarge),
            ("9223372036854775807KB", .tooLarge),
        ])
    func notSizes(text: String, problem: ByteSize.Problem) {
        #expect(ByteSize.parse(text) == nil)
        #expect(throws: problem) { try ByteSize.bytes(in: text) }
    }

    @Test("messages say how sizes are written")
    func messages() {
        #expect(ByteSize.Problem.notANumber.description == "expected a size like 512, 512KB or 11MB")
        #expect(
            ByteSize.Problem.unknownUnit("XB").description == #"unknown unit "XB"; use a plain byte count, KB or MB"#)
    }

    @Test(
        "describe writes the shortest form that parses back", arguments: [0, 1, 1000, 1024, 1536, 524_288, 11_534_336])
    func describeRoundTrips(bytes: Int) {
        let text = ByteSize.describe(bytes)
        #expect(ByteSize.parse(text) == bytes, "\(text)")
        #expect(text.count <= "\(bytes)".count)
    }

    @Test("describe uses the largest whole unit")
    func describe() {
        #expect(ByteSize.describe(11 * 1024 * 1024) == "11MB")
        #expect(ByteSize.describe(512 * 1024) == "512KB")
        #expect(ByteSize.describe(1536) == "1536")
        #expect(ByteSize.describe(0) == "0")
    }
}
