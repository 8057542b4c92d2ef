import RichPushCore

/// Which action each key stands for. What the action then does depends on the screen (see `reduce`).
enum KeyBindings {
    static let pageSize = 10

    static func action(for key: Key) -> Action? {
        switch key {
        case .character(let character):
            switch character {
            case "f": .setAppState(.foreground)
            case "b": .setAppState(.background)
            case "c": .setAppState(.closed)
            case "s": .cycleAppState
            case "p": .cycleSDK
            case "L": .toggleLocked
            case "F": .cycleFocus
            case "M": .toggleSummary
            case "S": .toggleSilent
            case "N": .cycleGrouping
            case "D": .deliverSummary
            case "j": .moveSelection(1)
            case "k": .moveSelection(-1)
            case "g": .moveToFirst
            case "G": .moveToLast
            case "?": .toggleHelp
            case "d": .deleteSelected
            case "x": .clearAll
            case "r": .reloadLibrary
            case "e": .exportReport
            case "w": .recordSelected
            case " ": .toggleStack
            case "v": .cycleView
            case "1", "2", "3", "4", "5", "6", "7", "8", "9": character.wholeNumberValue.map { .tapAction($0) }
            case "0": .tapAction(10)
            case "q", "Q": .quit
            default: nil
            }
        case .up: .moveSelection(-1)
        case .down: .moveSelection(1)
        case .pageUp: .moveSelection(-pageSize)
        case .pageDown: .moveSelection(pageSize)
        case .home: .moveToFirst
        case .end: .moveToLast
        case .enter, .right: .activate
        case .escape, .backspace, .left: .back
        case .delete: .deleteSelected
        case .tab, .backTab: .switchFocus
        case .interrupt: .quit
        case .resize, .other: nil
        }
    }
}
