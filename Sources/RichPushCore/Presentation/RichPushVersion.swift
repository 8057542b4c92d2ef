/// The version every front end reports (`--version`, report headers, the receipt User-Agent).
public enum RichPushVersion {
    public static let current = "0.2.0"
}
