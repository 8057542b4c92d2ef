import Foundation
import RichPushRules

/// Which class of a team's sources is the extension's principal class, found as Xcode's Info.plist would name it:
/// a class whose superclass chain reaches `UNNotificationServiceExtension` or a vendor's base class
/// (`UANotificationServiceExtension`, `BrazeNotificationService.NotificationService`, …, from the vendors' shared
/// rules), through the team's own base classes. Of several, the one no other extends; `class NotificationService:
/// UANotificationServiceExtension {}` (an empty subclass of a vendor's class) counts.
struct PrincipalClassFinder {
    /// The classes a principal class may descend from: Apple's and every emulated vendor's.
    static let roots: [String] = ["UNNotificationServiceExtension"] + Vendors.all.flatMap { $0.sdk?.baseClasses ?? [] }

    /// A class declaration: `class Name: Superclass, Protocol…` (attributes and modifiers before it allowed).
    private static let declaration = try! NSRegularExpression(
        pattern:
            #"(?:^|[\s;{}])class\s+([A-Za-z_][A-Za-z0-9_]*)\s*(?:<[^>{]*>)?\s*:\s*([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)"#
    )

    /// Every `class X: Y` in `texts`, comments removed: X's superclass by X's name.
    static func superclasses(in texts: [String]) -> [String: String] {
        var found: [String: String] = [:]
        for text in texts {
            let code = withoutComments(text)
            let range = NSRange(code.startIndex..., in: code)
            for match in declaration.matches(in: code, range: range) {
                guard let name = Range(match.range(at: 1), in: code), let parent = Range(match.range(at: 2), in: code)
                else { continue }
                found[String(code[name])] = String(code[parent])
            }
        }
        return found
    }

    /// The principal class among `texts`: nil and the candidates when there is not exactly one.
    static func find(in texts: [String], roots: [String] = roots) -> (found: String?, candidates: [String]) {
        let parents = superclasses(in: texts)
        func reachesRoot(_ name: String) -> Bool {
            var current = name
            var seen: Set<String> = []
            while let parent = parents[current], seen.insert(current).inserted {
                let last = parent.split(separator: ".").last.map(String.init) ?? parent
                // A module-qualified superclass, or a name the sources do not define, is someone else's class.
                if parent.contains(".") || parents[last] == nil || last == current {
                    return roots.contains(parent)
                        || roots.contains { $0.split(separator: ".").last.map(String.init) == last }
                }
                current = last
            }
            return false
        }
        let candidates = parents.keys.filter(reachesRoot)
        // A class another candidate extends is a base class, not the principal one (a qualified superclass is a module's).
        let extended = Set(
            candidates.compactMap { child in
                parents[child].flatMap { $0.contains(".") || $0 == child ? nil : $0 }
            })
        let leaves = candidates.filter { !extended.contains($0) }.sorted()
        return (leaves.count == 1 ? leaves[0] : nil, leaves)
    }

    /// `text` with `//` and `/* */` comments blanked and string literals kept, so a class in a comment is not read.
    static func withoutComments(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        var iterator = Array(text.unicodeScalars)[...]
        var inString = false
        while let scalar = iterator.first {
            iterator = iterator.dropFirst()
            if inString {
                out.unicodeScalars.append(scalar)
                if scalar == "\\", let next = iterator.first {
                    out.unicodeScalars.append(next)
                    iterator = iterator.dropFirst()
                } else if scalar == "\"" || scalar == "\n" {
                    inString = false
                }
                continue
            }
            if scalar == "\"" {
                inString = true
                out.unicodeScalars.append(scalar)
            } else if scalar == "/", iterator.first == "/" {
                while let next = iterator.first, next != "\n" { iterator = iterator.dropFirst() }
            } else if scalar == "/", iterator.first == "*" {
                iterator = iterator.dropFirst()
                var depth = 1
                while depth > 0, let next = iterator.first {
                    iterator = iterator.dropFirst()
                    if next == "*", iterator.first == "/" {
                        iterator = iterator.dropFirst()
                        depth -= 1
                    } else if next == "/", iterator.first == "*" {
                        iterator = iterator.dropFirst()
                        depth += 1
                    } else if next == "\n" {
                        out.unicodeScalars.append(next)
                    }
                }
                out.unicodeScalars.append(" ")
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
