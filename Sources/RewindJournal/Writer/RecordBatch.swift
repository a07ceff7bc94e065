/// Records packed in one buffer for ``JournalWriter/append(_:)``: the bulk path, which
/// costs no allocation per record once the batch has grown to its working size. (Used by
/// the tests; the recorder appends through ``JournalWriter/append(time:encoding:lead:)``.)
package struct RecordBatch: Sendable {
  private var bytes = ByteWriter(capacity: 4096)
  /// The number of records in the batch.
  package private(set) var count = 0

  package init() {}

  /// Adds a record.
  package mutating func append(time: UInt64, payload: UnsafeRawBufferPointer) {
    bytes.writeVarint(time)
    bytes.writeVarint(UInt64(payload.count))
    bytes.write(contentsOf: payload)
    count += 1
  }

  /// Adds a record whose payload is an array.
  package mutating func append(time: UInt64, payload: [UInt8]) {
    payload.withUnsafeBytes { append(time: time, payload: $0) }
  }

  /// Empties the batch, keeping its storage.
  package mutating func removeAll() {
    bytes.removeAll()
    count = 0
  }

  /// Calls `body` with each record in order.
  func forEachRecord<E: Error>(_ body: (UInt64, UnsafeRawBufferPointer) throws(E) -> Void) throws(E)
  {
    try bytes.bytes.withBytes { buffer throws(E) in
      var reader = ByteReader(buffer)
      while !reader.isAtEnd {
        // The batch wrote these bytes itself, so they always decode.
        let time = try! reader.readVarint()
        let length = try! reader.readVarint()
        let payload = try! reader.readBytes(Int(length))
        try body(time, payload)
      }
    }
  }
}
