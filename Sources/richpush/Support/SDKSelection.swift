import RichPushCore
import Synchronization

/// The SDK the person picked in the notification center (`p`), read by each delivery from the library; nil
/// until they pick one, so the command line's `--sdk` applies.
final class SDKSelection: Sendable {
    private let picked = Mutex<SDKProfile?>(nil)

    var current: SDKProfile? {
        get { picked.withLock { $0 } }
        set { picked.withLock { $0 = newValue } }
    }
}
