/// The few facts of HTTP/2's frame layout (RFC 9113, section 4 and 6) that the handlers working on raw frames
/// in front of NIO's HTTP/2 handler need.
enum HTTP2Wire {
    /// Length (3 bytes), type, flags, stream (4 bytes).
    static let frameHeaderLength = 9
    static let dataType: UInt8 = 0x0
    static let headersType: UInt8 = 0x1
    static let settingsType: UInt8 = 0x4
    static let continuationType: UInt8 = 0x9
    static let endStream: UInt8 = 0x1
    static let endHeaders: UInt8 = 0x4
    static let padded: UInt8 = 0x8
    static let priority: UInt8 = 0x20
}
