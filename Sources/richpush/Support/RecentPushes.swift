import Foundation
import RichPushCore
import RichPushServe
import RichPushTUI
import Synchronization

/// The notification center's keeper of the pushes it received: the newest ``capacity`` as they arrived (body and
/// request), so `w` can write one as a payload file later, and each handed on to the `--record` recorder when
/// there is one.
final class RecentPushes: PushRecording {
    static let capacity = 500
    let recorder: PushRecorder?
    private let pushes = Mutex<(byID: [String: RecordedPush], order: [String])>(([:], []))

    init(recorder: PushRecorder?) { self.recorder = recorder }

    func record(_ push: RecordedPush) {
        pushes.withLock { kept in
            if kept.byID.updateValue(push, forKey: push.id) == nil { kept.order.append(push.id) }
            if kept.order.count > Self.capacity { kept.byID[kept.order.removeFirst()] = nil }
        }
        recorder?.record(push)
    }

    func push(id: String) -> RecordedPush? { pushes.withLock { $0.byID[id] } }
}

/// The recorder's notes in the notification center: to its status line once the endpoint's feed exists, kept
/// until then (a note on standard error would be drawn over).
final class RecorderNotes: Sendable {
    private let state = Mutex<(feed: NetworkFeed?, waiting: [String])>((nil, []))

    var feed: NetworkFeed? {
        get { state.withLock { $0.feed } }
        set {
            let waiting = state.withLock { state in
                state.feed = newValue
                defer { state.waiting = [] }
                return state.waiting
            }
            for note in waiting { newValue?.note(note) }
        }
    }

    func say(_ note: String) {
        let feed = state.withLock { state -> NetworkFeed? in
            if state.feed == nil { state.waiting.append(note) }
            return state.feed
        }
        feed?.note(note)
    }
}
