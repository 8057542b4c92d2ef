// libFuzzer target: ImageInspector on bytes in memory. It must never trap, and what it reports must be sane.
import Foundation
import RichPushCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImageInspector(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size))
    if case .image(let info) = ImageInspector.inspect(bytes) {
        guard info.width >= 0, info.height >= 0, info.frames >= 1 else {
            FileHandle.standardError.write(Data("ImageInspector fuzz: impossible image \(info)\n".utf8))
            abort()
        }
    }
    return 0
}
