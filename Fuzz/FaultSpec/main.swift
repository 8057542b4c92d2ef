// libFuzzer target: the fixture CDN's fault-spec parser (compiled together with FaultSpec.swift), fed the input
// as a raw query string. It must never trap, and a Content-Type it accepts must be a valid header value
// (printable ASCII, spaces and tabs: no line break or other control character reaches a response header).
import Foundation
import RichPushCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFaultSpec(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size))
    let query = String(decoding: bytes, as: UTF8.self)
    guard let spec = try? FaultSpec.parse(query: query) else { return 0 }
    if case .value(let type)? = spec.contentType,
        type.unicodeScalars.contains(where: { ($0.value < 0x20 && $0 != "\t") || $0.value >= 0x7F })
    {
        FileHandle.standardError.write(Data("FaultSpec fuzz: header value \(type.debugDescription) accepted\n".utf8))
        abort()
    }
    return 0
}
