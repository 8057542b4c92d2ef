public import RichPushCore
import RichPushLibrary

/// One screenshot to take: a minimal HTML document holding one notification's one view, alone, in one scheme,
/// drawn by the same code as the report, at a phone's width.
public struct ScreenshotPage: Sendable, Equatable {
    /// The PNG's file name: `<payload name>.<lockScreen|banner|expanded>[-dark].png`, made safe.
    public var fileName: String
    public var view: NotificationView
    public var dark: Bool
    /// The page's size in CSS pixels: the phone's width, and a height that holds the view.
    public var width: Int
    public var height: Int
    public var html: String
}

extension HTMLReporter {
    /// The phone's width in CSS pixels (an iPhone's 390 points).
    public static let phoneWidth = 390

    /// A page per notification the phone draws, per view, light and dark, named for its payload.
    public func screenshotPages(_ report: ReplayReport) -> [ScreenshotPage] {
        var pages: [ScreenshotPage] = []
        var taken: Set<String> = []
        for (index, item) in report.items.enumerated() {
            guard let result = item.result, let presentation = result.presentation else { continue }
            var budget = maxTotalImageBytes
            let phone = phoneParts(
                result, presentation: presentation, card: index, known: [:], budget: &budget, delivery: false)
            var base = Self.safeFileName(item.file.path)
            if taken.contains(base) {
                var number = 2
                while taken.contains("\(base)-\(number)") { number += 1 }
                base = "\(base)-\(number)"
            }
            taken.insert(base)
            for view in presentation.views {
                guard let drawn = phone.views[view.view] else { continue }
                for dark in [false, true] {
                    let scheme = dark ? "dark" : "light"
                    let html = """
                        <!DOCTYPE html>
                        <html lang="en" class="shot \(scheme)">
                        <head>
                        <meta charset="utf-8">
                        <meta http-equiv="Content-Security-Policy" content="\(Self.contentSecurityPolicy)">
                        <meta name="color-scheme" content="\(scheme)">
                        <title>\(Self.escape(base)) \(view.view.rawValue)</title>
                        <style>\(Self.css)\(PhoneStyle.css)</style>
                        \(phone.style)</head>
                        <body>
                        \(drawn)</body>
                        </html>

                        """
                    pages.append(
                        ScreenshotPage(
                            fileName: "\(base).\(view.view.rawValue)\(dark ? "-dark" : "").png", view: view.view,
                            dark: dark, width: Self.phoneWidth, height: Self.estimatedHeight(view), html: html))
                }
            }
        }
        return pages
    }

    /// A payload's file name without its folder and `.json` / `.apns`, in letters, digits, `.`, `-` and `_` only
    /// (anything else becomes `_`), never starting with a dot, at most 100 characters.
    public static func safeFileName(_ path: String) -> String {
        var name = path.split(separator: "/").last.map(String.init) ?? ""
        for suffix in [".json", ".apns"] where name.lowercased().hasSuffix(suffix) {
            name = String(name.dropLast(suffix.count))
        }
        var safe = ""
        for scalar in name.unicodeScalars {
            let allowed = scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar))
            let kept: Character = allowed || scalar == "-" || scalar == "_" || scalar == "." ? Character(scalar) : "_"
            if kept == "_", safe.hasSuffix("_") { continue }
            safe.append(kept)
        }
        while safe.hasPrefix(".") { safe = "_" + safe.dropFirst() }
        safe = String(safe.prefix(100))
        return safe.isEmpty || safe == "_" ? "notification" : safe
    }

    /// A height in CSS pixels that holds the view: its fixed parts, the model's lines (at most `maxLines`), the
    /// wide media at its aspect ratio and the model's buttons. The screen's wallpaper fills what is left.
    static func estimatedHeight(_ view: PresentedView) -> Int {
        let line = 20
        func lines(_ text: PresentedText) -> Int {
            text.full.isEmpty ? 0 : min(max(text.maxLines, 1), text.lines.count + 1) * line
        }
        var text = max(line, lines(view.title)) + lines(view.subtitle) + lines(view.body)
        if view.thumbnail != nil { text = max(text, 44) }
        var height = 24 + 24 + 20 + text
        if view.view == .expanded, let media = view.media {
            let wide = Double(phoneWidth - 16)
            let picture = Int(wide * Double(max(media.height, 1)) / Double(max(media.width, 1)))
            switch media.kind {
            case .image: height += (media.file == nil ? 120 : picture) + 10 + 40
            case .video: height += (media.file == nil ? 120 : picture) + 10 + 80
            case .audio: height += 110
            }
        }
        if !view.actions.isEmpty {
            height += 10 + view.actions.reduce(0) { $0 + ($1.textInput == nil ? 45 : 85) }
        }
        if view.actionsLeftOut > 0 { height += 28 }
        // Headless Chromium (156) draws only part of a window under about 150 pixels tall.
        return max(height + 8, minimumHeight)
    }

    /// The shortest screenshot page, in CSS pixels.
    static let minimumHeight = 200
}
