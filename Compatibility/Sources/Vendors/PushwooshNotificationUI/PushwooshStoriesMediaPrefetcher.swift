@_exported import Foundation
@_exported import UserNotifications
import CryptoKit
import RichPushRules
import RichPushVendorSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Pushwoosh's stories prefetch for a Notification Service Extension (PushwooshNotificationUI 7.2:
/// `PushwooshStoriesMediaPrefetcher` in StoryImageLoader.swift of Pushwoosh/pushwoosh-ios-sdk; the module is a
/// product of Pushwoosh-XCFramework's Package.swift @ 20314ab6, 7.2.2). Pushwoosh's sample calls it from
/// `pushwooshPrepare(for:completion:)`:
///
/// ```swift
/// PushwooshStoriesMediaPrefetcher.prefetch(userInfo: request.content.userInfo,
///                                          appGroupIdentifier: "group.com.example.stories") { completion() }
/// ```
///
/// Each story page's image (where the pages are is the shared rule, `RichPushRules.Pushwoosh.storyImageURLs`) is
/// downloaded with `URLSession.shared` into the App Group's `pw_stories_cache` folder, named by the SHA-256 of its URL
/// in hex, unless that file is there already; a body that is not an image is not kept. `completion` is called on the
/// main queue once every download has ended, at once when the push has no stories. The notification's content is not
/// touched: the Content Extension shows the stories.
public enum PushwooshStoriesMediaPrefetcher {
    public static func prefetch(
        userInfo: [AnyHashable: Any], appGroupIdentifier: String, completion: @escaping () -> Void
    ) {
        let urls = RichPushRules.Pushwoosh().storyImageURLs(in: UserInfoNode(userInfo)) { text in
            (try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]).map(UserInfoNode.init)
        }
        .compactMap { URL(string: $0) }.filter { $0.scheme != nil }
        let done = MainQueueHandoff(completion)
        guard !urls.isEmpty,
            let container = FileManager.default.containerURL(
                forSecurityApplicationGroupIdentifier: appGroupIdentifier)
        else {
            done.call()
            return
        }
        let cache = container.appendingPathComponent("pw_stories_cache", isDirectory: true)
        try? FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        let group = DispatchGroup()
        for url in urls {
            let file = cache.appendingPathComponent(
                SHA256.hash(data: Data(url.absoluteString.utf8)).map { String(format: "%02x", $0) }.joined())
            guard !FileManager.default.fileExists(atPath: file.path) else { continue }
            group.enter()
            URLSession.shared.dataTask(with: url) { data, _, _ in
                defer { group.leave() }
                guard let data, looksLikeAnImage(data) else { return }
                try? data.write(to: file, options: .atomic)
            }.resume()
        }
        group.notify(queue: .main) { done.call() }
    }

    /// What ImageIO would recognise (`CGImageSourceGetType` is not nil), by signature: PNG, JPEG, GIF, WebP, HEIF.
    static func looksLikeAnImage(_ data: Data) -> Bool {
        let head = [UInt8](data.prefix(12))
        func starts(_ bytes: [UInt8], at offset: Int = 0) -> Bool {
            head.count >= offset + bytes.count && Array(head[offset..<offset + bytes.count]) == bytes
        }
        return starts([0x89, 0x50, 0x4E, 0x47]) || starts([0xFF, 0xD8, 0xFF]) || starts(Array("GIF8".utf8))
            || (starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8)) || starts(Array("ftyp".utf8), at: 4)
    }
}
