import RichPushCore
import RichPushLibrary

/// The only place the screen's state changes: applies one action and says what work the run loop
/// must start. Pure, so every key and every piece of delivery news can be tested without a terminal.
func reduce(_ state: inout TUIState, _ action: Action) -> [Effect] {
    switch action {
    case .setAppState(let appState):
        state.appState = appState
        state.status = "App state: \(appState.rawValue) (payloads are now sent in this state)"
    case .cycleAppState:
        return reduce(&state, .setAppState(state.appState.next))
    case .toggleLocked, .cycleFocus, .toggleSummary, .toggleSilent, .cycleGrouping:
        changePhone(&state, action)
    case .deliverSummary:
        deliverSummary(&state)
    case .cycleSDK:
        state.sdk = state.sdk.next
        state.status = "SDK: \(state.sdk.name), \(state.sdk.title) (payloads are now sent through its extension)"
    case .quit:
        state.isQuitting = true
        return [.quit]
    case .resized(let size):
        if size != state.size {
            // The detail image is drawn again at the new size; thumbnails keep theirs.
            state.renderedImages = state.renderedImages.filter { $0.key.purpose == .thumbnail }
        }
        state.size = size
        state.detailScroll = min(state.detailScroll, maxDetailScroll(state))
    case .tick(let now):
        state.now = now
        if let banner = state.banner, banner.until <= now { state.banner = nil }
    case .reloadLibrary:
        state.status = "Reloading \(state.libraryRoot)"
        return [.loadLibrary]
    case .exportReport:
        // The notification center lists newest first; a report reads in the order they arrived.
        let finished = state.notifications.reversed().compactMap(\.result)
        guard !finished.isEmpty else {
            state.status = "Nothing to export yet: send a payload first"
            return []
        }
        let inFlight = state.notifications.filter(\.isInFlight).count
        state.status =
            "Writing the report of \(finished.count) notification\(finished.count == 1 ? "" : "s")"
            + (inFlight > 0 ? " (\(inFlight) still in flight left out)" : "") + "…"
        return [.exportReport(finished)]
    case .imageRendered(let key, let image):
        // A drawing for a notification deleted meanwhile is not kept.
        guard
            state.notifications.contains(where: {
                ImageLayout.attachment(of: $0)?.file == key.file || ImageLayout.presentsFile(key.file, $0)
            })
        else {
            return []
        }
        state.renderedImages[key] = image
    case .recordSelected:
        let id = state.detailID ?? state.selectedRow?.ids.first
        guard let entry = state.notifications.first(where: { $0.id == id }), let result = entry.result else {
            state.status = "Nothing to record: select a notification that has arrived"
            return []
        }
        state.status = "Recording the notification…"
        return [.recordNotification(result)]
    case .endpointNote(let text):
        state.status = text
    case .recordFinished(let outcome):
        switch outcome {
        case .success(let path): state.status = "Recorded to \(path)"
        case .failure(let error): state.status = "Not recorded: \(error.message)"
        }
    case .exportFinished(let outcome):
        switch outcome {
        case .success(let path): state.status = "Report written to \(path)"
        case .failure(let error): state.status = "No report: \(error.message)"
        }
    case .libraryLoaded(let outcome):
        applyLibrary(outcome, to: &state)
    case .deliveryProgress(let id, let progress):
        update(id, in: &state) { entry in
            switch progress {
            case .limits(let limits):
                // Sent first: from now on the row counts down from this notification's own limits.
                entry.limits = limits
            case .decoded(let content):
                // The row shows the alert text while the extension runs; the result has the final text.
                entry.preview = content
            case .event(let event):
                entry.events.append(event)
            case .bytesReceived(let count, let expected):
                entry.bytesReceived = count
                if let expected { entry.bytesExpected = expected }
            }
        }
    case .deliveryFinished(let id, let result):
        guard state.notifications.contains(where: { $0.id == id }) else {
            // Deleted while the extension ran: nobody will see its image.
            return discardingAttachments(of: [result], &state)
        }
        var replaced: [NotificationEntry] = []
        keepingSelection(&state) { state in
            // With its thread-id known, the notification may join a stack.
            update(id, in: &state) { entry in
                entry.result = result
                entry.events = result.timeline
                entry.limits = result.limits
            }
            replaced = collapse(into: id, result: result, &state) + removedByExtension(of: id, result: result, &state)
        }
        if showsBanner(result) {
            state.banner = Banner(
                notificationID: id, inForeground: result.appState == .foreground, title: result.content.title,
                subtitle: result.content.subtitle, body: result.content.body, until: state.now + Banner.duration)
        }
        return discardingAttachments(of: replaced.map(\.result), &state) + trimToCapacity(&state)
    case .deliveryFailed(let id, let message):
        update(id, in: &state) { $0.failure = message }
    case .networkPushProgress(let pushID, let source, let progress):
        let id: Int
        if let known = state.networkPushes[pushID] {
            id = known
        } else {
            id = arriveFromNetwork(&state, source: source, appState: state.appState)
            state.networkPushes[pushID] = id
        }
        return reduce(&state, .deliveryProgress(id: id, progress))
    case .networkPushFinished(let pushID, let source, let result, let rejection):
        guard let rejection else {
            let id =
                state.networkPushes.removeValue(forKey: pushID)
                ?? arriveFromNetwork(&state, source: source, appState: result.appState)
            // The state it was delivered in is the one the endpoint read when the push arrived.
            update(id, in: &state) { $0.appState = result.appState }
            return reduce(&state, .deliveryFinished(id: id, result))
        }
        // A refused request never had a delivery: its push ID may even be another push's.
        let id = arriveFromNetwork(&state, source: source, appState: result.appState)
        update(id, in: &state) { entry in
            entry.endpointRejection = rejection
            entry.result = result
            entry.events = result.timeline
        }
        state.status =
            "Refused \(TextSanitizer.singleLine(source.name, limit: 40)): \(TextSanitizer.singleLine(rejection, limit: 80))"
        return trimToCapacity(&state)
    case .toggleHelp:
        state.isHelpVisible.toggle()
    case .back:
        if state.isHelpVisible {
            state.isHelpVisible = false
        } else if state.openSummary != nil {
            state.openSummary = nil
        } else if state.prompt != nil {
            state.prompt = nil
        } else if state.detailID != nil {
            state.detailID = nil
        }
    case .clearAll:
        let count = state.notifications.count
        let cleared = state.notifications.map(\.result)
        state.notifications.removeAll()
        state.expandedThreads.removeAll()
        state.notificationSelection = 0
        state.detailID = nil
        state.banner = nil
        state.openSummary = nil
        state.status = "Cleared \(count) notification\(count == 1 ? "" : "s")"
        return discardingAttachments(of: cleared, &state)
    case .deleteSelected:
        return discardingAttachments(of: deleteSelected(&state).map(\.result), &state)
    case .key(let key):
        if state.prompt != nil { return typeIntoPrompt(&state, key) }
        guard let action = KeyBindings.action(for: key) else { return [] }
        return reduce(&state, action)
    case .cycleView:
        guard !state.isHelpVisible else { return [] }
        cycleView(&state)
    case .tapAction(let number):
        // Digits mean nothing outside the detail view, as before.
        guard !state.isHelpVisible, state.detailEntry != nil else { return [] }
        tap(number, &state)
    case .switchFocus, .moveSelection, .moveToFirst, .moveToLast, .activate, .toggleStack:
        // The help overlay and the open summary are modal: only closing them (or quitting) does something.
        guard !state.isHelpVisible, state.openSummary == nil else { return [] }
        return navigate(&state, action)
    }
    return []
}

