import Foundation
import RichPushTestSupport
import Testing

/// Each vendor's example extension (written for this project in the shape the vendor's guide shows), built against
/// that vendor's compatibility module, ends every payload of `payloads/sdk` as `--sdk VENDOR` does: both read the
/// vendor's one description (Shared/Sources/RichPushRules/Vendors).
@Suite("A vendor's module ends as --sdk VENDOR does, payload by payload", .serialized)
struct VendorExamplesTests {
    /// The examples, by the profile whose outcome each must give (one vendor may have several generations).
    static let examples: [(sdk: String, folder: String)] = {
        let root = repositoryRootPath + "/examples/extensions/vendors"
        let folders = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        return folders.sorted().map { folder in
            // `onesignal-v3` is OneSignal's older generation: the same rules.
            (String(folder.split(separator: "-").first ?? Substring(folder)), "examples/extensions/vendors/" + folder)
        }
    }()

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

    @Test("every vendor richpush emulates has an example")
    func everyVendorHasAnExample() async throws {
        let vendors = Set(Self.examples.map(\.sdk))
        let run = try await runExecutable(richpushBinary(), ["replay", "--help"])
        let names = [
            "firebase", "onesignal", "airship", "braze", "clevertap", "iterable", "customerio", "batch",
            "moengage", "pushwoosh", "notificare", "kumulos", "optimove", "infobip", "klaviyo",
        ]
        for name in names {
            #expect(vendors.contains(name), "no example for \(name)")
            #expect(run.stdout.contains(name), "--sdk does not list \(name)")
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
