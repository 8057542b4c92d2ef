import Foundation
import RichPushTestSupport
import Testing

/// The extension code of the two articles in ../shared/seeds, as users bring it: read from the articles at test
/// time (none of it is copied into this repository) and compiled, unmodified, against the compatibility modules.
@Suite(
    "The seed articles' extensions compile unmodified against the compatibility modules",
    .enabled(if: SeedArticles.folder != nil, "../shared/seeds is not beside the repository"))
struct SeedExtensionsCompileTests {
    @Test("the pitfalls article: UserNotifications, CommonCrypto's CC_MD5, NSSearchPathForDirectoriesInDomains")
    func pitfalls() async throws {
        let code = try #require(try SeedArticles.extensionCode(in: "article-rich-push-extension-pitfalls.txt"))
        #expect(code.contains("import CommonCrypto") && code.contains("CC_MD5("))
        let (status, output) = try await CompatibilityTypecheck.typecheck([("NotificationService.swift", code)])
        #expect(status == 0, "\(output)")
    }

    @Test("the display-statistics article: the template, and its didReceive that posts the push id")
    func statistics() async throws {
        let article = "article-extension-image-and-display-stats.txt"
        let template = try #require(try SeedArticles.extensionCode(in: article))
        let (status, output) = try await CompatibilityTypecheck.typecheck([("NotificationService.swift", template)])
        #expect(status == 0, "\(output)")

        // The article's full didReceive, in its class; `UserAgent` is the app's own constant, in a file of its own.
        let files = try #require(try SeedArticles.statisticsExtension())
        let (fullStatus, fullOutput) = try await CompatibilityTypecheck.typecheck(files)
        #expect(fullStatus == 0, "\(fullOutput)")
    }

    @Test("an API the modules do not have is a compiler error naming it (the check has teeth)")
    func missingAPI() async throws {
        let code = "import UserNotifications\nlet x = UNNotificationCategory(identifier: \"c\")\n"
        let (status, output) = try await CompatibilityTypecheck.typecheck([("Missing.swift", code)])
        #expect(status != 0 && output.contains("UNNotificationCategory"), "\(output)")
    }
}