/// Whether the phone draws `result` as a banner now: as its delivery says (`shownIn`: not when held by Focus, waiting
/// for the summary, delivered quietly, locked, or in the foreground without willPresent's `.banner`). A result without
/// a delivery (from a deliverer that decides none) keeps the older rule: a banner in the foreground.
private func showsBanner(_ result: DeliveryResult) -> Bool {
    guard result.delivered, result.style != .silent else { return false }
    guard let delivery = result.presentation?.delivery else { return result.appState == .foreground }
    return delivery.shownIn.contains(.banner)
}

/// `L`, `F`, `M`, `S`, `N`: the phone's state, which the next payload is delivered on.
private func changePhone(_ state: inout TUIState, _ action: Action) {
    switch action {
    case .toggleLocked: state.phone.locked.toggle()
    case .cycleFocus: state.phone.focus = state.phone.focus.cycled
    case .toggleSummary: state.phone.summary.toggle()
    case .toggleSilent: state.phone.silent.toggle()
    case .cycleGrouping:
        state.phone.grouping = state.phone.grouping.cycled
        pruneExpandedThreads(&state)
    default: return
    }
    state.status = "Phone: \(PhoneText.words(state.phone)) (payloads are now delivered on this phone)"
}

/// `D`: delivers the Scheduled Summary: the notifications waiting for it leave it, and it opens over the screen,
/// ordered by relevance with the highest featured.
private func deliverSummary(_ state: inout TUIState) {
    let waiting = state.summaryWaiting
    guard !waiting.isEmpty else {
        state.status =
            state.phone.summary
            ? "The Scheduled Summary is empty: nothing waits for it"
            : "The Scheduled Summary is empty (M turns it on; notifications then wait for it)"
        return
    }
    let ids = Set(waiting.map(\.id))
    for index in state.notifications.indices where ids.contains(state.notifications[index].id) {
        state.notifications[index].deliveredInSummary = true
    }
    state.isHelpVisible = false
    state.openSummary = ScheduledSummary(waiting)
    state.status =
        "Delivered the Scheduled Summary: \(waiting.count) notification\(waiting.count == 1 ? "" : "s"), by relevance (Esc closes)"
}

