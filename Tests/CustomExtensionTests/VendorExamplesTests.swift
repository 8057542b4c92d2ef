import Foundation
import RichPushCore
import RichPushTestSupport
import Testing

/// Each vendor's example extension (written for this project in the shape the vendor's guide shows), built against
/// that vendor's compatibility module, ends every payload of `payloads/sdk` as `--sdk VENDOR` does: both read the
/// vendor's one description (Shared/Sources/RichPushRules/Vendors).
@Suite("A vendor's module ends as --sdk VENDOR does, payload by payload", .serialized)
struct VendorExamplesTests {
    /// The examples, by the profile whose outcome each must give: for each vendor of `Vendors.all`, the folders of
    /// examples/extensions/vendors named as it or as it and a generation (`onesignal-v3`, OneSignal's older
    /// generation: the same rules).
    static let examples: [(sdk: String, folder: String)] = Vendors.all.flatMap { vendor in
        exampleFolders.filter { $0 == vendor.name || $0.hasPrefix(vendor.name + "-") }.map {
            (vendor.name, "examples/extensions/vendors/" + $0)
        }
    }

    static let exampleFolders =
        ((try? FileManager.default.contentsOfDirectory(atPath: repositoryRootPath + "/examples/extensions/vendors"))
        ?? []).sorted()

    /// What a user compares: the style, the fallback's reason and the attachment's format, by payload file; with
    /// `sdk`, only the payloads delivered through that profile (a payload's own `given.sdk` wins over `--sdk`).
    static func outcomes(_ arguments: [String], sdk: String? = nil) async throws -> [String: String] {
        let run = try await runExecutable(
            richpushBinary(), ["replay", "payloads/sdk", "--format", "json"] + arguments,
            environment: ["XDG_CACHE_HOME": ExtensionProcessTests.cache])
        let results = try #require(
            try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]], "\(run.stderr)")
        var outcomes: [String: String] = [:]
        for result in results {
            if let sdk, result["sdk"] as? String != sdk { continue }
            let file = result["file"] as? String ?? "?"
            let style = result["style"] as? String ?? "?"
            let reason = (result["fallback"] as? [String: Any])?["reason"] as? String ?? "-"
            let format = (result["attachment"] as? [String: Any])?["format"] as? String ?? "-"
            outcomes[file] = "\(style) \(reason) \(format)"
        }
        return outcomes
    }

    @Test("every vendor richpush emulates has an example, payloads in payloads/sdk and a name --sdk lists")
    func everyVendorHasAnExample() async throws {
        let vendors = Set(Self.examples.map(\.sdk))
        let run = try await runExecutable(richpushBinary(), ["replay", "--help"])
        let sdk = repositoryRootPath + "/payloads/sdk"
        let expectations = try FileManager.default.contentsOfDirectory(atPath: sdk).filter {
            $0.hasSuffix(".expect.json")
        }
        #expect(expectations.count >= 12, "payloads/sdk has \(expectations.count) expectations")
        var columns: [String: Int] = [:]
        for file in expectations {
            let data = try Data(contentsOf: URL(fileURLWithPath: sdk + "/" + file))
            let expectation = try JSONSerialization.jsonObject(with: data) as? [String: Any]
            for name in (expectation?["sdk"] as? [String: Any] ?? [:]).keys { columns[name, default: 0] += 1 }
        }
        for vendor in Vendors.all where vendor.sdk != nil {
            #expect(vendors.contains(vendor.name), "no example for \(vendor.name) in examples/extensions/vendors")
            #expect(
                columns[vendor.name] == expectations.count,
                "\(vendor.name) is expected in \(columns[vendor.name] ?? 0) of the \(expectations.count) payloads of payloads/sdk"
            )
            #expect(run.stdout.contains(vendor.name), "--sdk does not list \(vendor.name)")
        }
        let examples = Set(Self.examples.map(\.folder))
        for folder in Self.exampleFolders {
            #expect(
                examples.contains("examples/extensions/vendors/" + folder),
                "examples/extensions/vendors/\(folder) is named after no vendor of Vendors.all")
        }
    }

    @Test(arguments: examples.map { "\($0.sdk) \($0.folder)" })
    func sameOutcomeAsTheProfile(_ example: String) async throws {
        let parts = example.split(separator: " ").map(String.init)
        let (sdk, folder) = (parts[0], parts[1])
        let profile = try await Self.outcomes(["--sdk", sdk], sdk: sdk)
        let module = try await Self.outcomes(["--extension", folder])
        #expect(profile.count >= 12, "\(profile.count) payloads went through --sdk \(sdk)")
        for (file, expected) in profile.sorted(by: { $0.key < $1.key }) {
            #expect(module[file] == expected, "\(folder) on \(file): --sdk \(sdk) gives \(expected)")
        }
    }
}
