import Foundation
public import RichPushCore

/// A payload file read from disk with its expectation, or the reason either could not be read.
public struct LoadedPayload: Sendable {
    public var file: PayloadFile
    /// The file's bytes; nil when it could not be read.
    public var bytes: [UInt8]?
    /// The file is larger than any payload APNs would carry; only its size was read.
    public var oversizedBytes: Int?
    public var readError: String?
    public var expectation: Expectation?
    /// The expectation file's problem, naming the file.
    public var expectationError: String?

    /// Expectation files larger than this are refused unread.
    public static let maxExpectationBytes = 1024 * 1024

    public init(
        file: PayloadFile, bytes: [UInt8]?, oversizedBytes: Int? = nil, readError: String? = nil,
        expectation: Expectation? = nil, expectationError: String? = nil
    ) {
        self.file = file
        self.bytes = bytes
        self.oversizedBytes = oversizedBytes
        self.readError = readError
        self.expectation = expectation
        self.expectationError = expectationError
    }

    /// The per-payload settings (`given`), when the expectation could be read.
    public var settings: DeliveryOverrides { expectation?.given ?? DeliveryOverrides() }

    /// The delivery this file makes when it arrives in `appState`, with its settings; nil when it could not be
    /// read (``readError`` says why). A file too large to be a payload is delivered as such, unread.
    public func deliveryInput(in appState: AppState) -> DeliveryInput? {
        let payload: DeliveryInput.Payload
        if let bytes {
            payload = .bytes(bytes)
        } else if let oversizedBytes {
            payload = .oversized(bytes: oversizedBytes)
        } else {
            return nil
        }
        // A recorded push's headers travel as its attributes, so its collapse id acts as it did live.
        let origin = DeliveryOrigin(
            name: file.path, transport: .file, apns: settings.headers.flatMap { $0.isEmpty ? nil : $0.attributes })
        return DeliveryInput(payload: payload, origin: origin, appState: appState, settings: settings)
    }

    /// Reads a payload and its expectation. Never throws and never blocks on a file that is not a regular
    /// file: problems are kept with the file they concern.
    public static func load(_ file: PayloadFile) -> LoadedPayload {
        var loaded = LoadedPayload(file: file, bytes: nil)
        switch SafeFileReader.read(file.path, limit: PayloadDecoder.maxFileBytes) {
        case .bytes(let bytes): loaded.bytes = bytes
        case .tooLarge(let size): loaded.oversizedBytes = size
        case .failure(let message): loaded.readError = message
        }
        if let path = file.expectationPath {
            switch loadExpectation(path) {
            case .success(let expectation): loaded.expectation = expectation
            case .failure(let error): loaded.expectationError = error.message
            }
        }
        return loaded
    }

    /// Reads a discovered payload, or carries a discovery problem as the entry's read error.
    public static func load(_ entry: DiscoveredEntry) -> LoadedPayload {
        switch entry {
        case .payload(let file): load(file)
        case .problem(let problem):
            LoadedPayload(file: PayloadFile(path: problem.path), bytes: nil, readError: problem.problem)
        }
    }

    /// Reads and parses an expectation file; the error names the file.
    public static func loadExpectation(_ path: String) -> Result<Expectation, ExpectationError> {
        switch SafeFileReader.read(path, limit: maxExpectationBytes) {
        case .bytes(let bytes):
            var expectation: Expectation
            do {
                expectation = try Expectation.parse(bytes)
            } catch {
                return .failure(ExpectationError("\(path): \(error.message)"))
            }
            // `given.categories` is relative to the expectation's folder.
            if let file = expectation.given.categoriesFile {
                let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
                let resolved = file.hasPrefix("/") ? file : folder.appendingPathComponent(file).path
                switch CategoriesFile.load(resolved) {
                case .success(let categories): expectation.given.categories = categories
                case .failure(let error):
                    return .failure(ExpectationError("\(path): given.categories: \(error.message)"))
                }
            }
            return .success(expectation)
        case .tooLarge(let size):
            return .failure(
                ExpectationError(
                    "\(path): is \(ByteCount.text(size)); an expectation file may be at most \(ByteCount.text(maxExpectationBytes))"
                ))
        case .failure(let message):
            return .failure(ExpectationError("\(path): \(message)"))
        }
    }

    /// Whether the payload points at the embedded fixture CDN, so replay starts it only when needed.
    public func mentions(host: String) -> Bool {
        guard let bytes else { return false }
        let needle = Array(host.lowercased().utf8)
        guard bytes.count >= needle.count else { return false }
        let lowered = bytes.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }
        for start in 0...(lowered.count - needle.count) where lowered[start] == needle[0] {
            if lowered[start..<start + needle.count].elementsEqual(needle) { return true }
        }
        return false
    }
}
