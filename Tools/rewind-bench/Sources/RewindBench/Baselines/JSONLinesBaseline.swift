import Foundation
import Navigation
import RewindCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The JSON Lines baseline: what most apps would write. Each event is encoded with
/// Foundation's `JSONEncoder` (one line each) and the lines are compressed with zstd
/// level 3 as one stream; reading decompresses the stream, decodes each line with
/// `JSONDecoder` and folds the events with the same reducer.
enum JSONLinesBaseline {
  /// Lines are handed to zstd in chunks of this many bytes (a buffered file write).
  static let chunkSize = 64 << 10

  /// Reduces and writes every event of `workload` to `path`.
  /// - Returns: the seconds taken.
  static func write(_ workload: Workload, to path: String) throws -> Double {
    try FileSystem.remove(path)
    let start = MonotonicClock.now()
    try writeLines(workload, to: path)
    return Double(MonotonicClock.now() - start) / 1e9
  }

  private static func writeLines(_ workload: Workload, to path: String) throws {
    let domain = workload.domain
    let writer = try ZstdFileWriter(path: path, level: 3)
    let encoder = JSONEncoder()
    var state = domain.initialState
    var buffer: [UInt8] = []
    buffer.reserveCapacity(chunkSize + 512)
    var sequence: UInt64 = 0
    for timed in workload.events {
      sequence += 1
      _ = domain.reduce(&state, timed.event)
      let line = try encoder.encode(
        JSONEvent(sequence: sequence, time: timed.time, event: timed.event, domain: domain))
      buffer.append(contentsOf: line)
      buffer.append(0x0A)
      if buffer.count >= chunkSize {
        try writer.write(buffer)
        buffer.removeAll(keepingCapacity: true)
      }
    }
    try writer.write(buffer)
    try writer.finish()
    blackHole(state)
  }

  /// Folds the events of `path` from the first through event `last` (all by default),
  /// streaming.
  /// - Returns: the state and the number of events folded.
  static func replay(_ path: String, domain: NavigationDomain, through last: UInt64 = .max)
    throws -> (state: NavigationState, count: Int)
  {
    let reader = try ZstdFileReader(path: path)
    let decoder = JSONDecoder()
    var state = domain.initialState
    var count = 0
    var partial: [UInt8] = []
    do {
      try reader.forEachChunk { chunk in
        guard let base = chunk.baseAddress else { return }
        var start = 0
        while start < chunk.count {
          guard let newline = memchr(base + start, 0x0A, chunk.count - start) else {
            partial.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[start...]))
            return
          }
          let end = base.distance(to: UnsafeRawPointer(newline))
          let line: Data
          if partial.isEmpty {
            line = Data(bytes: base + start, count: end - start)
          } else {
            partial.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[start..<end]))
            line = Data(partial)
            partial.removeAll(keepingCapacity: true)
          }
          let json = try decoder.decode(JSONEvent.self, from: line)
          _ = domain.reduce(&state, try json.navigationEvent(domain))
          count += 1
          if json.seq >= last { throw StopReading() }
          start = end + 1
        }
      }
    } catch is StopReading {}
    return (state, count)
  }
}

/// Thrown to stop reading a stream early.
struct StopReading: Error {}
