/// What the push server hands each push it answered to, when it records: ``PushRecorder`` (`--record DIR`), or a
/// front end's own keeper (the notification center keeps recent pushes for its `w` key). Must return at once: it
/// is called on the paths that answer and deliver pushes.
public protocol PushRecording: Sendable {
    func record(_ push: RecordedPush)
}

extension PushRecorder: PushRecording {}
