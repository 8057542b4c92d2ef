import Foundation

/// Finding the seed articles and the Swift code in them.
public enum SeedArticles {
    public static let folder: String? = {
        let path = URL(fileURLWithPath: repositoryRootPath).deletingLastPathComponent().path + "/shared/seeds"
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }()

    public static let swiftc: String = {
        for path in ["/opt/swift/usr/bin/swiftc", "/usr/bin/swiftc"]
        where FileManager.default.isExecutableFile(
            atPath: path)
        {
            return path
        }
        return "swiftc"
    }()

    public static func lines(of article: String) throws -> [Substring] {
        let text = try String(contentsOfFile: folder! + "/" + article, encoding: .utf8)
        return text.split(separator: "\n", omittingEmptySubsequences: false)
    }

    /// From the first `import UserNotifications` line to where the Swift ends: the braces balance and the next
    /// line that is not blank starts no declaration.
    public static func extensionCode(in article: String) throws -> String? {
        let lines = try lines(of: article)
        guard
            let start = lines.firstIndex(where: {
                $0.trimmingCharacters(in: .whitespaces) == "import UserNotifications"
            })
        else { return nil }
        return code(lines, from: start)
    }

    /// A method written on its own in the article, from the line starting with `prefix` to its closing brace.
    public static func method(in article: String, startingWith prefix: String) throws -> String? {
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

extension SeedArticles {
    /// The display-statistics article's extension as a team would have it: the template with the article's full
    /// `didReceive`, and the app's `UserAgent` constant in a file of its own.
    public static func statisticsExtension() throws -> [(name: String, text: String)]? {
        let article = "article-extension-image-and-display-stats.txt"
        guard let template = try extensionCode(in: article),
            let method = try method(in: article, startingWith: "override func didReceive"),
            let start = template.range(of: "    override func didReceive"),
            let end = template.range(of: "    override func serviceExtensionTimeWillExpire")
        else { return nil }
        let full = template.replacingCharacters(in: start.lowerBound..<end.lowerBound, with: method + "\n\n")
        return [("NotificationService.swift", full), ("UserAgent.swift", "let UserAgent = \"ExampleApp/1.0\"\n")]
    }
}
