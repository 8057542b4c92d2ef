/// Why a payload was refused before it reached the device, as APNs or the simulator would refuse it.
public enum RejectionReason: String, Sendable, CaseIterable, Codable {
    case malformedJSON
    case notAnObject
    case missingAps
    case payloadTooLarge
}

/// A refused payload: nothing is delivered and nothing is shown.
public struct PayloadRejection: Error, Sendable, Equatable {
    public var reason: RejectionReason
    public var detail: String

    public init(_ reason: RejectionReason, _ detail: String) {
        self.reason = reason
        self.detail = detail
    }

    /// A file over ``PayloadDecoder/maxFileBytes``, refused without being read whole.
    public static func oversizedFile(bytes: Int) -> PayloadRejection {
        PayloadRejection(
            .payloadTooLarge, "the file is \(bytes) bytes; APNs accepts at most \(PayloadDecoder.maxPayloadBytes)")
    }
}
