import Testing

@testable import RichPushCustomExtension

/// Apple's module names: the ones richpush provides are provided (an `import` of one is no diagnostic), and any of
/// Apple's it lacks is "Apple's X is not provided", never a third-party library.
@Suite("Apple's SDK modules: provided, or named as Apple's")
struct AppleSDKModulesTests {
    @Test(
        "Apple's modules richpush provides are provided, and an Apple module is never called a third-party library",
        arguments: ["SQLite3", "Compression", "WidgetKit", "Combine", "CoreData"])
    func provided(name: String) {
        #expect(BuildDiagnostics.providedModules.contains(name) == (name != "CoreData"))
        #expect(!BuildDiagnostics.missingModule(name).contains("third-party"))
        #expect(BuildDiagnostics.missingModule(name).contains("Apple's \(name) is not provided"))
    }
}
