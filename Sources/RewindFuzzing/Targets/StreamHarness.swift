import Navigation
import RewindCore
import RewindJournal
import RewindStream

/// Reads arbitrary bytes as a session on a NATS server: the values and messages a
/// reader of `nats://HOST:PORT/SESSION-ID` takes from the server, as a `StoredSession`.
///
/// The input is a list of sections, each a 4-byte little-endian length and that many
/// bytes (the last section takes what is left when its length runs past the end): the
/// session's summary, its header message, its index (cut into chunks of
/// `StreamLayout.indexChunkSize` entries, as the index bucket holds it), then its frame
/// messages in stream order. A summary and an index that decode must encode to the same
/// bytes; then the session is opened as the reading commands open it, every frame
/// fetched, decompressed and walked, and a session of the navigation domain replayed as
/// ``JournalHarness`` replays a file.
enum StreamHarness {
  static let name = "nats://fuzzed/session"

  static func run(_ bytes: [UInt8]) throws(FuzzFailure) {
    let session = session(from: bytes)
    if let summary = try? session.decodedSummary() {
      let again = try? SessionSummary.decode(summary.encoded())
      guard again == summary else {
        throw FuzzFailure("a summary does not read back as itself: \(summary)")
      }
    }
    for chunk in session.indexChunks {
      guard let frames = try? StreamFrame.decode(chunk) else { continue }
      guard StreamFrame.encode(frames[...]) == chunk else {
        throw FuzzFailure("an index chunk of \(frames.count) frames does not encode as read")
      }
    }
    guard let reader = try? session.reader(name: name) else { return }
    JournalHarness.describe(reader.condition)
    JournalHarness.readFrames(reader)
    guard reader.header.domain == NavigationDomain.identifier,
      let timeline = try? Timeline<NavigationDomain>(reader: reader)
    else { return }
    JournalHarness.replay(timeline, salvage: false)
  }

  /// The sections of an input.
  static func session(from bytes: [UInt8]) -> StoredSession {
    var sections: [[UInt8]] = []
    var at = 0
    while at < bytes.count {
      var length = 0
      for shift in 0..<4 where at + shift < bytes.count {
        length |= Int(bytes[at + shift]) << (8 * shift)
      }
      at = min(at + 4, bytes.count)
      let end = at + min(length, bytes.count - at)
      sections.append(Array(bytes[at..<end]))
      at = end
    }
    let section = { (index: Int) in index < sections.count ? sections[index] : [] }
    let index = section(2)
    let chunkSize = StreamLayout.indexChunkSize * 48
    let chunks = stride(from: 0, to: index.count, by: chunkSize).map {
      Array(index[$0..<min($0 + chunkSize, index.count)])
    }
    return StoredSession(
      summary: section(0), indexChunks: chunks, header: section(1),
      frames: Array(sections.dropFirst(3)))
  }

  /// The input that holds `session`: ``session(from:)`` reads it back.
  static func input(_ session: StoredSession) -> [UInt8] {
    var bytes: [UInt8] = []
    for section in [session.summary, session.header, session.indexChunks.flatMap { $0 }]
      + session.frames
    {
      let length = UInt32(section.count)
      bytes += (0..<4).map { UInt8(truncatingIfNeeded: length >> (8 * $0)) }
      bytes += section
    }
    return bytes
  }

  /// The sample sessions as a server holds them after a push: every built-in journal
  /// that opens without salvaging.
  static func seeds() -> [[UInt8]] {
    SampleSession.journals().compactMap { bytes in
      var options = JournalReader.Options()
      options.system = .memory(bytes, at: JournalHarness.path)
      guard let reader = try? JournalReader(path: JournalHarness.path, options: options),
        let session = try? StoredSession(journal: reader)
      else { return nil }
      return input(session)
    }
  }
}