/// `v`: the detail view draws the next of the phone's views; outside it, says where it works.
private func cycleView(_ state: inout TUIState) {
    guard let entry = state.detailEntry else {
        state.status = "v shows the lock screen, banner and expanded views in a notification's detail (Enter opens it)"
        return
    }
    let next = state.detailView.cycled
    state.detailView = next
    state.detailScroll = 0
    guard let presentation = entry.result?.presentation else {
        state.status = "Next: the \(next.label) view, for notifications the phone shows (this one shows nothing)"
        return
    }
    var status = "Showing the \(next.label) view"
    if next == .expanded, let count = presentation.view(.expanded)?.actions.count, count > 0 {
        status += count == 1 ? " (1 taps its button)" : " (\(count >= 10 ? "1-9, 0" : "1-\(count)") tap its buttons)"
    }
    state.status = status
}

/// A digit in the detail view: in the expanded view, taps that button; says why not otherwise.
private func tap(_ number: Int, _ state: inout TUIState) {
    guard let entry = state.detailEntry, let result = entry.result, let presentation = result.presentation,
        let expanded = presentation.view(.expanded)
    else {
        state.status = "No button \(number): the phone shows nothing of this notification"
        return
    }
    guard state.detailView == .expanded else {
        state.status = "Buttons are tapped in the expanded view: v until it shows, then \(number)"
        return
    }
    guard let action = expanded.actions.first(where: { $0.number == number }) else {
        state.status =
            expanded.actions.isEmpty
            ? "No button \(number): this notification shows no buttons"
            : "No button \(number): its buttons are 1-\(expanded.actions.count)"
        return
    }
    if action.textInput != nil {
        let prompt = TextPrompt(notificationID: entry.id, action: action)
        state.prompt = prompt
        state.status =
            "\(TextSanitizer.singleLine(action.title, limit: 40)): type the text, Enter sends it (\(TextSanitizer.singleLine(prompt.buttonTitle, limit: 20))), Esc cancels"
        return
    }
    respond(ResponseRequest(action: action.identifier), to: entry.id, &state)
}

/// A key while the text prompt is open: typed text, Backspace, Enter sends, Esc cancels; Ctrl-C still quits.
private func typeIntoPrompt(_ state: inout TUIState, _ key: Key) -> [Effect] {
    guard var prompt = state.prompt else { return [] }
    switch key {
    case .character(let character):
        if !prompt.type(character) {
            state.status =
                prompt.text.count >= TextPrompt.maxLength
                ? "The reply is at most \(TextPrompt.maxLength) characters" : state.status
        }
        state.prompt = prompt
    case .backspace, .delete:
        prompt.deleteBackward()
        state.prompt = prompt
    case .escape:
        state.prompt = nil
        state.status = "Not sent: the reply was cancelled"
    case .enter:
        // As on the phone, whose send button waits for text.
        guard !prompt.sentText.isEmpty else {
            state.status = "Nothing to send: type the text first (Esc cancels)"
            return []
        }
        state.prompt = nil
        respond(
            ResponseRequest(action: prompt.action.identifier, text: prompt.sentText), to: prompt.notificationID,
            &state)
    case .interrupt:
        state.prompt = nil
        return reduce(&state, .quit)
    default:
        break
    }
    return []
}

