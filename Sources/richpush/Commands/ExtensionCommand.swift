import ArgumentParser
import Foundation
import RichPushCustomExtension

/// `richpush extension`: what concerns a team's own Notification Service Extension.
struct ExtensionCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "extension",
        abstract: "Build a team's own Notification Service Extension as --extension runs it.",
        subcommands: [ExtensionCheckCommand.self]
    )
}

/// `richpush extension check DIR`: builds the folder and says what richpush will run.
struct ExtensionCheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Build an extension folder against the compatibility modules and print the compiler's diagnostics.",
        discussion: """
            Every .swift file in DIR (and each --extension-sources PATH) is compiled unmodified (Swift 5 mode) \
            against richpush's compatibility modules: Apple's UserNotifications, UIKit, Intents, CryptoKit, Security, \
            MobileCoreServices, UniformTypeIdentifiers, CommonCrypto, os/OSLog, and the push vendors' SDK modules. \
            The diagnostics name your own files; an import, API or type richpush does not provide gets one line \
            saying so. The build is cached: unchanged sources are not rebuilt. Exit status 0 when it builds, 2 when not.
            """
    )

    @Argument(
        help: ArgumentHelp(
            "The extension: its folder, or the app's Xcode project (.xcodeproj, .xcworkspace, or a folder holding one).",
            valueName: "DIR|PROJECT"))
    var folder: String

    @OptionGroup var principalClass: PrincipalClassOption

    func run() async throws {
        let built = try await principalClass.build(folder, command: "richpush extension check")
        let files = built.sources.count == 1 ? "1 Swift file" : "\(built.sources.count) Swift files"
        let cached = built.cached ? ", unchanged since the last build" : ""
        try StandardStreams.output("\(folder): builds (\(files), principal class \(built.principalClass)\(cached))\n")
        if !built.libraries.isEmpty {
            let modules = built.libraries.map {
                "\($0.name) (\($0.origin), \($0.swiftFiles.count) Swift file\($0.swiftFiles.count == 1 ? "" : "s"))"
            }
            try StandardStreams.output("  with what it links from its repository: \(modules.joined(separator: "; "))\n")
        }
    }
}
