import Foundation
import RichPushTestSupport
import Testing

/// The extension code of the two articles in ../shared/seeds, as users bring it: read from the articles at test
/// time (none of it is copied into this repository) and compiled, unmodified, against the compatibility modules.
@Suite(
    "The seed articles' extensions compile unmodified against the compatibility modules",
    .enabled(if: SeedArticles.folder != nil, "../shared/seeds is not beside the repository"))
struct SeedExtensionsCompileTests {
    /// Type-checks `files` (Swift 5 language mode, as Xcode's extension template) against the modules this
    /// package built; returns the compiler's status and diagnostics.
    func typecheck(_ files: [(name: String, text: String)]) async throws -> (status: Int32, output: String) {
        let folder = try TemporaryFolder()
        let paths = try files.map { file in
            let path = folder.path + "/" + file.name
            try file.text.write(toFile: path, atomically: false, encoding: .utf8)
            return path
        }
        let modules = repositoryRootPath + "/.build/debug/Modules"
        let run = try await runExecutable(
            SeedArticles.swiftc, ["-typecheck", "-swift-version", "5", "-I", modules] + paths)
        return (run.status, run.stdout + run.stderr)
    }

    @Test("the pitfalls article: UserNotifications, CommonCrypto's CC_MD5, NSSearchPathForDirectoriesInDomains")
    func pitfalls() async throws {
        let code = try #require(try SeedArticles.extensionCode(in: "article-rich-push-extension-pitfalls.txt"))
        #expect(code.contains("import CommonCrypto") && code.contains("CC_MD5("))
        let (status, output) = try await typecheck([("NotificationService.swift", code)])
        #expect(status == 0, "\(output)")
    }

    @Test("the display-statistics article: the template, and its didReceive that posts the push id")
    func statistics() async throws {
        let article = "article-extension-image-and-display-stats.txt"
        let template = try #require(try SeedArticles.extensionCode(in: article))
        let (status, output) = try await typecheck([("NotificationService.swift", template)])
        #expect(status == 0, "\(output)")

        // The article's full didReceive, in its class; `UserAgent` is the app's own constant, in a file of its own.
        let method = try #require(try SeedArticles.method(in: article, startingWith: "override func didReceive"))
        let start = try #require(template.range(of: "    override func didReceive"))
        let end = try #require(template.range(of: "    override func serviceExtensionTimeWillExpire"))
        let full = template.replacingCharacters(in: start.lowerBound..<end.lowerBound, with: method + "\n\n")
        let userAgent = "let UserAgent = \"ExampleApp/1.0\"\n"
        let (fullStatus, fullOutput) = try await typecheck([
            ("NotificationService.swift", full), ("UserAgent.swift", userAgent),
        ])
        #expect(fullStatus == 0, "\(fullOutput)")
    }

    @Test("an API the modules do not have is a compiler error naming it (the check has teeth)")
    func missingAPI() async throws {
        let code = "import UserNotifications\nlet x = UNNotificationCategory(identifier: \"c\")\n"
        let (status, output) = try await typecheck([("Missing.swift", code)])
        #expect(status != 0 && output.contains("UNNotificationCategory"), "\(output)")
    }
}

/// Finding the seed articles and the Swift code in them.
enum SeedArticles {
    static let folder: String? = {
        let path = URL(fileURLWithPath: repositoryRootPath).deletingLastPathComponent().path + "/shared/seeds"
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }()

    static let swiftc: String = {
        for path in ["/opt/swift/usr/bin/swiftc", "/usr/bin/swiftc"]
        where FileManager.default.isExecutableFile(
            atPath: path)
        {
            return path
        }
        return "swiftc"
    }()

    static func lines(of article: String) throws -> [Substring] {
        let text = try String(contentsOfFile: folder! + "/" + article, encoding: .utf8)
        return text.split(separator: "\n", omittingEmptySubsequences: false)
    }

    /// From the first `import UserNotifications` line to where the Swift ends: the braces balance and the next
    /// line that is not blank starts no declaration.
    static func extensionCode(in article: String) throws -> String? {
        let lines = try lines(of: article)
        guard
            let start = lines.firstIndex(where: {
                $0.trimmingCharacters(in: .whitespaces) == "import UserNotifications"
            })
        else { return nil }
        return code(lines, from: start)
    }

    /// A method written on its own in the article, from the line starting with `prefix` to its closing brace.
    static func method(in article: String, startingWith prefix: String) throws -> String? {
        let lines = try lines(of: article)
        guard let start = lines.firstIndex(where: { $0.hasPrefix(prefix) }) else { return nil }
        return code(lines, from: start, oneDeclaration: true)
    }

    private static func code(_ lines: [Substring], from start: Int, oneDeclaration: Bool = false) -> String {
        let declarations = ["import", "class", "extension", "struct", "func", "//", "@", "private", "final", "enum"]
        var depth = 0
        var taken: [Substring] = []
        var index = start
        while index < lines.count {
            let line = lines[index]
            taken.append(line)
            depth += line.filter { $0 == "{" }.count - line.filter { $0 == "}" }.count
            index += 1
            guard depth == 0, !taken.allSatisfy({ $0.trimmingCharacters(in: .whitespaces).hasPrefix("import") })
            else { continue }
            if oneDeclaration { break }
            let next = lines[index...].first { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
            guard let next, declarations.contains(where: { next.trimmingCharacters(in: .whitespaces).hasPrefix($0) })
            else { break }
        }
        return taken.joined(separator: "\n") + "\n"
    }
}