/// What the app is handed for `request` on notification `id`: stored on its result and said on the status line,
/// or why it cannot be given.
private func respond(_ request: ResponseRequest, to id: Int, _ state: inout TUIState) {
    guard let entry = state.notifications.first(where: { $0.id == id }), let result = entry.result,
        let presentation = result.presentation
    else {
        state.status = "Not answered: the notification is gone"
        return
    }
    switch NotificationResponse.answer(
        request, to: presentation, categories: state.categories, requestIdentifier: result.apns?.id ?? result.file,
        content: result.content, locked: state.phone.locked)
    {
    case .success(let response):
        update(id, in: &state) { $0.result?.response = response }
        state.status = ResponseText.received(response)
    case .failure(let refusal):
        state.status = "Not answered: \(TextSanitizer.singleLine(refusal.reason, limit: 160))"
    }
}

/// Keys that move, open or send, which mean different things in the detail view and in each pane.
private func navigate(_ state: inout TUIState, _ action: Action) -> [Effect] {
    if state.detailID != nil {
        switch action {
        case .toggleStack:
            // Space pauses or plays an animated image.
            guard state.detailImage?.isAnimated == true else { break }
            state.animation.togglePause(at: state.now)
            state.status = state.animation.isPaused ? "Animation paused (Space plays)" : "Animation playing"
        case .moveSelection(let delta):
            state.detailScroll = max(0, min(state.detailScroll + delta, maxDetailScroll(state)))
        case .moveToFirst: state.detailScroll = 0
        case .moveToLast: state.detailScroll = maxDetailScroll(state)
        default: break
        }
        return []
    }
    switch action {
    case .switchFocus:
        state.focus = state.focus.other
    case .moveSelection(let delta):
        moveSelection(&state) { $0 + delta }
    case .moveToFirst:
        moveSelection(&state) { _ in 0 }
    case .moveToLast:
        moveSelection(&state) { _ in Int.max }
    case .activate:
        switch state.focus {
        case .library: return send(&state)
        case .notifications:
            guard let row = state.selectedRow else { break }
            if row.isCollapsedStack {
                // As on iOS, opening a stack spreads it out; Enter on one of its notifications opens that one.
                toggleStack(&state)
            } else {
                state.detailID = row.entry.id
                state.detailScroll = 0
                state.animation.restart(at: state.now)
            }
        }
    case .toggleStack:
        if state.focus == .notifications { toggleStack(&state) }
    default:
        break
    }
    return []
}

private func moveSelection(_ state: inout TUIState, _ move: (Int) -> Int) {
    switch state.focus {
    case .library:
        state.librarySelection = clamp(move(state.librarySelection), count: state.library.count)
    case .notifications:
        state.notificationSelection = clamp(move(state.notificationSelection), count: state.rows.count)
    }
}

/// Expands the selected stack, or collapses the stack the selected notification is in.
private func toggleStack(_ state: inout TUIState) {
    guard let stack = state.selectedRow?.stack else { return }
    let group = stack.group
    if stack.isExpanded {
        state.expandedThreads.remove(group)
        state.notificationSelection = state.rows.firstIndex { $0.stack?.group == group } ?? 0
        state.status = "Collapsed \(group.label)"
    } else {
        state.expandedThreads.insert(group)
        state.status = "Expanded \(group.label) (\(stack.count) notifications)"
    }
}

/// Applies `change`, then selects the row of the notification that was selected before, when it is
/// still listed: notifications joining, leaving or replacing one in a stack move the rows around.
private func keepingSelection(_ state: inout TUIState, _ change: (inout TUIState) -> Void) {
    let selected = state.selectedRow?.entry.id
    change(&state)
    pruneExpandedThreads(&state)
    let rows = state.rows
    if let selected, let index = rows.firstIndex(where: { $0.ids.contains(selected) }) {
        state.notificationSelection = index
    } else {
        state.notificationSelection = clamp(state.notificationSelection, count: rows.count)
    }
}

/// A stack that lost all but one notification is no longer expanded, so a new one starts collapsed.
private func pruneExpandedThreads(_ state: inout TUIState) {
    guard !state.expandedThreads.isEmpty else { return }
    var counts: [NotificationGroup: Int] = [:]
    for entry in state.notifications {
        if let group = entry.stack(grouping: state.phone.grouping) { counts[group, default: 0] += 1 }
    }
    state.expandedThreads = state.expandedThreads.filter { (counts[$0] ?? 0) > 1 }
}

