/// What opening a journal found besides its frames: whether it was closed, and any
/// torn tail, damage or salvaged gaps.
public struct JournalCondition: Sendable, Equatable {
  /// Bytes at the end that are not a whole frame.
  public struct TornTail: Sendable, Equatable {
    /// Where the incomplete bytes start.
    public var offset: UInt64
    public var length: UInt64
    /// What is wrong there.
    public var reason: String
    /// The events of the partial frame, when its frame header is whole.
    public var sequenceRange: ClosedRange<UInt64>?
    /// Whether the bytes start at an index or a trailer, damaged or cut short (a byte
    /// changed, or the writer stopped while closing the journal): they hold no event; not
    /// a frame cut short.
    public var isDamagedEnd = false

    /// What the bytes are, for a sentence: `the last 36 bytes (from byte 5169) are not a
    /// whole frame (why)`, or for a damaged end `the last 36 bytes (from byte 5169) are
    /// its index or trailer, damaged or cut short (why), and no event is in them`.
    public var described: String {
      let bytes = "the last \(Journal.count(length, "byte")) (from byte \(offset))"
      let (are, them) = length == 1 ? ("is", "it") : ("are", "them")
      return isDamagedEnd
        ? "\(bytes) \(are) its index or trailer, damaged or cut short (\(reason)), and no event is in \(them)"
        : "\(bytes) \(are) not a whole frame (\(reason))"
    }
  }

  /// Damage between good frames.
  public struct Damage: Sendable, Equatable {
    public var byteRange: Range<UInt64>
    /// The events the damaged bytes held, when the frames around them tell.
    public var sequenceRange: ClosedRange<UInt64>?
    public var reason: String
  }

  /// A damaged journal header, read from one of its copies instead.
  public struct HeaderDamage: Sendable, Equatable {
    /// The first damaged byte, when comparing with the copy tells; else where the header
    /// starts (0).
    public var offset: UInt64
    /// What is wrong, and which copy was read.
    public var reason: String
    /// Where the copy read instead starts: the `RWHC` frame after the header, or the
    /// index.
    public var copyOffset: UInt64
  }

  /// A damaged copy of a whole header: the `RWHC` frame after it, in a journal opened
  /// from its index (walking the frames meets the copy, and reports it among the
  /// ``damage``).
  public struct HeaderCopyDamage: Sendable, Equatable {
    /// Where the copy starts: right after the header.
    public var offset: UInt64
    /// What is wrong: damaged, missing, or not the header's bytes.
    public var reason: String
  }

  /// Whether the frames came from the index a closed journal ends with.
  public var openedFromIndex: Bool
  /// Why the frame headers were walked instead (nil when opened from the index).
  public var walkReason: String?
  /// Whether the file ends with a valid trailer: its writer closed it. A journal that
  /// was not closed was left by a writer that was killed (or crashed), or is being
  /// written still (`JournalReader.currentWriter()` tells which): it holds the events of
  /// its whole frames, and the session may have gone on after them.
  public var isClosed: Bool
  /// For a session read from a server (``openedFromIndex``), not closed there: whether the
  /// journal pushed was closed and its push has not sent every frame (under way, or cut
  /// short: pushing the journal again completes it), rather than a journal not closed.
  public var isIncompletePush = false
  /// Whether bytes follow the trailer of a closed journal (``tornTail`` holds them): it
  /// was closed, then written past (a tool that appends, a copy gone wrong).
  public var isWrittenPastTrailer = false
  /// The header was damaged and read from a copy; nil for an intact header.
  public var headerDamage: HeaderDamage?
  /// The copy after a whole header is damaged, in a journal opened from its index: every
  /// event is read, but one copy fewer would save the header from damage (`rewind
  /// recover` writes it again); nil when it is whole, or was not read.
  public var headerCopyDamage: HeaderCopyDamage?
  public var tornTail: TornTail?
  public var damage: [Damage]
  /// Events lost to damage in an earlier salvage, marked in the journal.
  public var lostRanges: [ClosedRange<UInt64>]

  /// No damaged header or copy of it, no torn tail and no damage (a journal still being
  /// written may have none of them).
  public var isIntact: Bool { framesAreIntact && headerCopyDamage == nil }

  /// No damaged header, no torn tail and no damage: every frame reads as written, which
  /// the scans in parts need (a damaged copy of a whole header holds no event, and is
  /// not read again).
  public var framesAreIntact: Bool { headerDamage == nil && tornTail == nil && damage.isEmpty }
}
