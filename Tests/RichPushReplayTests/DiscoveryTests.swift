import Foundation
import RichPushReplay
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
        let files = try PayloadDiscovery().discover([folder.path])
        #expect(files.map(\.path) == ["\(folder.path)/a.json", "\(folder.path)/b.json", "\(folder.path)/sub/a.apns"])
        #expect(
            files.map(\.expectationPath) == [nil, "\(folder.path)/b.expect.json", "\(folder.path)/sub/a.expect.json"])
    }

    @Test func aMissingPathIsAnErrorNamingIt() {
        #expect(throws: DiscoveryError(path: "/no/such/place", problem: "no such file or folder")) {
            try PayloadDiscovery().discover(["/no/such/place"])
        }
    }

    @Test func theSameFileGivenTwiceIsReplayedOnce() throws {
        let folder = try TemporaryFolder()
        try folder.write("x.json", "{}")
        let files = try PayloadDiscovery().discover([folder.path, "\(folder.path)/x.json"])
        #expect(files.count == 1)
    }
}
