extension NotificationPresentation {
    /// The contract's `presentation`: `views.lockScreen|banner|expanded`, each with its text as shown.
    public var jsonValue: JSONValue {
        var byView = JSONObject()
        for view in views { byView[view.view.rawValue] = view.jsonValue }
        var object: JSONObject = [
            "views": .object(byView),
            "category": category.map {
                ["identifier": .string($0.identifier), "registered": $0.registered.map { .bool($0) } ?? .null]
            } ?? .null,
            "notes": .array(notes.map { .string($0) }),
            "approximate": .string(approximation),
            "previewsHidden": previewsHidden.map { .string($0) } ?? .null,
            "appBadge": .number(Double(appBadge)),
            "group": group?.jsonValue ?? .null, "grouping": .string(grouping.rawValue),
            "lockScreenDisplay": .string(lockScreenDisplay.rawValue),
        ]
        // `delivery` and `breaksThrough` sit beside `views`, as the contract names them.
        if case .object(let fields)? = delivery?.jsonValue {
            for (key, value) in fields.pairs { object[key] = value }
        }
        return .object(object)
    }
}

extension PresentedView {
    public var jsonValue: JSONValue {
        [
            "appName": .string(appName), "timestamp": .string(timestamp),
            "title": title.jsonValue, "subtitle": subtitle.jsonValue, "body": body.jsonValue,
            "thumbnail": thumbnail?.jsonValue ?? .null, "media": media?.jsonValue ?? .null,
            "actions": .array(actions.map(\.jsonValue)), "actionsLeftOut": .number(Double(actionsLeftOut)),
            "badge": badge.map { .number(Double($0)) } ?? .null,
        ]
    }
}

extension PresentedText {
    public var jsonValue: JSONValue {
        [
            "text": .string(visible), "lines": .array(lines.map { .string($0) }), "truncated": .bool(truncated),
            "maxLines": .number(Double(maxLines)), "columns": .number(Double(columns)),
        ]
    }
}

extension PresentedMedia {
    public var jsonValue: JSONValue {
        [
            "kind": .string(kind.rawValue), "file": file.map { .string($0) } ?? .null,
            "width": .number(Double(width)), "height": .number(Double(height)),
            "crop": crop.map {
                ["x": .number($0.x), "y": .number($0.y), "width": .number($0.width), "height": .number($0.height)]
            } ?? .null,
            "duration": duration.map { .number($0) } ?? .null, "frameTime": frameTime.map { .number($0) } ?? .null,
        ]
    }
}

extension PresentedAction {
    public var jsonValue: JSONValue {
        var options: [JSONValue] = []
        if destructive { options.append("destructive") }
        if authenticationRequired { options.append("authenticationRequired") }
        if foreground { options.append("foreground") }
        return [
            "number": .number(Double(number)), "identifier": .string(identifier), "title": .string(title),
            "options": .array(options), "icon": icon.map { .string($0) } ?? .null,
            "textInput": textInput.map {
                ["buttonTitle": .string($0.buttonTitle), "placeholder": .string($0.placeholder)]
            } ?? .null,
        ]
    }
}
