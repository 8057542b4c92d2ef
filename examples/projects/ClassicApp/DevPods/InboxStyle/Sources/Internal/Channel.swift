enum Channel {
    /// Channel names as the inbox shows them: lower case, no leading #.
    static func normalized(_ name: String) -> String {
        String(name.drop { $0 == "#" }).lowercased()
    }
}
