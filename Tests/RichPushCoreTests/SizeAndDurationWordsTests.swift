import RichPushCore
import Testing

/// The words every front end writes sizes and durations with (ByteCount, Duration+HumanReadable).
@Suite struct SizeAndDurationWordsTests {
    @Test("a byte count at a glance: bytes, then kilobytes and megabytes of 1024 with one decimal")
    func byteCounts() {
        #expect(ByteCount.text(512) == "512 B")
        #expect(ByteCount.text(48_213) == "47.1 KB")
        #expect(ByteCount.text(10 * 1024 * 1024) == "10.0 MB")
    }

    @Test("a limit is whole megabytes or kilobytes when it is, else a byte count")
    func limits() {
        #expect(ByteCount.limit(10 * 1024 * 1024) == "10 MB")
        #expect(ByteCount.limit(512 * 1024) == "512 KB")
        #expect(ByteCount.limit(1536 * 1024) == "1.5 MB")
        #expect(ByteCount.limit(1000) == "1000 B")
    }

    @Test("a duration in short: milliseconds below a second, else seconds with a decimal only when needed")
    func shortDurations() {
        #expect(Duration.milliseconds(250).shortDescription == "250 ms")
        #expect(Duration.milliseconds(2500).shortDescription == "2.5 s")
        #expect(Duration.seconds(30).shortDescription == "30 s")
    }

    @Test("a duration in words for sentences")
    func durationsInWords() {
        #expect(Duration.seconds(1).inWords == "1 second")
        #expect(Duration.seconds(5).inWords == "5 seconds")
        #expect(Duration.milliseconds(2500).inWords == "2.5 seconds")
        #expect(Duration.milliseconds(250).inWords == "250 milliseconds")
    }
}
