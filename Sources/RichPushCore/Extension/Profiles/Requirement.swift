extension SDKProfile {
    /// The requirement's extension, which richpush has always emulated and still does by default: the image URL
    /// from the configured key paths, https only, one deadline for the whole download (`--download-timeout`),
    /// `image/*` only, at most `--extension-max-bytes`, the file named from the sniffed format.
    public static let requirement = SDKProfile(
        name: "requirement", title: "the requirement's extension", source: "richpush's own extension (the requirement)",
        imageSource: .configured, schemes: .httpsOnly, timeout: .configured, contentTypeRule: .imageOnly,
        size: .configured, naming: .sniffedFormat, plurality: .first)
}
