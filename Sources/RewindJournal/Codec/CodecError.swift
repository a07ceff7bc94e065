/// A failure to decode bytes: what was wrong and at which byte offset.
///
/// Codec errors come from untrusted input (a damaged or hostile journal, a file that
/// is not a journal), so they are thrown, never trapped on.
public struct CodecError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What kind of problem the decoder met.
  public enum Code: String, Sendable {
    /// The input ended before the value did.
    case truncated
    /// A varint ran past 10 bytes or overflowed 64 bits.
    case malformedVarint
    /// A declared length or count is beyond what the format allows.
    case tooLarge
    /// A value is outside the set the format defines (an unknown tag, a bad enum case).
    case invalidValue
    /// Bytes that should be UTF-8 text are not.
    case invalidText
  }

  public var code: Code
  /// A human sentence saying what was expected.
  public var message: String
  /// The byte offset, within the buffer being decoded, where the problem was found.
  public var offset: Int

  public init(_ code: Code, _ message: String, at offset: Int) {
    self.code = code
    self.message = message
    self.offset = offset
  }

  public var description: String { "\(message) (at byte \(offset))" }
}