/// Sends the selected payload in the current app state. The new notification goes on top and is selected.
private func send(_ state: inout TUIState) -> [Effect] {
    guard let file = state.selectedLibraryFile else {
        state.status = "No payload to send: \(state.libraryRoot) has no .json or .apns files"
        return []
    }
    let mark = state.libraryExtensionMarks[file]
    if let mark, !mark.isMet {
        // As replay: a payload written for a team's extension is not sent through another one.
        state.status = ExtensionRequirement.skippedNote([mark.requirement])
        return []
    }
    let id = state.nextID
    state.nextID += 1
    state.notifications.insert(
        NotificationEntry(id: id, file: file, appState: state.appState, sentAt: state.now), at: 0)
    state.notificationSelection = 0
    let through = mark.map { " through --extension \($0.requirement.folder)" } ?? ""
    let phone = PhoneText.words(state.phone)
    state.status =
        "Sent \(file)\(through) (app \(state.appState.rawValue)\(phone == "unlocked" ? "" : ", phone \(phone)"))"
    return [.deliver(id: id, file: file, appState: state.appState, device: state.phone)]
}

/// Keeps the newest `state.capacity` notifications (a backend can push thousands): the oldest finished ones
/// go, with their image files; notifications in flight stay until they finish.
private func trimToCapacity(_ state: inout TUIState) -> [Effect] {
    let excess = state.notifications.count - state.capacity
    guard excess > 0 else { return [] }
    var removed: [NotificationEntry] = []
    keepingSelection(&state) { state in
        var index = state.notifications.count - 1
        while removed.count < excess, index >= 0 {
            if !state.notifications[index].isInFlight { removed.append(state.notifications.remove(at: index)) }
            index -= 1
        }
    }
    if let detailID = state.detailID, removed.contains(where: { $0.id == detailID }) { state.detailID = nil }
    if let banner = state.banner, removed.contains(where: { $0.id == banner.notificationID }) { state.banner = nil }
    state.droppedCount += removed.count
    return discardingAttachments(of: removed.map(\.result), &state)
}

/// A push that arrived over the network goes on top, in flight; the selected row stays selected.
private func arriveFromNetwork(_ state: inout TUIState, source: PushSource, appState: AppState) -> Int {
    let id = state.nextID
    state.nextID += 1
    keepingSelection(&state) { state in
        state.notifications.insert(
            NotificationEntry(
                id: id, file: source.name, appState: appState, sentAt: state.now, request: source.details),
            at: 0)
    }
    state.status = "Received \(TextSanitizer.singleLine(source.name, limit: 40)) (app \(appState.rawValue))"
    return id
}

/// apns-collapse-id: a shown notification replaces the earlier ones with the same id, as on iOS.
/// Returns the notifications it replaced.
private func collapse(into id: Int, result: DeliveryResult, _ state: inout TUIState) -> [NotificationEntry] {
    guard let collapseID = result.collapseID, result.delivered, result.style != .silent else { return [] }
    let replaced = state.notifications.filter { $0.id != id && $0.result?.collapseID == collapseID }
    guard !replaced.isEmpty else { return [] }
    state.notifications.removeAll { entry in replaced.contains { $0.id == entry.id } }
    if let detailID = state.detailID, replaced.contains(where: { $0.id == detailID }) { state.detailID = id }
    state.status =
        "Replaced \(replaced.count) earlier notification\(replaced.count == 1 ? "" : "s") (apns-collapse-id \(TextSanitizer.singleLine(collapseID, limit: 40)))"
    return replaced
}

