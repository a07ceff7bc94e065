import Foundation
import JournalFixtures
import RewindJournal

/// A fresh directory under the system's temporary directory, removed when released.
final class TemporaryDirectory {
  let path: String

  init() {
    path = NSTemporaryDirectory() + "rewind-tests-" + UUID().uuidString
    try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(atPath: path) }

  func file(_ name: String) -> String { path + "/" + name }
}

/// Writes a closed journal of `count` events.
func makeJournal(
  at path: String, count: UInt64, interval: UInt32 = 100, frameSize: Int = 1024, close: Bool = true
) throws {
  let writer = try JournalWriter.create(
    at: path, header: header(interval: interval),
    options: JournalWriterOptions(frameSize: frameSize, durability: .none))
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

/// The path of an executable found in `PATH`, or nil.
func executable(named name: String) -> String? {
  let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
  return path.split(separator: ":").map { "\($0)/\(name)" }.first {
    FileManager.default.isExecutableFile(atPath: $0)
  }
}

/// The stock `zstd` command-line tool, which `Tools/test` installs.
let zstdTool = executable(named: "zstd")

/// Runs `zstd -t` on a file; true when zstd accepts it.
func zstdAccepts(_ path: String) throws -> Bool {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: zstdTool!)
  process.arguments = ["-q", "-t", path]
  process.standardOutput = FileHandle.nullDevice
  process.standardError = FileHandle.nullDevice
  try process.run()
  process.waitUntilExit()
  return process.terminationStatus == 0
}

/// The directory holding the built products (the test bundle and the executables).
let productsDirectory: String = {
  let executable =
    (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
    ?? CommandLine.arguments[0]
  var url = URL(fileURLWithPath: executable).deletingLastPathComponent()
  // On macOS the test bundle's executable sits inside Contents/MacOS of the .xctest bundle.
  while url.pathExtension == "xctest" || url.lastPathComponent == "MacOS"
    || url.lastPathComponent == "Contents"
  {
    url.deleteLastPathComponent()
  }
  return url.path
}()

/// A copy of a file's bytes.
func bytes(of path: String) -> [UInt8] {
  [UInt8](FileManager.default.contents(atPath: path) ?? Data())
}

/// Writes bytes to a file, replacing it.
func write(_ bytes: [UInt8], to path: String) {
  precondition(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
}
