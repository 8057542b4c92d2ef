import RichPushCore
import Testing

/// The media type the downloader checks against `image/*` and the SDK profiles map to file extensions.
@Suite("MediaType of a Content-Type")
struct MediaTypeTests {
    @Test(
        "the part before the first ';', without spaces and tabs around it, lowercased",
        arguments: [
            ("image/png", "image/png"),
            ("Image/PNG", "image/png"),
            (" image/jpeg ; charset=binary", "image/jpeg"),
            ("\timage/gif\t;q=1;x=2", "image/gif"),
            ("image/png;", "image/png"),
            (";image/png", ""),
            ("", ""),
            ("   ", ""),
            ("image / png", "image / png"),
            ("IMAGE/Svg+XML; a=b", "image/svg+xml"),
        ])
    func mediaType(contentType: String, expected: String) {
        #expect(MediaType.of(contentType) == expected)
    }
}
