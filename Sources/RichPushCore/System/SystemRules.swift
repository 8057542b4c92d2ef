/// The decisions iOS makes around the service extension, as pure functions.
public enum SystemRules {
    public enum Decision: Sendable, Equatable {
        /// Nothing is shown. The fallback says why an image that was asked for is missing.
        case silent(Fallback?)
        /// The alert text is shown without running the extension.
        case plain(Fallback?)
        /// The service extension runs.
        case runExtension
    }

    /// Whether the extension runs: `mutable-content` is 1, there is alert text, and the app is not in
    /// the foreground (the requirement keeps the plain foreground banner).
    public static func decide(request: NotificationRequest, appState: AppState, hasImageURL: Bool)
        -> Decision
    {
        guard request.content.hasAlertText else {
            return .silent(
                hasImageURL
                    ? Fallback(
                        .noAlert,
                        "the push has no alert text, so iOS shows nothing and never runs the extension")
                    : nil)
        }
        if appState == .foreground {
            return .plain(
                hasImageURL
                    ? Fallback(
                        .foreground,
                        "the app is in the foreground: the extension does not run, and the text shows as its willPresent asks"
                    )
                    : nil)
        }
        guard request.mutableContent else {
            return .plain(
                hasImageURL
                    ? Fallback(
                        .notMutable, "aps.mutable-content is not 1, so iOS does not run the service extension")
                    : nil)
        }
        return .runExtension
    }

    /// iOS shows the original content when the extension's content lost its alert text.
    public static func presentedContent(
        original: NotificationContent, fromExtension: NotificationContent
    ) -> NotificationContent {
        fromExtension.hasAlertText ? fromExtension : original
    }
}
