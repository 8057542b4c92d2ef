// swift-tools-version:5.9
import PackageDescription

let package = Package(
    name: "Emoji",
    products: [.library(name: "Emoji", targets: ["Emoji"])],
    targets: [.target(name: "Emoji")]
)
