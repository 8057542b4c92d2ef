import Foundation
import SQLite3
import Testing

/// Apple's SQLite3 module as extensions use it (a cache of what a notification brought, in the App Group), over the
/// system's libsqlite3: the C API with its own names, and the `SQLITE_TRANSIENT` idiom Swift code writes.
@Suite("SQLite3: the SQLite C API under Apple's module name")
struct SQLite3Tests {
    /// What extensions write, as the C macro does not come through to Swift.
    let SQLITE_TRANSIENT = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    @Test("open a file, create, insert with bound text, select it back, close")
    func roundTrip() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("sqlite3-\(UUID().uuidString).db").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        var db: OpaquePointer?
        #expect(sqlite3_open(path, &db) == SQLITE_OK)
        defer { sqlite3_close(db) }
        #expect(
            sqlite3_exec(db, "CREATE TABLE images (url TEXT PRIMARY KEY, bytes INTEGER)", nil, nil, nil) == SQLITE_OK)

        var insert: OpaquePointer?
        #expect(sqlite3_prepare_v2(db, "INSERT INTO images VALUES (?, ?)", -1, &insert, nil) == SQLITE_OK)
        #expect(sqlite3_bind_text(insert, 1, "https://cdn.example/cat.png", -1, SQLITE_TRANSIENT) == SQLITE_OK)
        #expect(sqlite3_bind_int64(insert, 2, 4096) == SQLITE_OK)
        #expect(sqlite3_step(insert) == SQLITE_DONE)
        sqlite3_finalize(insert)

        var select: OpaquePointer?
        #expect(sqlite3_prepare_v2(db, "SELECT url, bytes FROM images", -1, &select, nil) == SQLITE_OK)
        defer { sqlite3_finalize(select) }
        #expect(sqlite3_step(select) == SQLITE_ROW)
        #expect(String(cString: sqlite3_column_text(select, 0)) == "https://cdn.example/cat.png")
        #expect(sqlite3_column_int64(select, 1) == 4096)
        #expect(sqlite3_step(select) == SQLITE_DONE)
        // An error reads as on iOS.
        #expect(sqlite3_exec(db, "SELECT * FROM missing", nil, nil, nil) == SQLITE_ERROR)
        #expect(String(cString: sqlite3_errmsg(db)) == "no such table: missing")
    }
}
