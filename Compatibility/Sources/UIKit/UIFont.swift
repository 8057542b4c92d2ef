import Foundation

/// A font as a value: its name and size, for code that builds text attributes. richpush draws no text, so a font is
/// only carried, never rasterised. https://developer.apple.com/documentation/uikit/uifont
public struct UIFont: Hashable, Sendable {
    /// https://developer.apple.com/documentation/uikit/uifont/fontname
    public var fontName: String
    /// https://developer.apple.com/documentation/uikit/uifont/pointsize
    public var pointSize: CGFloat
    /// https://developer.apple.com/documentation/uikit/uifont/familyname
    public var familyName: String

    /// A font by its PostScript name. https://developer.apple.com/documentation/uikit/uifont/init(name:size:)
    public init?(name fontName: String, size fontSize: CGFloat) {
        guard !fontName.isEmpty else { return nil }
        self.init(fontName: fontName, pointSize: fontSize, familyName: fontName)
    }

    init(fontName: String, pointSize: CGFloat, familyName: String) {
        self.fontName = fontName
        self.pointSize = pointSize
        self.familyName = familyName
    }

    /// https://developer.apple.com/documentation/uikit/uifont/systemfont(ofsize:)
    public static func systemFont(ofSize fontSize: CGFloat) -> UIFont {
        systemFont(ofSize: fontSize, weight: .regular)
    }

    /// https://developer.apple.com/documentation/uikit/uifont/systemfont(ofsize:weight:)
    public static func systemFont(ofSize fontSize: CGFloat, weight: Weight) -> UIFont {
        UIFont(fontName: ".SFUI-\(weight.name)", pointSize: fontSize, familyName: ".AppleSystemUIFont")
    }

    /// https://developer.apple.com/documentation/uikit/uifont/boldsystemfont(ofsize:)
    public static func boldSystemFont(ofSize fontSize: CGFloat) -> UIFont {
        systemFont(ofSize: fontSize, weight: .bold)
    }

    /// https://developer.apple.com/documentation/uikit/uifont/italicsystemfont(ofsize:)
    public static func italicSystemFont(ofSize fontSize: CGFloat) -> UIFont {
        UIFont(fontName: ".SFUI-RegularItalic", pointSize: fontSize, familyName: ".AppleSystemUIFont")
    }

    /// The same font at another size. https://developer.apple.com/documentation/uikit/uifont/withsize(_:)
    public func withSize(_ fontSize: CGFloat) -> UIFont {
        UIFont(fontName: fontName, pointSize: fontSize, familyName: familyName)
    }

    /// A system font's weight, with UIKit's values. https://developer.apple.com/documentation/uikit/uifont/weight
    public struct Weight: RawRepresentable, Hashable, Sendable {
        public var rawValue: CGFloat
        public init(rawValue: CGFloat) { self.rawValue = rawValue }
        public init(_ rawValue: CGFloat) { self.rawValue = rawValue }

        public static let ultraLight = Weight(-0.8)
        public static let thin = Weight(-0.6)
        public static let light = Weight(-0.4)
        public static let regular = Weight(0)
        public static let medium = Weight(0.23)
        public static let semibold = Weight(0.3)
        public static let bold = Weight(0.4)
        public static let heavy = Weight(0.56)
        public static let black = Weight(0.62)

        var name: String {
            let names: [(CGFloat, String)] = [
                (-0.8, "Ultralight"), (-0.6, "Thin"), (-0.4, "Light"), (0, "Regular"), (0.23, "Medium"),
                (0.3, "Semibold"), (0.4, "Bold"), (0.56, "Heavy"), (0.62, "Black"),
            ]
            return names.min { abs($0.0 - rawValue) < abs($1.0 - rawValue) }?.1 ?? "Regular"
        }
    }
}