/// `removeDeliveredNotifications` / `removeAllDeliveredNotifications` from the notification's extension: the
/// notifications it removed leave the list, as they leave the phone's Notification Center, and the status line says
/// who removed them and the badge the extension set. Returns the notifications removed.
private func removedByExtension(of id: Int, result: DeliveryResult, _ state: inout TUIState) -> [NotificationEntry] {
    guard let center = result.notificationCenter else { return [] }
    let identifiers = Set(center.removed.map(\.identifier))
    let removed = state.notifications.filter { entry in
        entry.id != id && entry.result?.requestIdentifier.map(identifiers.contains) == true
    }
    state.notifications.removeAll { entry in removed.contains { $0.id == entry.id } }
    if let detailID = state.detailID, removed.contains(where: { $0.id == detailID }) { state.detailID = id }
    var said: [String] = []
    if !removed.isEmpty {
        let names = removed.map { TextSanitizer.singleLine($0.result?.content.title ?? $0.file, limit: 30) }
        said.append(
            "Its extension removed \(removed.count) delivered notification\(removed.count == 1 ? "" : "s") (\(names.joined(separator: ", ")))"
        )
    }
    if let badge = center.badge { said.append("set the app badge to \(badge)") }
    if !said.isEmpty { state.status = said.joined(separator: "; ") }
    return removed
}

/// The effect that removes the image files of notifications nobody will see again (none if they had none);
/// their drawings are forgotten.
private func discardingAttachments(of results: [DeliveryResult?], _ state: inout TUIState) -> [Effect] {
    let files = results.compactMap { $0?.attachment?.file }
    guard !files.isEmpty else { return [] }
    if !state.renderedImages.isEmpty {
        let gone = Set(files)
        state.renderedImages = state.renderedImages.filter { !gone.contains($0.key.file) }
    }
    return [.discardAttachments(files)]
}

/// Removes the notification in the detail view, else the selected row (all of a collapsed stack, as
/// clearing a stack on iOS does), and returns what it removed.
private func deleteSelected(_ state: inout TUIState) -> [NotificationEntry] {
    let ids: [Int]
    if let detailID = state.detailID {
        ids = [detailID]
    } else {
        ids = state.selectedRow?.ids ?? []
    }
    let removed = state.notifications.filter { ids.contains($0.id) }
    guard !removed.isEmpty else { return [] }
    let selection = state.notificationSelection
    state.notifications.removeAll { ids.contains($0.id) }
    pruneExpandedThreads(&state)
    // The row that took the deleted one's place is selected.
    state.notificationSelection = clamp(selection, count: state.rows.count)
    if let detailID = state.detailID, ids.contains(detailID) { state.detailID = nil }
    if let banner = state.banner, ids.contains(banner.notificationID) { state.banner = nil }
    state.status =
        removed.count == 1
        ? "Deleted \(removed[0].file)"
        : "Deleted \(removed.count) notifications (\(removed[0].stack(grouping: state.phone.grouping)?.label ?? "a stack"))"
    return removed
}

private func applyLibrary(_ outcome: Result<LibraryListing, LibraryError>, to state: inout TUIState) {
    switch outcome {
    case .success(let listing):
        let files = listing.files
        let selected = state.selectedLibraryFile
        state.library = files
        state.libraryExtensionMarks = listing.extensionMarks
        state.libraryError = nil
        state.librarySelection = clamp(selected.flatMap { files.firstIndex(of: $0) } ?? 0, count: files.count)
        if state.status?.hasPrefix("Reloading") == true {
            state.status = "\(files.count) payload\(files.count == 1 ? "" : "s") in \(state.libraryRoot)"
        }
    case .failure(let error):
        state.library = []
        state.libraryExtensionMarks = [:]
        state.librarySelection = 0
        state.libraryError = error.message
    }
}

private func update(_ id: Int, in state: inout TUIState, _ change: (inout NotificationEntry) -> Void) {
    // A notification deleted while in flight still reports; its news is dropped.
    guard let index = state.notifications.firstIndex(where: { $0.id == id }) else { return }
    change(&state.notifications[index])
}

private func clamp(_ index: Int, count: Int) -> Int {
    count == 0 ? 0 : min(max(index, 0), count - 1)
}

/// How far the detail view can scroll before its last line reaches the bottom.
private func maxDetailScroll(_ state: TUIState) -> Int {
    guard let entry = state.detailEntry else { return 0 }
    let layout = ScreenLayout(size: state.size)
    if let document = DetailDocument.phone(of: entry, state: state, width: layout.detailTextWidth) {
        return max(0, document.rows.count - layout.detailTextHeight)
    }
    let lines = DetailContent(entry: entry, configuredLimits: state.configuredLimits, timeOfDay: state.startTimeOfDay)
        .lines(width: layout.detailTextWidth)
    return max(0, ImageLayout.detailRows(of: entry, state: state) + lines.count - layout.detailTextHeight)
}
