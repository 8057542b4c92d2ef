import CLibDeflate

/// A text kept compressed (raw DEFLATE, libdeflate's fastest level): the inspection API's results are JSON that
/// repeats its keys and most of its values, and take about a third of their size this way.
struct DeflatedText: Sendable {
    private let bytes: [UInt8]
    /// The text's length, for decompressing it into a buffer of the right size.
    private let length: Int
    /// Whether `bytes` is the text itself (compression would not have made it smaller).
    private let stored: Bool

    /// Compresses `text` with `compressor`, which the caller owns and uses from one thread at a time.
    init(_ text: [UInt8], compressor: Compressor) {
        length = text.count
        let bound = libdeflate_deflate_compress_bound(compressor.pointer, text.count)
        var compressed = [UInt8](repeating: 0, count: bound)
        let size = text.withUnsafeBytes { input in
            compressed.withUnsafeMutableBytes { output in
                libdeflate_deflate_compress(
                    compressor.pointer, input.baseAddress, input.count, output.baseAddress, output.count)
            }
        }
        if size == 0 || size >= text.count {
            bytes = text
            stored = true
        } else {
            bytes = Array(compressed[..<size])
            stored = false
        }
    }

    /// The text, decompressed.
    func text(_ decompressor: Decompressor) -> [UInt8] {
        guard !stored else { return bytes }
        var text = [UInt8](repeating: 0, count: length)
        var produced = 0
        let result = bytes.withUnsafeBytes { input in
            text.withUnsafeMutableBytes { output in
                libdeflate_deflate_decompress(
                    decompressor.pointer, input.baseAddress, input.count, output.baseAddress, output.count,
                    &produced)
            }
        }
        // Only this type wrote `bytes`, so this cannot fail short of memory corruption.
        precondition(result == LIBDEFLATE_SUCCESS && produced == length, "a kept result does not decompress")
        return text
    }

    /// libdeflate's compressor at level 1 (its fastest), freed with the value.
    final class Compressor: @unchecked Sendable {
        // @unchecked: the pointer is used only under the lock of the store that owns this compressor.
        let pointer: OpaquePointer

        init() {
            guard let pointer = libdeflate_alloc_compressor(1) else { fatalError("out of memory") }
            self.pointer = pointer
        }

        deinit { libdeflate_free_compressor(pointer) }
    }

    /// libdeflate's decompressor, freed with the value; one per reader.
    final class Decompressor {
        let pointer: OpaquePointer

        init() {
            guard let pointer = libdeflate_alloc_decompressor() else { fatalError("out of memory") }
            self.pointer = pointer
        }

        deinit { libdeflate_free_decompressor(pointer) }
    }
}
