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
  }

  /// Damage between good frames.
  public struct Damage: Sendable, Equatable {
    public var byteRange: Range<UInt64>
    /// The events the damaged bytes held, when the frames around them tell.
    public var sequenceRange: ClosedRange<UInt64>?
    public var reason: String
  }

  /// Whether the frames came from the index a closed journal ends with.
  public var openedFromIndex: Bool
  /// Why the frame headers were walked instead (nil when opened from the index).
  public var walkReason: String?
  public var tornTail: TornTail?
  public var damage: [Damage]
  /// Events lost to damage in an earlier salvage, marked in the journal.
  public var lostRanges: [ClosedRange<UInt64>]

  /// No torn tail and no damage (a journal still being written may have neither).
  public var isIntact: Bool { tornTail == nil && damage.isEmpty }
}
