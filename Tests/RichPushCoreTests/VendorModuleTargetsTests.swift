import Foundation
import RichPushCore
import Testing

/// Every module a vendor's rules name (`VendorSDK.modules`) is a target of the compatibility package, so a vendor
/// that passes `--sdk` also has the module its extensions import.
@Suite struct VendorModuleTargetsTests {
    /// The `vendor("Name"` targets of Compatibility/Package.swift.
    static func vendorTargets() throws -> Set<String> {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let manifest = try String(
            contentsOf: root.appendingPathComponent("Compatibility/Package.swift"), encoding: .utf8)
        var names: Set<String> = []
        var rest = manifest[...]
        while let start = rest.range(of: "vendor(\"") {
            let after = rest[start.upperBound...]
            guard let end = after.firstIndex(of: "\"") else { break }
            names.insert(String(after[..<end]))
            rest = after[end...]
        }
        return names
    }

    @Test func everyModuleARuleNamesHasATarget() throws {
        let targets = try Self.vendorTargets()
        #expect(targets.count > 10, "the manifest's vendor(…) targets were not found: \(targets)")
        for vendor in Vendors.all {
            for module in vendor.sdk?.modules ?? [] {
                #expect(
                    targets.contains(module),
                    "\(vendor.name) names \(module), which Compatibility/Package.swift does not build")
            }
        }
    }

    @Test func everyVendorTargetBelongsToARule() throws {
        let named = Set(Vendors.all.flatMap { $0.sdk?.modules ?? [] })
        for target in try Self.vendorTargets() {
            #expect(
                named.contains(target), "Compatibility/Package.swift builds \(target), which no vendor's rules name")
        }
    }
}
