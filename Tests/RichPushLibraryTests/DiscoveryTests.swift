import Foundation
import RichPushCore
import RichPushTestSupport
import RichPushLibrary
import Testing

@Suite struct DiscoveryTests {
    @Test func findsPayloadsRecursivelySortedWithTheirExpectations() throws {
        let folder = try TemporaryFolder()
        try folder.write("b.json", "{}")
        try folder.write("b.expect.json", #"{"expect": {}}"#)
        try folder.write("sub/a.apns", "{}")
        try folder.write("sub/a.expect.json", #"{"expect": {}}"#)
        try folder.write("a.json", "{}")
        try folder.write("notes.txt", "not a payload")
        try folder.write(".hidden/x.json", "{}")
        try folder.write(".dot.json", "{}")
        let found = try PayloadDiscovery().discover([folder.path])
        #expect(
            found.files.map(\.path) == ["\(folder.path)/a.json", "\(folder.path)/b.json", "\(folder.path)/sub/a.apns"])
        #expect(
            found.files.map(\.expectationPath) == [
                nil, "\(folder.path)/b.expect.json", "\(folder.path)/sub/a.expect.json",
            ])
        #expect(found.problems.isEmpty)
        #expect(found.notices.isEmpty)
    }

    @Test(
        "the expectation file sits beside its payload, named from the payload's name",
        arguments: [
            ("payloads/a/b.json", "payloads/a/b.expect.json"), ("b.apns", "b.expect.json"),
            ("/x/y.z.json", "/x/y.z.expect.json"), ("/top.json", "/top.expect.json"),
            ("dir.v2/p", "dir.v2/p.expect.json"), ("a/.json", "a/.json.expect.json"),
            ("ünï/çødé.json", "ünï/çødé.expect.json"),
        ])
    func expectationPath(payload: String, expectation: String) {
        #expect(PayloadDiscovery.expectationPath(for: payload) == expectation)
    }

