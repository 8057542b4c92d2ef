import Foundation
import RichPushCodecs
import RichPushCore

/// The committed fixture images (payloads/images), found from this file's location.
let fixturesRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("payloads/images", isDirectory: true)

func fixture(_ name: String) throws -> [UInt8] {
    try [UInt8](Data(contentsOf: fixturesRoot.appendingPathComponent(name)))
}

/// What scripts/make-fixture-images.py draws in photo.jpg before compressing it, at (`x`, `y`).
func photoPixel(x: Int, y: Int) -> (r: Int, g: Int, b: Int) {
    (
        Int(128 + 127 * sin(Double(x) / 23)),
        Int(128 + 127 * sin(Double(y) / 17)),
        Int(128 + 127 * sin(Double(x + y) / 31))
    )
}

/// The centre of dot `k` of spinner.gif's eight (as the script places them), rounded to a pixel.
func spinnerDot(_ k: Int) -> (x: Int, y: Int) {
    let angle = 2 * Double.pi * Double(k) / 8
    return (Int((32 + 22 * cos(angle)).rounded()), Int((32 + 22 * sin(angle)).rounded()))
}

/// True when every channel is within `tolerance` of the expected colour (JPEG is lossy).
func near(
    _ pixel: (r: UInt8, g: UInt8, b: UInt8, a: UInt8), _ expected: (r: Int, g: Int, b: Int), tolerance: Int
) -> Bool {
    abs(Int(pixel.r) - expected.r) <= tolerance && abs(Int(pixel.g) - expected.g) <= tolerance
        && abs(Int(pixel.b) - expected.b) <= tolerance && pixel.a == 255
}

func rgba(_ pixel: (r: UInt8, g: UInt8, b: UInt8, a: UInt8)) -> [UInt8] { [pixel.r, pixel.g, pixel.b, pixel.a] }

/// A GIF89a of a `width`x`height` canvas holding `frames` frames of one 1x1 pixel each: a few dozen bytes
/// whose decoded frames would each take the whole canvas.
func tinyFramesGIF(width: Int, height: Int, frames: Int) -> [UInt8] {
    func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
    var bytes = Array("GIF89a".utf8) + le16(width) + le16(height) + [0x80, 0, 0]  // 2-colour global table
    bytes += [0, 0, 0, 255, 255, 255]
    for _ in 0..<frames {
        bytes += [0x21, 0xF9, 4, 0, 10, 0, 0xFF, 0]  // graphic control: 100 ms
        bytes += [0x2C] + le16(0) + le16(0) + le16(1) + le16(1) + [0]
        bytes += [2, 2, 0x4C, 0x01, 0]  // LZW: clear, index 1, end
    }
    return bytes + [0x3B]
}

/// Peak resident memory of this process in bytes (VmHWM).
enum PeakMemory {
    static func bytes() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            let digits = line.split(separator: " ").dropFirst().first { Int($0) != nil }
            return digits.flatMap { Int($0) }.map { $0 * 1024 }
        }
        return nil
    }
}

/// One frame of a hand-built GIF: its rectangle, palette indices (row by row), disposal method (1 keep,
/// 2 clear to transparent, 3 restore the previous canvas) and transparent index.
struct GIFFrame {
    var left = 0, top = 0, width = 1, height = 1
    var indices: [UInt8]
    var disposal: UInt8 = 1
    var transparent: UInt8? = nil
}

/// A GIF89a with a 4-colour palette (black, white, red, green) and the given frames, each pixel written as
/// its own literal LZW code after a clear code, so every code stays 3 bits wide.
func handBuiltGIF(width: Int, height: Int, frames: [GIFFrame]) -> [UInt8] {
    func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
    var bytes = Array("GIF89a".utf8) + le16(width) + le16(height) + [0x81, 0, 0]
    bytes += [0, 0, 0, 255, 255, 255, 255, 0, 0, 0, 255, 0]
    for frame in frames {
        let packed = frame.disposal << 2 | (frame.transparent == nil ? 0 : 1)
        bytes += [0x21, 0xF9, 4, packed, 10, 0, frame.transparent ?? 0, 0]
        bytes += [0x2C] + le16(frame.left) + le16(frame.top) + le16(frame.width) + le16(frame.height) + [0]
        // Codes: clear (4), index, clear, index, …, end (5); packed least significant bit first.
        var codes: [UInt32] = []
        for index in frame.indices { codes += [4, UInt32(index)] }
        codes.append(5)
        var data: [UInt8] = []
        var accumulator: UInt32 = 0
        var bits = 0
        for code in codes {
            accumulator |= code << bits
            bits += 3
            while bits >= 8 {
                data.append(UInt8(accumulator & 0xFF))
                accumulator >>= 8
                bits -= 8
            }
        }
        if bits > 0 { data.append(UInt8(accumulator & 0xFF)) }
        bytes += [2]  // LZW minimum code size
        bytes += [UInt8(data.count)] + data + [0]
    }
    return bytes + [0x3B]
}
