// Customer.io's types that live in its CioInternalCommon module (CustomerIOCommon's pod, the package's internal
// product), which the push modules depend on: an extension names them only as implicit members (`.region(.EU)`,
// `.logLevel(.debug)`), and sample apps import the module itself.

/// The data center of a Customer.io workspace (Sources/Common/Type/Region.swift at 8556b45e).
public enum Region: String, Equatable, Sendable {
    case US
    case EU

    /// "US" or "EU" in any case; anything else is the US.
    public static func getRegion(from regionStr: String) -> Region {
        regionStr.uppercased() == "EU" ? .EU : .US
    }
}

/// How much the SDK logs (Sources/Common/Util/Log.swift at 4d82f153): `.error` by default.
public enum CioLogLevel: String, CaseIterable, Sendable {
    case none
    case error
    case info
    case debug

    package func shouldLog(_ level: CioLogLevel) -> Bool {
        let order: [CioLogLevel] = [.none, .error, .info, .debug]
        return self != .none && order.firstIndex(of: level)! <= order.firstIndex(of: self)!
    }
}

/// A push metric (Sources/Common/Service/Request/PushMetric.swift at 2d6379d3).
public enum Metric: String, Codable, Sendable {
    case delivered
    case opened
    case converted
}
