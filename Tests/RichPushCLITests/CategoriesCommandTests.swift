import Foundation
import RichPushCore
import RichPushTestSupport
import Testing

/// `--categories FILE` and `given.categories` through the real binary: the buttons a result shows, and bad files
/// refused in one line naming the file and the field.
@Suite struct CategoriesCommandTests {
    static let payload = #"{"aps": {"alert": {"title": "Order 42", "body": "Shipped"}, "category": "order"}}"#
    static let categories = #"""
        {"categories": [{"identifier": "order", "actions": [{"identifier": "track", "title": "Track"},
          {"identifier": "cancel", "title": "Cancel", "options": ["destructive"]},
          {"identifier": "reply", "title": "Reply", "textInput": {"buttonTitle": "Send", "placeholder": "Message"}}]}]}
        """#

    func results(_ run: CommandRun) -> [JSONValue] {
        guard case .array(let results)? = try? JSONParser.parse(Array(run.stdout.utf8)) else { return [] }
        return results
    }

    @Test func theCommandLinesCategoriesGiveTheButtons() async throws {
        let folder = try TemporaryFolder()
        try folder.write("order.json", Self.payload)
        try folder.write("app.categories.json", Self.categories)
        let run = try await runRichpush([
            "replay", folder.path, "--categories", "\(folder.path)/app.categories.json", "--format", "json",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        // The categories file beside the payload is not replayed as one.
        let results = results(run)
        #expect(results.count == 1)
        let banner = results.first?["presentation"]?["views"]?["banner"]
        guard case .array(let actions)? = banner?["actions"] else {
            Issue.record("no banner actions: \(run.stdout)")
            return
        }
        #expect(actions.map { $0["identifier"]?.stringValue } == ["track", "cancel"])
        #expect(banner?["actionsLeftOut"] == .number(1))
    }

    @Test func givenCategoriesIsRelativeToTheExpectationAndGivenRespondAnswers() async throws {
        let folder = try TemporaryFolder()
        try folder.write("order.json", Self.payload)
        try FileManager.default.createDirectory(atPath: "\(folder.path)/app", withIntermediateDirectories: true)
        try folder.write("app/shop.categories.json", Self.categories)
        try folder.write(
            "order.expect.json",
            #"""
            {"given": {"categories": "app/shop.categories.json", "respond": {"action": "reply", "text": "On my way"}},
             "expect": {"response": {"actionIdentifier": "reply", "userText": "On my way"}}}
            """#)
        let run = try await runRichpush(["replay", folder.path])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("1 passed, 0 failed"))
    }

    @Test func aBadCategoriesFileIsOneLineNamingTheFileAndTheField() async throws {
        let folder = try TemporaryFolder()
        try folder.write("order.json", Self.payload)
        try folder.write(
            "bad.categories.json",
            #"{"categories": [{"identifier": "order", "actions": [{"identifier": "x", "title": "X", "options": ["red"]}]}]}"#
        )
        let run = try await runRichpush(["replay", folder.path, "--categories", "\(folder.path)/bad.categories.json"])
        #expect(run.status == 2)
        let problem = run.stderr.split(separator: "\n").filter { $0.contains("bad.categories.json") }
        #expect(problem.count == 1, "\(run.stderr)")
        #expect(problem.first?.contains("categories[0].actions[0].options[0]: \"red\" is not one of") == true)
        #expect(!run.stderr.contains("Fatal error"))

        #expect(mkfifo("\(folder.path)/fifo.categories.json", 0o644) == 0)
        let fifo = try await runRichpush(["replay", folder.path, "--categories", "\(folder.path)/fifo.categories.json"])
        #expect(fifo.status == 2)
        #expect(fifo.stderr.contains("fifo.categories.json: is a FIFO"), "\(fifo.stderr)")
    }

    @Test func aBadGivenCategoriesFailsOnlyItsPayload() async throws {
        let folder = try TemporaryFolder()
        try folder.write("a.json", Self.payload)
        try folder.write("a.expect.json", #"{"given": {"categories": "missing.categories.json"}, "expect": {}}"#)
        try folder.write("b.json", Self.payload)
        try folder.write("b.expect.json", #"{"expect": {"style": "plain"}}"#)
        let run = try await runRichpush(["replay", folder.path])
        #expect(run.status == 1)
        #expect(run.stdout.contains("given.categories:"), "\(run.stdout)")
        #expect(run.stdout.contains("missing.categories.json"))
        #expect(run.stdout.contains("1 passed, 1 failed"), "\(run.stdout)")
    }
}
