// libFuzzer target: PayloadDecoder().decode and the hint engine on whatever it decodes.
//
// Any outcome is fine except a crash; a decoded payload must survive a round trip through JSONWriter.
import Foundation
import RichPushCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPayloadDecoder(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size))
    guard let request = try? PayloadDecoder().decode(bytes) else { return 0 }
    let policy = ImageURLPolicy.blueprint
    let image = policy.resolve(in: request.payload)
    _ = HintEngine(policy: policy).hint(for: request, resolvedImage: image)
    let text = JSONWriter.string(.object(request.payload))
    guard let again = try? JSONParser.parse(Array(text.utf8)), again == .object(request.payload) else {
        FileHandle.standardError.write(
            Data("PayloadDecoder fuzz: the payload does not round-trip: \(text.prefix(200))\n".utf8))
        abort()
    }
    return 0
}
