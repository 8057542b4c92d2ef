import Foundation
import RichPushRules

/// The compiler's errors for a team's extension, turned into one line per piece richpush does not provide: a module
/// (Apple's, a vendor's it does not emulate, a third-party library), an API, or a type the extension's own files do
/// not define (the app target's, shared with the extension in Xcode).
enum BuildDiagnostics {
    /// Apple's frameworks richpush provides (the compatibility package's), by the name `import` uses.
    static let appleFrameworks = [
        "UserNotifications", "Foundation", "MobileCoreServices", "UniformTypeIdentifiers", "CommonCrypto", "os",
        "OSLog", "UIKit", "Intents", "CryptoKit", "Security", "SQLite3", "Compression", "WidgetKit",
        "Combine",
    ]

    /// Every module an extension may import from richpush.
    static var providedModules: [String] {
        appleFrameworks + Vendors.all.flatMap { $0.sdk?.modules ?? [] }
    }

    /// Prefixes of Apple's API names: a name the compiler cannot find that starts so is an API richpush lacks, not a
    /// type of the team's app.
    static let applePrefixes = [
        "UN", "UI", "IN", "NS", "CG", "CF", "Sec", "kSec", "os_", "UT", "kUT", "CC_", "CX", "PK",
        // CommonCrypto's HMAC and cryptor API (CCHmacContext, CCHmac, kCCHmacAlgSHA256, CCCrypt).
        "CCHmac", "CCCrypt", "CCKey", "kCC",
        // MacTypes' status codes, which iOS's Foundation brings in (richpush's are Security's: `import Security`).
        "OSStatus", "noErr", "errSec",
    ]

    /// One line per import, API or type the compatibility modules do not provide, from the compiler's errors.
    static func unsupported(in diagnostics: String, fromProject: Bool = false) -> [String] {
        var lines: [String] = []
        for line in diagnostics.split(separator: "\n") where line.contains("error:") {
            if let name = quoted(after: "no such module ", in: line) {
                lines.append(missingModule(name))
            } else if let name = quoted(after: "cannot find ", in: line), line.contains("in scope") {
                lines.append(missingName(name, fromProject: fromProject))
            } else if let name = quoted(after: "cannot find type ", in: line), line.contains("in scope") {
                lines.append(missingName(name, fromProject: fromProject))
            } else if line.contains("Objective-C interoperability is disabled") {
                lines.append(
                    "@objc: Swift on Linux has no Objective-C runtime, so no @objc, @objcMembers or dynamic (on iOS, @objc(Name) on the principal class only names it for that runtime; without it the class is found by its Swift name)"
                )
            } else if line.contains("has no member") {
                let detail = line.components(separatedBy: "error: ").last ?? String(line)
                lines.append("\(detail): not in the compatibility modules")
            }
        }
        var seen = Set<String>()
        return lines.filter { seen.insert($0).inserted }
    }

    /// What an `import` richpush cannot satisfy is: a vendor it does not emulate, an Apple framework, or a library.
    static func missingModule(_ name: String) -> String {
        let vendors = Vendors.all.filter { !$0.usesConfiguredImageKeys }.compactMap {
            $0.title.split(separator: " ").first.map(String.init)
        }
        if let vendor = Vendors.unemulated.first(where: { $0.modules.contains(name) }) {
            return
                "import \(name): \(vendor.vendor)'s SDK, which richpush does not emulate (it emulates \(vendors.joined(separator: ", ")))"
        }
        // Apple's SDK table decides: an Apple module is never called a third-party library.
        if AppleSDKModules.contains(name) {
            return
                "import \(name): Apple's \(name) is not provided (richpush provides \(appleFrameworks.filter { $0 != "Foundation" }.joined(separator: ", ")))"
        }
        return
            "import \(name): a third-party library richpush does not provide (add its files with --extension-sources, or remove the import)"
    }

    /// What a name the compiler cannot find is: Apple's API richpush lacks, or a type of the app's.
    /// A name the compiler cannot find: Apple's API richpush lacks, or a type of the app's. From a folder, the way
    /// to the app's file is its Xcode project (which names the files the target compiles) or `--extension-sources`;
    /// from the project, the target does not compile it, so only `--extension-sources` can add it.
    static func missingName(_ name: String, fromProject: Bool = false) -> String {
        if name == "OSStatus" {
            return
                "OSStatus: Apple's (MacTypes, which iOS's Foundation brings in); richpush has it in its Security module only, so a file that does not import Security does not see it"
        }
        if applePrefixes.contains(where: { name.hasPrefix($0) }) {
            return
                "\(name): not in the compatibility modules (they cover the API docs/extension.md lists)"
        }
        if fromProject {
            return
                "\(name): not defined in the files the target compiles (generated by the build?); add the file that defines it with --extension-sources PATH"
        }
        return
            "\(name): not defined in the extension's files; if the app target shares the file that defines it, add it with --extension-sources PATH, or give the app's Xcode project instead of the folder"
    }

    private static func quoted(after prefix: String, in line: Substring) -> String? {
        guard let start = line.range(of: prefix + "'") else { return nil }
        let rest = line[start.upperBound...]
        guard let end = rest.firstIndex(of: "'") else { return nil }
        return String(rest[..<end])
    }

    /// The compiler's words for the team, without the driver's own line about its job
    /// (`error: emit-module command failed with exit code 1 (use -v to see invocation)`), which names no file of theirs
    /// and tells them to run a command they did not run.
    static func forTheTeam(_ output: String) -> String {
        output.split(separator: "\n", omittingEmptySubsequences: false).filter {
            !($0.hasPrefix("error: ") && $0.contains(" command failed with exit code "))
        }.joined(separator: "\n")
    }

    /// The compiler's errors: those at a file, and the driver's own (`error: filename "Package.swift" used twice`),
    /// but not the driver's line that a job failed, which repeats them.
    static func errorCount(in diagnostics: String) -> Int {
        diagnostics.split(separator: "\n").filter {
            $0.contains(": error:") || ($0.hasPrefix("error: ") && !$0.contains(" command failed with exit code "))
        }.count
    }

    /// The compiler's first error, as it printed it (`Sources/ChatCore/Thread.swift:3:5: error: cannot find 'x' in
    /// scope`), trimmed to a line a message can carry.
    static func firstError(in diagnostics: String) -> String? {
        diagnostics.split(separator: "\n").first {
            $0.contains(": error:") || ($0.hasPrefix("error: ") && !$0.contains(" command failed with exit code "))
        }.map { String($0.prefix(300)) }
    }
}
