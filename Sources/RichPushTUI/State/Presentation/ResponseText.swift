import RichPushCore

/// What the app was handed when the person answered a notification, in one line.
enum ResponseText {
    /// `App received: reply, text "On my way"`, and whether it opened the app.
    static func received(_ response: NotificationResponse) -> String {
        let action =
            switch response.actionIdentifier {
            case NotificationResponse.defaultActionIdentifier: "the notification tapped (default action)"
            case NotificationResponse.dismissActionIdentifier: "the notification dismissed"
            default: TextSanitizer.singleLine(response.actionIdentifier, limit: 60)
            }
        // An authentication-required or foreground button on a locked phone asks to unlock it first.
        var line = response.unlockedFirst ? "Unlocked, then the app received: \(action)" : "App received: \(action)"
        if let text = response.userText { line += ", text \"\(TextSanitizer.singleLine(text, limit: 80))\"" }
        if response.opensApp { line += ", opening the app" }
        return line
    }
}
