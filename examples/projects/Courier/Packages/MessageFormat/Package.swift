// swift-tools-version:5.9
import PackageDescription

let package = Package(
    name: "MessageFormat",
    platforms: [.iOS(.v15)],
    products: [.library(name: "MessageFormat", targets: ["MessageFormat"])],
    dependencies: [.package(path: "../Emoji")],
    targets: [
        .target(name: "MessageCore"),
        .target(name: "MessageFormat", dependencies: ["MessageCore", .product(name: "Emoji", package: "Emoji")]),
        .testTarget(name: "MessageFormatTests", dependencies: ["MessageFormat"]),
    ]
)
