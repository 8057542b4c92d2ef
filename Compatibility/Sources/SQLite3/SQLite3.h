// Apple's SQLite3 module: the SQLite C API of iOS's libsqlite3 (the SDK's usr/include/sqlite3.h, which has a module
// map there; the API is SQLite's own, https://www.sqlite.org/c3ref/intro.html). Here the system's libsqlite3 (Debian's
// libsqlite3-dev), under the module name an extension imports: the same functions and constants, so `sqlite3_open`,
// `sqlite3_prepare_v2`, `sqlite3_bind_text(…, unsafeBitCast(-1, to: sqlite3_destructor_type.self))` and `SQLITE_OK`
// read as on iOS. A team's extension sees this module through the map richpush writes beside its build
// (ExtensionBuilder.clangModuleMap), which names this module and header the same way.
#include <sqlite3.h>
