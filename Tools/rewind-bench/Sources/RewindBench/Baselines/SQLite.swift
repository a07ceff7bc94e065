import CSQLite

/// An open SQLite database (`sqlite3_open_v2`), closed when released.
final class SQLiteDatabase {
  let handle: OpaquePointer
  let path: String

  init(path: String) throws(BenchError) {
    var handle: OpaquePointer?
    let code = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil)
    guard code == SQLITE_OK, let handle else {
      if let handle { sqlite3_close_v2(handle) }
      throw BenchError("cannot open \(path): \(String(cString: sqlite3_errstr(code)))")
    }
    self.handle = handle
    self.path = path
  }

  deinit { sqlite3_close_v2(handle) }

  /// Runs SQL without results (`sqlite3_exec`).
  func execute(_ sql: String) throws(BenchError) {
    try check(sqlite3_exec(handle, sql, nil, nil, nil), sql)
  }

  func prepare(_ sql: String) throws(BenchError) -> SQLiteStatement {
    var statement: OpaquePointer?
    try check(sqlite3_prepare_v2(handle, sql, -1, &statement, nil), sql)
    return SQLiteStatement(statement!, database: self)
  }

  func check(_ code: Int32, _ what: String) throws(BenchError) {
    guard code == SQLITE_OK || code == SQLITE_DONE || code == SQLITE_ROW else {
      throw BenchError("SQLite failed on \(what): \(String(cString: sqlite3_errmsg(handle)))")
    }
  }

  /// The version of the system SQLite (`sqlite3_libversion`).
  static var version: String { String(cString: sqlite3_libversion()) }
}

/// A prepared statement (`sqlite3_stmt`), finalized when released.
final class SQLiteStatement {
  let handle: OpaquePointer
  let database: SQLiteDatabase

  init(_ handle: OpaquePointer, database: SQLiteDatabase) {
    self.handle = handle
    self.database = database
  }

  deinit { sqlite3_finalize(handle) }

  func bind(_ index: Int32, _ value: Int64) throws(BenchError) {
    try database.check(sqlite3_bind_int64(handle, index, value), "binding")
  }

  /// Binds text the statement reads during the next `step()` only (`SQLITE_STATIC`).
  func bind(_ index: Int32, text: UnsafeRawBufferPointer) throws(BenchError) {
    try database.check(
      sqlite3_bind_text(
        handle, index, text.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(text.count),
        nil),
      "binding")
  }

  /// Runs the statement one step: true while it gives rows.
  func step() throws(BenchError) -> Bool {
    let code = sqlite3_step(handle)
    try database.check(code, "stepping")
    return code == SQLITE_ROW
  }

  func reset() throws(BenchError) {
    try database.check(sqlite3_reset(handle), "resetting")
  }

  func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

  /// The bytes of a text column, valid until the next step.
  func text(_ column: Int32) -> UnsafeRawBufferPointer {
    let bytes = sqlite3_column_text(handle, column)
    let count = Int(sqlite3_column_bytes(handle, column))
    return UnsafeRawBufferPointer(start: bytes, count: count)
  }
}
