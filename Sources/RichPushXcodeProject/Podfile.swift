import Foundation

/// The pods a CocoaPods `Podfile` gives each target, read without running Ruby: `target 'Name' do … end` blocks
/// (nested targets inherit their parents' pods unless `inherit! :none` or `:search_paths`), `abstract_target`,
/// pods at the top level (every target's), `pod 'Name'` lines, and `def name … end` methods of pods called by name
/// inside a target. Anything else (`post_install`, `if`, `use_react_native!`) is stepped over: its `do`/`if` and
/// `end` are counted so the blocks stay matched, and pods a Ruby method would add at install time are unknown.
struct Podfile: Sendable {
    static let maxBytes = 1 << 20

    private enum Kind: Sendable, Equatable {
        case root
        case target(String)
        case abstractTarget(String)
        case method(String)
        /// `if`, `post_install do`, `each do |x|`: pods inside belong to the enclosing target.
        case other
    }

    private enum Inheritance: Sendable { case complete, searchPaths, none }

    private struct Block: Sendable {
        var kind: Kind
        var parent: Int?
        var pods: [String] = []
        var calls: [String] = []
        var inheritance = Inheritance.complete
    }

    private var blocks: [Block] = [Block(kind: .root)]
    /// Development pods: a pod given with `:path => 'folder'` (or `path: 'folder'`), by its root name, with the folder as
    /// written (relative to the Podfile's folder).
    private(set) var developmentPods: [String: String] = [:]

