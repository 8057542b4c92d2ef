import Foundation
import RichPushCore
import RichPushTestSupport
import Testing

/// A vendor is its rules (one file of Shared/Sources/RichPushRules/Vendors, its entry in `Vendors.all`) and its
/// modules (one folder each of Compatibility/Sources/Vendors, each a target of the compatibility package by its
/// folder): every module a vendor's rules name is a target there, and every vendor target is a module some rules name.
@Suite struct VendorModuleTargetsTests {
    /// The targets of Compatibility/Package.swift as SwiftPM reads it (`swift package dump-package`), by name, with
    /// their paths; the manifest cache off, so what the folders are now decides, not what they were.
    static func compatibilityTargets() async throws -> [String: String] {
        let swift = URL(fileURLWithPath: SeedArticles.swiftc).deletingLastPathComponent().appendingPathComponent(
            "swift"
        )
        .path
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("dump-package-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let run = try await runExecutable(
            swift,
            [
                "package", "--package-path", "Compatibility", "--scratch-path", scratch.path, "--manifest-cache",
                "none",
                "dump-package",
            ])
        try #require(run.status == 0, "swift package dump-package: \(run.stderr)")
        let manifest = try #require(
            try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stdout.prefix(200))"
        )
        let targets = try #require(manifest["targets"] as? [[String: Any]])
        var paths: [String: String] = [:]
        for target in targets {
            guard let name = target["name"] as? String else { continue }
            paths[name] = target["path"] as? String ?? "Sources/\(name)"
        }
        return paths
    }

    @Test("every module a vendor's rules name is a target of Compatibility/Package.swift")
    func everyModuleARuleNamesHasATarget() async throws {
        let targets = try await Self.compatibilityTargets()
        #expect(targets["UserNotifications"] != nil, "the manifest's targets were not read: \(targets.keys.sorted())")
        for vendor in Vendors.all {
            for module in vendor.sdk?.modules ?? [] {
                #expect(
                    targets[module] == "Sources/Vendors/\(module)",
                    "\(vendor.name) names \(module), which Compatibility/Package.swift does not build from Sources/Vendors/\(module)"
                )
            }
        }
    }

    @Test("every vendor target of Compatibility/Package.swift is a module some vendor's rules name")
    func everyVendorTargetBelongsToARule() async throws {
        let named = Set(Vendors.all.flatMap { $0.sdk?.modules ?? [] })
        let vendorTargets = try await Self.compatibilityTargets().filter { $0.value.hasPrefix("Sources/Vendors/") }
        #expect(vendorTargets.count > 10, "the manifest's vendor targets were not found: \(vendorTargets)")
        for target in vendorTargets.keys.sorted() {
            #expect(
                named.contains(target), "Compatibility/Package.swift builds \(target), which no vendor's rules name")
        }
    }
}
