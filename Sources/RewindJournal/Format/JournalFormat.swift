/// The constants of the on-disk format, as `FORMAT.md` specifies them.
enum JournalFormat {
  /// The magic number of every Rewind metadata frame: a zstd skippable frame
  /// (0x184D2A50–0x184D2A5F), which stock zstd tools skip.
  static let metadataMagic: UInt32 = 0x184D_2A5B
  /// The first magic and the mask of all skippable frames, Rewind's or anyone's.
  static let skippableMagicBase: UInt32 = 0x184D_2A50
  static let skippableMagicMask: UInt32 = 0xFFFF_FFF0
  /// The magic number of a zstd data frame.
  static let zstdMagic: UInt32 = 0xFD2F_B528

  /// The format version this build writes. 1.1 added the copies of the header (a
  /// `RWHC` frame after it and a field of the index); 1.2 the header's parent session;
  /// 2.0 the records of a data frame as two columns (`RecordColumns`), which a reader of
  /// 1.x would misread. This build reads every version from 1.0.
  static let version = FormatVersion(major: 2, minor: 0)
  /// The oldest major version this build reads.
  static let oldestMajor: UInt16 = 1

  /// Whether this build reads journals of major version `major`.
  static func reads(major: UInt16) -> Bool { (oldestMajor...version.major).contains(major) }

  /// The four-byte tags at the start of each metadata frame's payload.
  enum Tag: UInt32 {
    /// "RWJH": the journal header, the first frame of every journal.
    case header = 0x484A_5752
    /// "RWHC": a copy of the journal header's body, the frame after the header (1.1).
    case headerCopy = 0x4348_5752
    /// "RWFH": a frame header, immediately before its zstd data frame.
    case frame = 0x4846_5752
    /// "RWIX": the index of all frames, written on close.
    case index = 0x5849_5752
    /// "RWTR": the fixed-size trailer after the index, the last frame of a closed journal.
    case trailer = 0x5254_5752
    /// "RWLG": a range of events lost to damage and dropped by salvage.
    case lostRange = 0x474C_5752
  }

  /// The bytes before a metadata frame's payload: magic and payload size.
  static let framePrefixSize = 8
  /// The size of the whole trailer frame.
  static let trailerSize = 36
}

/// A journal format version. Readers accept any minor version of a major version they
/// know (minor versions only append fields, which older readers skip); a newer major
/// version is refused.
public struct FormatVersion: Sendable, Equatable, Comparable, CustomStringConvertible {
  public var major: UInt16
  public var minor: UInt16

  public init(major: UInt16, minor: UInt16) {
    self.major = major
    self.minor = minor
  }

  public static func < (lhs: FormatVersion, rhs: FormatVersion) -> Bool {
    (lhs.major, lhs.minor) < (rhs.major, rhs.minor)
  }

  public var description: String { "\(major).\(minor)" }

  /// Whether a journal of this version holds a data frame's records as columns (2.0 on;
  /// `RecordColumns`), not as rows.
  var holdsColumns: Bool { major >= 2 }
}

/// The bounds every declared length and count is checked against before anything is
/// allocated, so that a damaged or hostile file costs bounded memory (at most a few tens
/// of MiB) and ends in an error.
public enum JournalLimits {
  /// The largest record payload. (A computed constant, so that the inlined append path
  /// compares with a literal instead of calling a global's accessor.)
  @inlinable public static var maximumPayloadSize: Int { 1 << 20 }
  /// The largest uncompressed data frame.
  public static let maximumFrameSize = 8 << 20
  /// The largest compressed data frame (above zstd's bound for the largest frame).
  public static let maximumCompressedFrameSize = 9 << 20
  /// The largest metadata frame payload (a frame header with its snapshots, the index).
  public static let maximumMetadataSize = 32 << 20
  /// The largest snapshot state.
  public static let maximumSnapshotSize = 4 << 20
  /// The largest domain settings blob in the header.
  public static let maximumSettingsSize = 8 << 20
  /// The longest domain identifier and device description, in bytes.
  public static let maximumDomainLength = 255
  public static let maximumDeviceLength = 4096
  /// The longest path of a parent journal in a header, in bytes.
  public static let maximumParentPathLength = 4096
  /// The largest zstd window a reader accepts (2^23 = 8 MiB, the largest frame).
  public static let windowLogMax = 23
  /// The largest sequence number and the largest time (2^63 − 1): every sequence
  /// number and time in a journal fits a signed 64-bit integer, so that adding one to
  /// either never overflows and both convert to JSON integers.
  public static let maximumSequence = UInt64(Int64.max)
  public static let maximumTime = UInt64(Int64.max)
  /// The largest snapshot interval.
  public static let maximumSnapshotInterval: UInt32 = 1 << 30
}
