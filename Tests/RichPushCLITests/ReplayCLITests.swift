import Foundation
import RichPushTestSupport
import RichPushCore
import Testing

/// The real `richpush` binary: replay decodes every attachment, and the JSON result says so.
@Suite("richpush replay with the codecs")
struct ReplayCLITests {
    /// Runs `richpush replay ARGUMENTS` in the repository; its exit status and standard output.
    static func replay(_ arguments: [String]) async throws -> (status: Int32, output: Data) {
        let run = try await runExecutable(richpushBinary(), ["replay"] + arguments)
        return (run.status, Data(run.stdout.utf8))
    }

    @Test("replay --format json: the damaged corpus is rich with decoded false and its sentence; a good PNG decoded")
    func damagedCorpus() async throws {
        let (status, data) = try await Self.replay([
            "payloads/damaged", "payloads/rich/png-background.json", "--format", "json",
        ])
        #expect(status == 0, "every expectation of payloads/damaged holds")

        let results = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        var byFile: [String: [String: Any]] = [:]
        for result in results { byFile[result["file"] as? String ?? ""] = result }
        let expected = [
            "payloads/damaged/png-truncated.json": "the PNG data ends early",
            "payloads/damaged/jpeg-truncated.json": "the JPEG data ends early",
            "payloads/damaged/gif-truncated.json": "the GIF data ends early",
            "payloads/damaged/png-bomb.json":
                "the PNG is 100000x100000 (10000 megapixels), over the 50-megapixel budget",
        ]
        for (file, sentence) in expected {
            let result = try #require(byFile[file], "\(file) in the report")
            #expect(result["style"] as? String == "rich", "\(file)")
            let attachment = try #require(result["attachment"] as? [String: Any], "\(file)")
            #expect(attachment["decoded"] as? Bool == false, "\(file)")
            #expect(attachment["decodeError"] as? String == sentence, "\(file)")
            #expect((result["hint"] as? String)?.contains(sentence) == true, "\(file)")
            let events = (result["timeline"] as? [[String: Any]] ?? []).compactMap { $0["event"] as? String }
            #expect(events.contains("imageDecodeFailed"), "\(file): \(events)")
        }
        let good = try #require(byFile["payloads/rich/png-background.json"]?["attachment"] as? [String: Any])
        #expect(good["decoded"] as? Bool == true)
        #expect(good["decodeError"] == nil)
    }

    @Test("one picture sent to many payloads is decoded once, and each payload still gets its own bytes' verdict")
    func sharedPictureDecodedOnce() async throws {
        let directory = try TemporaryFolder()
        let folder = directory.url
        let images = [
            "a": "cat.png", "b": "cat.png", "c": "cat.png", "d": "cat.png?truncate=1500", "e": "cat.png?truncate=1500",
            "f": "spinner.gif",
        ]
        for (name, image) in images {
            let payload =
                #"{"aps": {"alert": {"title": "T", "body": "B"}, "mutable-content": 1}, "fcm_options": {"image": "https://fixtures.richpush.test/\#(image)"}}"#
            try Data(payload.utf8).write(to: folder.appendingPathComponent("\(name).json"))
        }
        let (status, data) = try await Self.replay([
            folder.path, "--format", "json", "--fixtures",
            repositoryRootPath + "/payloads/images",
        ])
        #expect(status == 0)

        let results = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        #expect(results.count == images.count)
        var reusedByImage: [String: Int] = [:]
        for result in results {
            let name = URL(fileURLWithPath: result["file"] as? String ?? "").deletingPathExtension().lastPathComponent
            let image = try #require(images[name], "\(name) in the report")
            let attachment = try #require(result["attachment"] as? [String: Any], "\(name)")
            let truncated = image.contains("truncate")
            #expect(attachment["decoded"] as? Bool == !truncated, "\(name)")
            #expect(attachment["decodeError"] as? String == (truncated ? "the PNG data ends early" : nil), "\(name)")
            let steps = (result["timeline"] as? [[String: Any]] ?? []).filter {
                ["imageDecoded", "imageDecodeFailed"].contains($0["event"] as? String)
            }
            #expect(steps.count == 1, "\(name): \(steps)")
            let detail = steps.first?["detail"] as? String ?? ""
            if detail.hasSuffix(", the verdict of an earlier attachment with the same bytes") {
                reusedByImage[image, default: 0] += 1
            }
        }
        // Per distinct picture, the first payload decodes it and every other one reuses that verdict.
        #expect(reusedByImage == ["cat.png": 2, "cat.png?truncate=1500": 1])
        withExtendedLifetime(directory) {}  // the folder goes when the test is done with it
    }
}