    @Test func aMissingPathIsAnErrorNamingIt() {
        #expect(throws: DiscoveryProblem(path: "/no/such/place", problem: "no such file or folder")) {
            try PayloadDiscovery().discover(["/no/such/place"])
        }
    }

    @Test func theSameFileGivenTwiceIsReplayedOnce() throws {
        let folder = try TemporaryFolder()
        try folder.write("x.json", "{}")
        let found = try PayloadDiscovery().discover([folder.path, "\(folder.path)/x.json"])
        #expect(found.files.count == 1)
    }

    @Test func theSameFolderByTwoSpellingsIsReplayedOnce() throws {
        let folder = try TemporaryFolder()
        try folder.write("dir/x.json", "{}")
        try folder.write("dir/x.expect.json", #"{"expect": {}}"#)
        let found = try PayloadDiscovery().discover(["\(folder.path)/dir", "\(folder.path)/dir/../dir"])
        #expect(found.files.map(\.path) == ["\(folder.path)/dir/x.json"])
        #expect(found.notices.isEmpty, "the expectation is used, under either spelling")
    }

    @Test func aLinkToAFileIsThatFileOnceAndALoopingLinkEndsTheWalk() throws {
        let folder = try TemporaryFolder()
        try folder.write("real/a.json", "{}")
        try FileManager.default.createSymbolicLink(
            atPath: "\(folder.path)/real/b.json", withDestinationPath: "\(folder.path)/real/a.json")
        try FileManager.default.createSymbolicLink(atPath: "\(folder.path)/real/loop", withDestinationPath: "..")
        let found = try PayloadDiscovery().discover([folder.path])
        #expect(found.files.map(\.path) == ["\(folder.path)/real/a.json"])
    }

    @Test func aFIFONamedLikeAPayloadIsAProblemAndIsNeverOpened() throws {
        let folder = try TemporaryFolder()
        try folder.write("a.json", "{}")
        try folder.fifo("x.json")
        try folder.write("y.json", "{}")
        try folder.fifo("y.expect.json")
        let found = try PayloadDiscovery().discover([folder.path])
        #expect(found.files.map(\.path) == ["\(folder.path)/a.json", "\(folder.path)/y.json"])
        #expect(
            found.problems.map(\.description) == [
                "\(folder.path)/x.json: is a FIFO (named pipe), not a regular file; only regular files are read",
                "\(folder.path)/y.expect.json: is a FIFO (named pipe), not a regular file; only regular files are read",
            ])
        // Loading the payload whose expectation is a FIFO returns at once with the problem named.
        let loaded = LoadedPayload.load(found.files[1])
        #expect(loaded.bytes == Array("{}".utf8))
        #expect(loaded.expectationError == "\(folder.path)/y.expect.json: is a FIFO (named pipe), not a regular file")
    }

    @Test func aFIFOGivenByNameIsAProblemToo() throws {
        let folder = try TemporaryFolder()
        let fifo = try folder.fifo("named.json")
        let found = try PayloadDiscovery().discover([fifo])
        #expect(found.files.isEmpty)
        #expect(found.problems.map(\.problem) == ["is a FIFO (named pipe), not a regular file"])
    }

    @Test func aBrokenLinkWithAPayloadNameIsReported() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createSymbolicLink(
            atPath: "\(folder.path)/gone.json", withDestinationPath: "\(folder.path)/nowhere.json")
        let found = try PayloadDiscovery().discover([folder.path])
        #expect(found.problems.map(\.description) == ["\(folder.path)/gone.json: a broken link"])
    }

    @Test func anExpectationWithoutItsPayloadIsSaid() throws {
        let folder = try TemporaryFolder()
        try folder.write("orphan.expect.json", #"{"expect": {}}"#)
        let found = try PayloadDiscovery().discover([folder.path])
        #expect(found.files.isEmpty)
        #expect(
            found.notices == [
                "\(folder.path)/orphan.expect.json: no payload beside it (NAME.json or NAME.apns), so this expectation is not used"
            ])
    }

    @Test func anUnreadableFolderIsAProblemNamingIt() throws {
        let folder = try TemporaryFolder()
        try folder.write("open/a.json", "{}")
        try folder.write("locked/b.json", "{}")
        chmod("\(folder.path)/locked", 0)
        let found = try PayloadDiscovery().discover([folder.path])
        if runsAsRoot {
            // Root reads any folder; the unprivileged case is checked through `runuser` in the replay tests.
            #expect(found.files.count == 2)
        } else {
            #expect(found.files.map(\.path) == ["\(folder.path)/open/a.json"])
            #expect(
                found.problems.map(\.description) == [
                    "\(folder.path)/locked: cannot read the folder: Permission denied"
                ])
        }
    }

    @Test func aLinkToAnOversizedFileReportsTheTargetsSize() throws {
        let folder = try TemporaryFolder()
        let big = "\(folder.path)/big.bin"
        #expect(FileManager.default.createFile(atPath: big, contents: Data(count: 300_000)))
        try FileManager.default.createSymbolicLink(atPath: "\(folder.path)/link.json", withDestinationPath: big)
        let found = try PayloadDiscovery().discover([folder.path])
        let loaded = LoadedPayload.load(try #require(found.files.first))
        #expect(loaded.oversizedBytes == 300_000)
        #expect(loaded.bytes == nil)
    }

    @Test func aHugeExpectationIsCalledTooLargeNotBadJSON() throws {
        let folder = try TemporaryFolder()
        try folder.write("a.json", "{}")
        try folder.write(
            "a.expect.json", "{\"expect\": {\"body\": \"" + String(repeating: "x", count: 3_000_000) + "\"}}")
        let found = try PayloadDiscovery().discover([folder.path])
        let loaded = LoadedPayload.load(try #require(found.files.first))
        #expect(
            loaded.expectationError
                == "\(folder.path)/a.expect.json: is 2.9 MB; an expectation file may be at most 1.0 MB")
    }
}
