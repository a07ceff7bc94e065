package import Navigation
package import RewindCore
import RewindJournal

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A small recorded session of the navigation domain: 400 events of the simulated user
/// (seed 7) over a few minutes, in frames of 1 KiB, a snapshot every 16 events, closed.
///
/// The ``FuzzTarget/condition`` and ``FuzzTarget/point`` targets search and resolve
/// against it; it and its damaged variants (``journals``) seed the journal targets.
/// Recorded once per process in a temporary directory, then kept in memory.
package enum SampleSession {
  static let path = "sample.journal"
  /// 2026-11-30T09:15:00Z.
  static let startTime: Int64 = 1_796_030_100_000_000
  static let eventCount = 400

  /// The journal's bytes, and those of a copy whose second frame was damaged and
  /// salvaged away (`rewind recover --salvage`: a lost-range marker in its place).
  static let recorded: (closed: [UInt8], salvaged: [UInt8]) = record()

  /// The session, opened from memory.
  package static func timeline() -> Timeline<NavigationDomain> {
    var options = JournalReader.Options()
    options.system = .memory(recorded.closed, at: path)
    do {
      return try Timeline(reader: JournalReader(path: path, options: options))
    } catch {
      preconditionFailure("the sample session does not open: \(error)")
    }
  }

  /// The session as journals in every condition a reader meets: closed; not closed (its
  /// writer killed after a frame: no index); with a torn tail (killed in the middle of
  /// a frame); with a damaged header (read from its copy); salvaged (a lost range).
  package static func journals() -> [[UInt8]] {
    let closed = recorded.closed
    let frames = timeline().reader.frames
    let end = Int(frames[frames.count - 1].endOffset)
    let last = frames[frames.count - 1]
    var damagedHeader = closed
    damagedHeader[20] ^= 0xFF
    return [
      closed, Array(closed[..<end]),
      Array(closed[..<(Int(last.dataOffset) + Int(last.compressedSize) / 2)]), damagedHeader,
      recorded.salvaged,
    ]
  }

  private static func record() -> (closed: [UInt8], salvaged: [UInt8]) {
    var template = Array("\(temporaryDirectory())/rewind-fuzz-XXXXXX".utf8CString)
    guard let directory = mkdtemp(&template).map({ String(cString: $0) }) else {
      preconditionFailure(
        "cannot create a temporary directory: \(String(cString: strerror(errno)))")
    }
    let file = directory + "/" + path
    let damaged = directory + "/damaged.journal"
    let salvaged = directory + "/salvaged.journal"
    defer {
      for name in [file, damaged, damaged + ".damaged", salvaged] { unlink(name) }
      rmdir(directory)
    }
    do {
      let domain = NavigationDomain.sample
      let recorder = try JournalRecorder.create(
        at: file, domain: domain,
        session: SessionInfo(
          id: SessionID(randomBytes: Array(repeating: 7, count: 16)), startTime: startTime,
          device: "rewind fuzz sample"),
        options: RecordingOptions(
          snapshotInterval: 16,
          journal: JournalWriterOptions(frameSize: 1024, durability: .none)))
      var user = domain.simulatedUser(seed: 7)
      for _ in 0..<eventCount {
        guard let timed = user.next() else { break }
        _ = try recorder.record(timed.event, at: timed.time)
      }
      try recorder.close()
      let closed = try readFile(file)
      var options = JournalReader.Options()
      options.system = .memory(closed, at: path)
      let second = try JournalReader(path: path, options: options).frames[1]
      var broken = closed
      broken[Int(second.dataOffset) + Int(second.compressedSize) / 2] ^= 0xFF
      try writeFile(damaged, broken)
      _ = try Journal.recover(path: damaged, output: salvaged, salvage: true)
      return (closed, try readFile(salvaged))
    } catch {
      preconditionFailure("cannot record the sample session in \(directory): \(error)")
    }
  }

  private static func temporaryDirectory() -> String {
    guard let value = getenv("TMPDIR"), value.pointee != 0 else { return "/tmp" }
    return String(cString: value)
  }

  private static func readFile(_ file: String) throws(JournalError) -> [UInt8] {
    let descriptor = open(file, O_RDONLY)
    guard descriptor >= 0 else { throw JournalError(.io, "cannot open", path: file) }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 64 << 10)
    while true {
      let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      guard count > 0 else {
        if count < 0 { throw JournalError(.io, "cannot read", path: file) }
        return bytes
      }
      bytes += chunk[0..<count]
    }
  }

  private static func writeFile(_ file: String, _ bytes: [UInt8]) throws(JournalError) {
    let descriptor = open(file, O_WRONLY | O_CREAT | O_EXCL, 0o644)
    guard descriptor >= 0 else { throw JournalError(.io, "cannot create", path: file) }
    defer { close(descriptor) }
    let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    guard written == bytes.count else { throw JournalError(.io, "cannot write", path: file) }
  }
}
