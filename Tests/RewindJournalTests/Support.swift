import Foundation
import JournalFixtures
import RewindJournal
import TestSupport

/// Writes a closed journal of `count` events, in this version's format or in `format`
/// (1.2: records as rows).
func makeJournal(
  at path: String, count: UInt64, interval: UInt32 = 100, frameSize: Int = 1024, close: Bool = true,
  format: FormatVersion? = nil
) throws {
  var options = JournalWriterOptions(frameSize: frameSize, durability: .none)
  if let format { options.formatVersion = format }
  let writer = try JournalWriter.create(
    at: path, header: header(interval: interval), options: options)
  if count > 0 { try appendEvents(writer, 1...count) }
  if close { try writer.close() } else { try writer.flush() }
}

/// Every record of a journal, copied out.
func readAll(_ reader: JournalReader, from sequence: UInt64 = 1) throws -> [(
  UInt64, UInt64, [UInt8]
)] {
  var iterator = reader.records(from: sequence)
  var records: [(UInt64, UInt64, [UInt8])] = []
  while let record = try iterator.next() {
    records.append((record.sequence, record.time, Array(record.payload)))
  }
  return records
}

/// Checks that `records` are exactly events `range` as the tests write them.
func isExpected(_ records: [(UInt64, UInt64, [UInt8])], _ range: ClosedRange<UInt64>) -> Bool {
  guard records.count == range.count else { return false }
  return zip(records, range).allSatisfy { record, sequence in
    record.0 == sequence && record.1 == time(for: sequence) && record.2 == payload(for: sequence)
  }
}

/// The stock `zstd` command-line tool, which `Tools/test` installs.
let zstdTool = executable(named: "zstd")

/// Runs `zstd -t` on a file; true when zstd accepts it.
func zstdAccepts(_ path: String) throws -> Bool {
  try run(zstdTool!, ["-q", "-t", path]).status == 0
}

/// The names in a directory, sorted: to check that nothing was left behind.
func contents(of directory: TemporaryDirectory) -> [String] {
  ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
}
