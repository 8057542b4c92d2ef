import Combine
import Compression
import SQLite3
import UIKit
import UserNotifications
import WidgetKit

/// A shop's extension built on Apple's SDK beyond UserNotifications, as apps write it: the order summary comes
/// compressed in the payload (`summary_deflate`: raw DEFLATE, base64, which `COMPRESSION_ZLIB` reads), the image is
/// downloaded with a Combine publisher, scaled down to at most 200 pixels wide with `UIGraphicsBeginImageContextWithOptions`, recorded in an
/// SQLite database the app's widget reads, and the widget is asked to reload.
///
/// A summary that does not decompress leaves the alert's body as it came; a failed download leaves the notification
/// plain and the database and widget untouched. The content handler is called once.
class NotificationService: UNNotificationServiceExtension {
    private let maxWidth: CGFloat = 200
    private let lock = NSLock()
    private var contentHandler: ((UNNotificationContent) -> Void)?
    private var bestAttemptContent: UNMutableNotificationContent?
    private var download: AnyCancellable?
    private var completed = false

    override func didReceive(
        _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
    ) {
        lock.lock()
        self.contentHandler = contentHandler
        completed = false
        lock.unlock()
        guard let content = request.content.mutableCopy() as? UNMutableNotificationContent else {
            complete(with: request.content)
            return
        }
        bestAttemptContent = content
        if let packed = content.userInfo["summary_deflate"] as? String {
            if let summary = Self.inflate(base64: packed) {
                content.body = summary
            } else {
                print("summary_deflate does not decompress; the body stays as sent")
            }
        }
        guard let address = (content.userInfo["fcm_options"] as? [String: Any])?["image"] as? String,
            let url = URL(string: address), url.scheme?.lowercased() == "https"
        else {
            complete(with: content)
            return
        }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForResource = 5
        download = URLSession(configuration: configuration).dataTaskPublisher(for: url)
            .tryMap { data, response -> Data in
                guard (response as? HTTPURLResponse)?.statusCode == 200 else { throw URLError(.badServerResponse) }
                return data
            }
            .map { data in (data, UIImage(data: data)) }
            .receive(on: DispatchQueue.main)
            .sink(
                receiveCompletion: { [weak self] completion in
                    if case .failure(let error) = completion {
                        print("no image from \(url): \(error)")
                        self?.complete(with: content)
                    }
                },
                receiveValue: { [weak self] data, image in
                    guard let self else { return }
                    guard let image, let attachment = self.resizedAttachment(of: image) else {
                        print("no image from \(url): not a picture UIKit reads")
                        self.complete(with: content)
                        return
                    }
                    content.attachments = [attachment]
                    OrderStore.shared?.record(
                        url: address, bytes: data.count, orderID: content.userInfo["order"] as? String)
                    WidgetCenter.shared.reloadAllTimelines()
                    self.complete(with: content)
                })
    }

    override func serviceExtensionTimeWillExpire() {
        download?.cancel()
        if let bestAttemptContent { complete(with: bestAttemptContent) }
    }

    /// The text in `base64`, raw DEFLATE as the server's zlib (`wbits=-15`) writes it; nil when it is not.
    static func inflate(base64: String) -> String? {
        guard let packed = Data(base64Encoded: base64), !packed.isEmpty else { return nil }
        let capacity = 64 * 1024
        let destination = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        defer { destination.deallocate() }
        let count = packed.withUnsafeBytes { (source: UnsafeRawBufferPointer) -> Int in
            guard let base = source.bindMemory(to: UInt8.self).baseAddress else { return 0 }
            return compression_decode_buffer(destination, capacity, base, packed.count, nil, COMPRESSION_ZLIB)
        }
        guard count > 0 else { return nil }
        return String(data: Data(bytes: destination, count: count), encoding: .utf8)
    }

    /// The image at most ``maxWidth`` pixels wide (never enlarged), as a JPEG attachment.
    private func resizedAttachment(of image: UIImage) -> UNNotificationAttachment? {
        let factor = min(1, maxWidth / (image.size.width * image.scale))
        let size = CGSize(
            width: (image.size.width * image.scale * factor).rounded(),
            height: (image.size.height * image.scale * factor).rounded())
        UIGraphicsBeginImageContextWithOptions(size, true, 1)
        defer { UIGraphicsEndImageContext() }
        image.draw(in: CGRect(origin: .zero, size: size))
        guard let resized = UIGraphicsGetImageFromCurrentImageContext(),
            let jpeg = resized.jpegData(compressionQuality: 0.8)
        else { return nil }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString + ".jpg")
        do {
            try jpeg.write(to: file)
            return try UNNotificationAttachment(identifier: "image", url: file, options: nil)
        } catch {
            print("no attachment: \(error)")
            return nil
        }
    }

    private func complete(with content: UNNotificationContent) {
        lock.lock()
        let handler = completed ? nil : contentHandler
        completed = true
        lock.unlock()
        handler?(content)
    }
}

/// The images the app's widget shows, in an SQLite database in the App Group's container (the temporary folder
/// when there is none).
final class OrderStore {
    static let shared = OrderStore()

    private let db: OpaquePointer
    private let queue = DispatchQueue(label: "OrderStore")
    private let SQLITE_TRANSIENT = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    private init?() {
        let folder =
            FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: "group.com.example.shop")
            ?? FileManager.default.temporaryDirectory
        var handle: OpaquePointer?
        guard sqlite3_open(folder.appendingPathComponent("orders.sqlite").path, &handle) == SQLITE_OK, let handle
        else {
            sqlite3_close(handle)
            return nil
        }
        let schema = "CREATE TABLE IF NOT EXISTS images (url TEXT PRIMARY KEY, bytes INTEGER, orderID TEXT)"
        guard sqlite3_exec(handle, schema, nil, nil, nil) == SQLITE_OK else {
            print("cannot create the table: \(String(cString: sqlite3_errmsg(handle)))")
            sqlite3_close(handle)
            return nil
        }
        db = handle
    }

    func record(url: String, bytes: Int, orderID: String?) {
        queue.sync {
            var statement: OpaquePointer?
            let sql = "INSERT OR REPLACE INTO images (url, bytes, orderID) VALUES (?, ?, ?)"
            guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK else { return }
            defer { sqlite3_finalize(statement) }
            sqlite3_bind_text(statement, 1, url, -1, SQLITE_TRANSIENT)
            sqlite3_bind_int64(statement, 2, sqlite3_int64(bytes))
            if let orderID {
                sqlite3_bind_text(statement, 3, orderID, -1, SQLITE_TRANSIENT)
            } else {
                sqlite3_bind_null(statement, 3)
            }
            if sqlite3_step(statement) == SQLITE_DONE {
                print("stored \(url) for the widget (\(count()) image(s) in the database)")
            } else {
                print("cannot store \(url): \(String(cString: sqlite3_errmsg(db)))")
            }
        }
    }

    private func count() -> Int {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, "SELECT COUNT(*) FROM images", -1, &statement, nil) == SQLITE_OK else { return 0 }
        defer { sqlite3_finalize(statement) }
        return sqlite3_step(statement) == SQLITE_ROW ? Int(sqlite3_column_int64(statement, 0)) : 0
    }
}