    /// Reads `text`; it never fails, a Podfile it cannot follow gives fewer pods.
    init(_ text: String) {
        var stack = [0]
        var inBlockComment = false
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r" }) {
            if inBlockComment {
                if rawLine.hasPrefix("=end") { inBlockComment = false }
                continue
            }
            if rawLine.hasPrefix("=begin") {
                inBlockComment = true
                continue
            }
            for statement in Self.statements(Self.withoutComment(rawLine)) {
                read(statement, stack: &stack)
            }
        }
    }

    /// The pods of target `name` (its own, its methods', and what it inherits), in order; nil when the Podfile has no
    /// such target.
    func pods(for name: String) -> [String]? {
        guard let start = blocks.indices.first(where: { blocks[$0].kind == .target(name) }) else { return nil }
        var result: [String] = []
        var current: Int? = start
        var inherits = true
        while let index = current, inherits {
            let block = blocks[index]
            result += block.pods
            for call in block.calls { result += methodPods(call, depth: 0) }
            inherits = block.inheritance == .complete
            current = block.parent
        }
        var seen: Set<String> = []
        return result.filter { seen.insert($0).inserted }
    }

    // MARK: Reading

    private mutating func read(_ statement: Substring, stack: inout [Int]) {
        let text = statement.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { return }
        let owner = stack.last { blocks[$0].kind != .other } ?? 0
        let word = Self.firstWord(text)
        let opensBlock = Self.endsWithDo(text)
        switch word {
        case "end":
            if stack.count > 1 { stack.removeLast() }
            // `end.each do |x|` closes a block and opens another.
            if opensBlock { push(.other, parent: owner, stack: &stack) }
        case "target", "abstract_target":
            guard let name = Self.firstArgument(text, after: word) else {
                if opensBlock { push(.other, parent: owner, stack: &stack) }
                return
            }
            let kind: Kind = word == "target" ? .target(name) : .abstractTarget(name)
            if opensBlock {
                push(kind, parent: owner, stack: &stack)
            } else {
                // `target 'Extension'` without a block: a target that inherits everything.
                blocks.append(Block(kind: kind, parent: owner))
            }
        case "def":
            let name = text.dropFirst(3).trimmingCharacters(in: .whitespaces)
                .prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "?" || $0 == "!" }
            push(.method(String(name)), parent: 0, stack: &stack)
        case "pod":
            if let name = Self.firstArgument(text, after: word) {
                blocks[owner].pods.append(name)
                // A subspec (`Feed/Core`) is its pod's folder.
                if let path = Self.pathOption(text) {
                    developmentPods[String(name.split(separator: "/").first ?? Substring(name))] = path
                }
            }
            if opensBlock { push(.other, parent: owner, stack: &stack) }
        case "inherit!":
            if text.contains(":none") {
                blocks[owner].inheritance = .none
            } else if text.contains(":search_paths") {
                blocks[owner].inheritance = .searchPaths
            }
        case "if", "unless", "case", "while", "until", "begin", "for", "class", "module":
            push(.other, parent: owner, stack: &stack)
        default:
            if opensBlock {
                push(.other, parent: owner, stack: &stack)
            } else if !word.isEmpty, word.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }),
                text.dropFirst(word.count).allSatisfy({ $0 == " " || $0 == "(" || $0 == ")" })
            {
                // A bare name: perhaps a method of pods defined with `def`.
                blocks[owner].calls.append(word)
            }
        }
    }

    private mutating func push(_ kind: Kind, parent: Int, stack: inout [Int]) {
        // A block nested thousands deep is no Podfile: stop nesting, keep reading.
        guard stack.count < 256 else { return }
        blocks.append(Block(kind: kind, parent: parent))
        stack.append(blocks.count - 1)
    }

    private func methodPods(_ name: String, depth: Int) -> [String] {
        guard depth < 8, let method = blocks.first(where: { $0.kind == .method(name) }) else { return [] }
        return method.pods + method.calls.flatMap { methodPods($0, depth: depth + 1) }
    }

    // MARK: Ruby, lightly

    /// The line without a `#` comment (a `#` inside quotes, as in `"#{name}"`, is kept).
    private static func withoutComment(_ line: Substring) -> Substring {
        var quote: Character?
        var previous: Character = " "
        for index in line.indices {
            let character = line[index]
            if let open = quote {
                if character == open, previous != "\\" { quote = nil }
            } else if character == "'" || character == "\"" {
                quote = character
            } else if character == "#" {
                return line[..<index]
            }
            previous = character
        }
        return line
    }

    /// The statements of a line: split at `;` outside quotes.
    private static func statements(_ line: Substring) -> [Substring] {
        var result: [Substring] = []
        var quote: Character?
        var start = line.startIndex
        for index in line.indices {
            let character = line[index]
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "'" || character == "\"" {
                quote = character
            } else if character == ";" {
                result.append(line[start..<index])
                start = line.index(after: index)
            }
        }
        result.append(line[start...])
        return result
    }

    private static func firstWord(_ text: String) -> String {
        String(text.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "!" || $0 == "?" })
    }

    /// `do` or `do |x|` at the end of a statement.
    private static func endsWithDo(_ text: String) -> Bool {
        var trimmed = Substring(text)
        if trimmed.hasSuffix("|"), let bar = trimmed.dropLast().lastIndex(of: "|") {
            trimmed = trimmed[..<bar]
        }
        trimmed = trimmed.dropLast(while: { $0 == " " || $0 == "\t" })
        guard trimmed.hasSuffix("do") else { return false }
        let before = trimmed.dropLast(2)
        return before.isEmpty || before.last == " " || before.last == ")" || before.last == "\t"
    }

    /// The `:path => 'folder'` or `path: 'folder'` option of a `pod` line (CocoaPods' development pods,
    /// https://guides.cocoapods.org/using/the-podfile.html#using-the-files-from-a-folder-local-to-the-machine).
    private static func pathOption(_ text: String) -> String? {
        for marker in [":path", "path:"] {
            guard let range = text.range(of: marker) else { continue }
            var rest = text[range.upperBound...].drop { $0 == " " || $0 == "=" || $0 == ">" || $0 == "\t" }
            guard let open = rest.first, open == "'" || open == "\"" else { continue }
            rest = rest.dropFirst()
            guard let close = rest.firstIndex(of: open) else { continue }
            let path = String(rest[..<close])
            return path.isEmpty ? nil : path
        }
        return nil
    }

    /// The first argument after `keyword` when it is a string or a symbol: `'Name'`, `"Name"`, `:Name`, `('Name')`.
    private static func firstArgument(_ text: String, after keyword: String) -> String? {
        var rest = text.dropFirst(keyword.count)
        guard let first = rest.first, first == " " || first == "(" || first == "\t" else { return nil }
        rest = rest.drop { $0 == " " || $0 == "(" || $0 == "\t" }
        guard let open = rest.first else { return nil }
        if open == "'" || open == "\"" {
            let body = rest.dropFirst()
            guard let close = body.firstIndex(of: open) else { return nil }
            let name = String(body[..<close])
            return name.isEmpty ? nil : name
        }
        if open == ":" {
            let name = rest.dropFirst().prefix { $0.isLetter || $0.isNumber || $0 == "_" }
            return name.isEmpty ? nil : String(name)
        }
        return nil
    }
}

extension Substring {
    fileprivate func dropLast(while predicate: (Character) -> Bool) -> Substring {
        var result = self
        while let last = result.last, predicate(last) { result = result.dropLast() }
        return result
    }
}
