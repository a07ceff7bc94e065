import Foundation
import Navigation
import RewindCore

/// The SQLite baseline: one row per event (seq, time, type, payload as JSON from
/// `JSONEncoder`) inserted in one transaction through the system SQLite with its default
/// settings, read back in order and folded with the same reducer; time travel replays from
/// the start.
enum SQLiteBaseline {
  /// Reduces and inserts every event of `workload` into a new database at `path`.
  /// - Returns: the seconds taken.
  static func write(_ workload: Workload, to path: String) throws -> Double {
    for suffix in ["", "-journal", "-wal"] { try FileSystem.remove(path + suffix) }
    let domain = workload.domain
    return try MonotonicClock.seconds {
      let database = try SQLiteDatabase(path: path)
      try database.execute(
        "CREATE TABLE events (seq INTEGER PRIMARY KEY, time INTEGER NOT NULL, type TEXT NOT NULL, payload TEXT NOT NULL)"
      )
      try database.execute("BEGIN")
      let insert = try database.prepare("INSERT INTO events VALUES (?1, ?2, ?3, ?4)")
      let encoder = JSONEncoder()
      var state = domain.initialState
      for (index, timed) in workload.events.enumerated() {
        _ = domain.reduce(&state, timed.event)
        let payload = try encoder.encode(JSONEventPayload(timed.event, domain: domain))
        try insert.bind(1, Int64(index + 1))
        try insert.bind(2, Int64(bitPattern: timed.time))
        var kind = timed.event.kind.rawValue
        try kind.withUTF8 { type in
          try insert.bind(3, text: UnsafeRawBufferPointer(type))
          try payload.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            try insert.bind(4, text: bytes)
            _ = try insert.step()
          }
        }
        try insert.reset()
      }
      try database.execute("COMMIT")
      blackHole(state)
    }
  }

  /// Folds the events of the database in sequence order, through event `last` (all by
  /// default).
  static func replay(_ path: String, domain: NavigationDomain, through last: UInt64 = .max)
    throws -> (state: NavigationState, count: Int)
  {
    let database = try SQLiteDatabase(path: path)
    let select = try database.prepare(
      "SELECT seq, time, type, payload FROM events WHERE seq <= ?1 ORDER BY seq")
    try select.bind(1, Int64(clamping: last))
    let decoder = JSONDecoder()
    var state = domain.initialState
    var count = 0
    while try select.step() {
      let type = String(decoding: select.text(2), as: UTF8.self)
      let payload = try decoder.decode(JSONEventPayload.self, from: Data(select.text(3)))
      _ = domain.reduce(&state, try payload.navigationEvent(kind: type, domain: domain))
      count += 1
    }
    return (state, count)
  }
}
