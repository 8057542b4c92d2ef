import Foundation
import RichPushTestSupport

/// Whether this process can read a folder whose permissions are 000: root can, so tests that lock a folder
/// run the check through `runuser -u nobody` or are skipped.
var runsAsRoot: Bool { getuid() == 0 }
