import Foundation
import RichPushCodecs
import RichPushCore
import RichPushCustomExtension
import RichPushNetwork
import RichPushTestSupport
import Testing

/// richpush's decoder and the compatibility package's UIImage give every image the same verdict: what richpush reports
/// as decoded is what an extension can make a UIImage of (and draw: its pixels decode), at the same size, and what
/// richpush refuses gives nil.
@Suite("richpush and UIImage agree on every image of payloads/ and the fuzz seed corpus")
struct ImageVerdictAgreementTests {
    /// One image: where it comes from, and its bytes.
    struct Sample {
        var name: String
        var bytes: [UInt8]
    }

    /// Every file under payloads/images (the fuzz targets' seed corpus, scripts/fuzz), and the body the fixture CDN
    /// serves for each fixture URL of a payload whose query pads or cuts it (`pad`, `truncate`: the damaged payloads).
    static func samples() throws -> [Sample] {
        let images = repositoryRootPath + "/payloads/images"
        var samples: [Sample] = []
        for file in try FileManager.default.subpathsOfDirectory(atPath: images).sorted() {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: images + "/" + file, isDirectory: &isDirectory),
                !isDirectory.boolValue
            else { continue }
            samples.append(
                Sample(name: file, bytes: try [UInt8](Data(contentsOf: URL(fileURLWithPath: images + "/" + file)))))
        }
        var urls = Set<String>()
        let payloads = repositoryRootPath + "/payloads"
        for file in try FileManager.default.subpathsOfDirectory(atPath: payloads) where file.hasSuffix(".json") {
            let text = try String(contentsOfFile: payloads + "/" + file, encoding: .utf8)
            for match in text.matches(of: /https:\/\/fixtures\.richpush\.test\/([^"?]+)\?([^"]+)/) {
                urls.insert("\(match.1)?\(match.2)")
            }
        }
        for url in urls.sorted() {
            let parts = url.split(separator: "?", maxSplits: 1).map(String.init)
            let faults = try FaultSpec.parse(query: parts[1])
            guard faults.pad != nil || faults.truncate != nil,
                let file = FileManager.default.contents(atPath: images + "/" + parts[0])
            else { continue }
            // As FixtureCDN serves it: the file, `pad` zero bytes, cut to `truncate` bytes.
            let body = [UInt8](file) + [UInt8](repeating: 0, count: faults.pad ?? 0)
            samples.append(Sample(name: url, bytes: Array(body.prefix(faults.truncate ?? body.count))))
        }
        return samples
    }

    /// What each side says of an image: nil (not decoded), or its width and height in pixels.
    typealias Verdict = (width: Int, height: Int)?

    /// richpush's verdict: ImageDecoder's check, as a downloaded attachment gets it, and the size it decodes to.
    static func richpush(_ bytes: [UInt8]) -> Verdict {
        let decoder = ImageDecoder()
        guard (try? decoder.check(bytes)) != nil, let image = try? decoder.decode(bytes, frameLimit: 1) else {
            return nil
        }
        return (image.width, image.height)
    }

    /// UIImage's verdict for each file, from a program compiled against the extension SDK as a team's extension is:
    /// `UIImage(data:)`, and its pixels (`pngData()` decodes them).
    static func uiImage(_ paths: [String], in folder: TemporaryFolder) async throws -> [String] {
        let program = """
            import Foundation
            import UIKit

            for path in CommandLine.arguments.dropFirst() {
                let data = FileManager.default.contents(atPath: path) ?? Data()
                if let image = UIImage(data: data), image.pngData() != nil {
                    print("\\(Int(image.size.width)) \\(Int(image.size.height))")
                } else {
                    print("nil")
                }
            }

            """
        let source = folder.path + "/main.swift"
        try program.write(toFile: source, atomically: false, encoding: .utf8)
        let sdk = try await ExtensionSDK.locate()
        let executable = folder.path + "/verdicts"
        let build = try await runExecutable(
            SeedArticles.swiftc,
            [
                "-swift-version", "5", "-I", sdk.modules, "-L", sdk.folder, "-lRichPushExtensionSDK", "-Xlinker",
                "-rpath", "-Xlinker", sdk.folder, "-o", executable, source,
            ])
        try #require(build.status == 0, "\(build.stdout)\(build.stderr)")
        let run = try await runExecutable(executable, paths)
        try #require(run.status == 0, "\(run.stderr)")
        return run.stdout.split(separator: "\n").map(String.init)
    }

    @Test("the same verdict and size for every image, damaged ones included")
    func sameVerdicts() async throws {
        let samples = try Self.samples()
        let folder = try TemporaryFolder()
        let paths = try samples.enumerated().map { index, sample in
            let path = folder.path + "/sample-\(index)"
            try Data(sample.bytes).write(to: URL(fileURLWithPath: path))
            return path
        }
        let uiImage = try await Self.uiImage(paths, in: folder)
        try #require(uiImage.count == samples.count, "\(uiImage)")
        var decoded = 0
        for (sample, line) in zip(samples, uiImage) {
            // No image of payloads/ has an Exif orientation that turns it, so UIImage's upright size is the stored one.
            let expected = Self.richpush(sample.bytes).map { "\($0.width) \($0.height)" } ?? "nil"
            #expect(line == expected, "\(sample.name): UIImage says \(line), richpush \(expected)")
            if expected != "nil" { decoded += 1 }
        }
        // Both kinds are there: images that decode (PNG, JPEG, GIF) and ones that do not (cut short, a bomb, WebP).
        #expect(decoded >= 6 && samples.count - decoded >= 6, "\(decoded) of \(samples.count) decode")
        #expect(samples.contains { $0.name == "photo.jpg?truncate=4000" })
    }
}
