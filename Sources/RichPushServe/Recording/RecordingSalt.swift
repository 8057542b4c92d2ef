import RichPushCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The recording folder's own random salt for ``TokenHash``, in its `.salt` file (64 hex digits, 0600): made with
/// the folder, and read again when the same folder is recorded into again, so one corpus hashes a token one way and
/// another corpus another way.
public enum RecordingSalt {
    public static let fileName = ".salt"

    /// The folder's salt, made when it has none yet, and how many bytes were written for it (0 when it was there).
    /// A `.salt` that is not one richpush wrote is refused, naming it.
    public static func load(in folder: RecordingFolder) throws(RecordingFolderError) -> (salt: [UInt8], written: Int) {
        for _ in 0..<2 {
            switch folder.contents(of: fileName, limit: 256) {
            case .failure(let failure):
                throw RecordingFolderError(
                    path: failure.path,
                    reason: failure.code == EPERM ? "it is not a file of yours" : "cannot read it: \(failure.reason)")
            case .success(let bytes?):
                guard let salt = decode(bytes) else {
                    throw RecordingFolderError(
                        path: folder.fullPath(fileName),
                        reason: "it is not a salt richpush wrote (64 hex digits); move it away to start a new one")
                }
                return (salt, 0)
            case .success(nil):
                let salt = TokenHash.newSalt()
                let text = Array((Hexadecimal.lowercase(salt) + "\n").utf8)
                // Linked under its name only if none is there: a second richpush starting at once reads the first's.
                switch folder.write([("", text)], names: { _ in fileName }, maxAttempts: 1) {
                case .success: return (salt, text.count)
                case .failure(let failure) where failure.code == EEXIST: continue
                case .failure(let failure):
                    throw RecordingFolderError(path: failure.path, reason: "cannot write it: \(failure.reason)")
                }
            }
        }
        throw RecordingFolderError(path: folder.fullPath(fileName), reason: "it keeps changing")
    }

    static func decode(_ bytes: [UInt8]) -> [UInt8]? {
        var text = bytes
        if text.last == UInt8(ascii: "\n") { text.removeLast() }
        guard text.count == 64 else { return nil }
        var salt: [UInt8] = []
        for index in stride(from: 0, to: 64, by: 2) {
            guard let byte = UInt8(String(decoding: text[index..<index + 2], as: UTF8.self), radix: 16) else {
                return nil
            }
            salt.append(byte)
        }
        return salt
    }
}
