/// What the person sees: the image, the alert text only, or nothing.
public enum PresentationStyle: String, Sendable, Codable {
    case rich
    case plain
    case silent
}
