import UserNotifications

/// The classic first extension, with the mistakes richpush is there to find: no timeout of its own (URLSession's
/// default is 60 s, longer than iOS's 30 s budget), the whole image held in memory, the file type taken from the
/// URL's path, no status or Content-Type check, force unwraps, and a content handler that can be called twice.
class NotificationService: UNNotificationServiceExtension {
    var contentHandler: ((UNNotificationContent) -> Void)?
    var bestAttemptContent: UNMutableNotificationContent?

    override func didReceive(
        _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
    ) {
        self.contentHandler = contentHandler
        bestAttemptContent = (request.content.mutableCopy() as! UNMutableNotificationContent)
        let options = request.content.userInfo["fcm_options"] as! [String: Any]
        let url = URL(string: options["image"] as! String)!
        print("downloading \(url)")
        URLSession.shared.dataTask(with: url) { data, _, error in
            if let error = error {
                print("download failed: \(error.localizedDescription)")
                contentHandler(self.bestAttemptContent!)
                // No return: the code below runs too and calls the handler a second time.
            }
            let file = FileManager.default.temporaryDirectory.appendingPathComponent(url.lastPathComponent)
            try? data?.write(to: file)
            if let attachment = try? UNNotificationAttachment(identifier: "image", url: file, options: nil) {
                self.bestAttemptContent!.attachments = [attachment]
            }
            contentHandler(self.bestAttemptContent!)
        }.resume()
    }

    override func serviceExtensionTimeWillExpire() {
        if let contentHandler = contentHandler, let bestAttemptContent = bestAttemptContent {
            contentHandler(bestAttemptContent)
        }
    }
}
