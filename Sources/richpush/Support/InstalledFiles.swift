import Foundation
import RichPushFiles

/// What `scripts/install` puts beside the executable (`PREFIX/bin/richpush`): `PREFIX/share/richpush/` with the
/// fixture images, the example payloads and the compatibility SDK. From a clone there is no such folder, and the
/// clone's own files are used.
enum InstalledFiles {
    /// `PREFIX/share/richpush` for this executable, when it exists.
    static let shareFolder: String? = {
        guard let executable = Bundle.main.executableURL?.resolvingSymlinksInPath() else { return nil }
        let folder = executable.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("share/richpush").path
        return FileNode.exists(folder) ? folder : nil
    }()

    /// The folder the notification center opens when none is given: `payloads` in the working folder (a clone), else
    /// the installed example payloads.
    static var defaultPayloads: String {
        if FileNode.exists("payloads") { return "payloads" }
        if let shareFolder, FileNode.exists(shareFolder + "/payloads") { return shareFolder + "/payloads" }
        return "payloads"
    }

    /// The folder the fixture CDN serves when none is given: `payloads/images` in the working folder (a clone), else
    /// the installed images, else `payloads/images` (whose absence is then reported as before).
    static var defaultFixtureRoot: String {
        let local = "payloads/images"
        if FileNode.exists(local) { return local }
        if let shareFolder, FileNode.exists(shareFolder + "/payloads/images") {
            return shareFolder + "/payloads/images"
        }
        return local
    }
}
