/// How a ``JournalWriter`` compresses and how hard it works to make data durable.
public struct JournalWriterOptions: Sendable {
  /// When the writer calls `fsync`.
  public enum Durability: String, Sendable, CaseIterable {
    /// After every sealed frame, and on ``JournalWriter/flush()`` and close (the default):
    /// a crash loses at most the frame being filled.
    case sealedFrames
    /// Only on ``JournalWriter/flush()`` and close: faster bulk writing, a crash may lose
    /// everything since the last flush.
    case flushOnly
    /// Never: for scratch files and benchmarks. A crash may lose anything.
    case none
  }

  /// The zstd compression level (1–19; 3 is zstd's default).
  public var compressionLevel: Int32
  /// A frame is sealed once its uncompressed records reach this many bytes.
  public var frameSize: Int
  public var durability: Durability
  /// The system calls used; tests replace them to inject failures.
  package var system: FileSystemCalls
  /// The format a new journal is written in: this version's, or for the tests of older
  /// journals 1.2, whose frames hold their records as rows. A journal appended to keeps
  /// its own.
  package var formatVersion = JournalFormat.version

  /// The smallest and largest accepted ``frameSize``.
  public static let frameSizeRange = 1024...(4 << 20)

  public init(
    compressionLevel: Int32 = 3, frameSize: Int = 64 << 10,
    durability: Durability = .sealedFrames
  ) {
    self.compressionLevel = compressionLevel
    self.frameSize = frameSize
    self.durability = durability
    self.system = .live
  }

  func validate() throws(JournalError) {
    guard JournalWriterOptions.frameSizeRange.contains(frameSize) else {
      throw JournalError(
        .invalidArgument,
        "frame size \(frameSize) is outside \(JournalWriterOptions.frameSizeRange.lowerBound)…\(JournalWriterOptions.frameSizeRange.upperBound) bytes"
      )
    }
    guard
      formatVersion == JournalFormat.version || formatVersion == FormatVersion(major: 1, minor: 2)
    else {
      throw JournalError(
        .invalidArgument, "journals are written in format \(JournalFormat.version) or 1.2")
    }
    guard (1...19).contains(compressionLevel) else {
      throw JournalError(
        .invalidArgument, "compression level \(compressionLevel) is outside 1…19")
    }
  }
}
