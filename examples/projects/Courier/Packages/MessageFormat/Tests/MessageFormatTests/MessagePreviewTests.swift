import MessageFormat
import XCTest

final class MessagePreviewTests: XCTestCase {
    func testShortcode() { XCTAssertEqual(MessagePreview("hi :wave:").text, "hi 👋") }
}
