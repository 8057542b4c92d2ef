// Apple's OSLog framework: `os`'s logging (`Logger`, `OSLog`, `os_log`) re-exported. Reading the log store
// (`OSLogStore`, `OSLogEntry`) is not provided.
@_exported import os
