/// A failure of the journal: what went wrong, where, and the underlying cause.
///
/// Every error a user can meet names the file and, where it applies, the frame, the
/// sequence range and the byte offset, and says what to do about it. Raw C return codes
/// never leave this module: they become the ``Cause`` of a `JournalError`.
public struct JournalError: Error, Sendable, CustomStringConvertible {
  /// The kind of failure, for programs that react to it.
  public enum Code: String, Sendable {
    /// The file does not exist.
    case notFound
    /// A new file was to be created where a file already exists.
    case alreadyExists
    /// A command's output is one of its inputs (the same device and inode, whatever the
    /// names): writing it would destroy the input. A usage error in a command.
    case outputIsInput
    /// The file exists but does not start with a Rewind journal header.
    case notAJournal
    /// The journal was written by a newer, incompatible format version.
    case unsupportedVersion
    /// The journal belongs to another domain or schema than the caller expected.
    case wrongDomain
    /// Another process (or another writer in this one) holds the journal's write lock.
    case locked
    /// A system call failed (open, read, write, fsync, …).
    case io
    /// The journal header is damaged.
    case corruptHeader
    /// A data frame or its metadata is damaged.
    case corruptFrame
    /// The journal ends in an incomplete frame (a crash while writing); `recover` cuts it.
    case tornTail
    /// A sequence number or point lies outside the journal.
    case outOfRange
    /// The caller broke a rule of the API with runtime data (time going backwards,
    /// a payload too large, a snapshot for the wrong sequence number).
    case invalidArgument
    /// A declared size is beyond the format's limits.
    case tooLarge
    /// The writer was closed, or an earlier write failure left it unusable.
    case closed
    /// A zstd call failed.
    case compression
  }

  /// The underlying cause, when there is one.
  public enum Cause: Sendable, Equatable, CustomStringConvertible {
    /// A system call failed with this errno.
    case errno(Int32, name: String)
    /// A zstd call failed with this error name.
    case zstd(String)
    /// Bytes failed to decode.
    case codec(CodecError)

    public var description: String {
      switch self {
      case .errno(let number, let name): "\(name) (errno \(number))"
      case .zstd(let name): "zstd: \(name)"
      case .codec(let error): error.description
      }
    }
  }

  public var code: Code
  /// What went wrong, as a sentence; the location is added by ``description``.
  public var message: String
  /// The journal's path, when known.
  public var path: String?
  /// The frame number (0-based), when the problem is in one frame.
  public var frame: Int?
  /// The sequence numbers concerned, when known.
  public var sequenceRange: ClosedRange<UInt64>?
  /// The byte offset in the file, when known.
  public var byteOffset: UInt64?
  public var cause: Cause?

  package init(
    _ code: Code, _ message: String, path: String? = nil, frame: Int? = nil,
    sequenceRange: ClosedRange<UInt64>? = nil, byteOffset: UInt64? = nil, cause: Cause? = nil
  ) {
    self.code = code
    self.message = message
    self.path = path
    self.frame = frame
    self.sequenceRange = sequenceRange
    self.byteOffset = byteOffset
    self.cause = cause
  }

  /// The same error with the file's path filled in, if it had none.
  func at(path: String) -> JournalError {
    var copy = self
    if copy.path == nil { copy.path = path }
    return copy
  }

  /// `path: frame 12 (events 49153–53248) at byte 1234: message (cause)`.
  public var description: String {
    var location: [String] = []
    if let frame {
      var text = "frame \(frame)"
      if let sequenceRange { text += " (\(JournalError.describe(sequenceRange)))" }
      location.append(text)
    } else if let sequenceRange {
      location.append(JournalError.describe(sequenceRange))
    }
    if let byteOffset { location.append("at byte \(byteOffset)") }
    var text = path.flatMap { $0.isEmpty ? nil : "\($0): " } ?? ""
    if !location.isEmpty { text += location.joined(separator: " ") + ": " }
    text += message
    if let cause { text += " (\(cause))" }
    return text
  }

  /// The error of an output path that is a directory, where a file is to be written.
  package static func directoryGiven(_ path: String) -> JournalError {
    JournalError(.invalidArgument, "is a directory; give the path of a file to write", path: path)
  }

  /// `event 5`, `events 5–9`: a range of sequence numbers in a message, singular when it
  /// holds one event.
  package static func describe(_ range: ClosedRange<UInt64>) -> String {
    range.lowerBound == range.upperBound
      ? "event \(range.lowerBound)" : "events \(range.lowerBound)–\(range.upperBound)"
  }
}
