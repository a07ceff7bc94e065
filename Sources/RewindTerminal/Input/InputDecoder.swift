/// Turns the bytes a terminal sends into ``InputEvent``s: characters (UTF-8), control
/// keys, the `CSI` (`ESC [`) and `SS3` (`ESC O`) sequences of cursor, editing and
/// function keys, and SGR 1006 mouse reports (`ESC [ < b ; x ; y M`).
///
/// Pure: bytes in, events out. A sequence cut between two reads is kept until the rest
/// arrives. A lone `ESC` is ambiguous (the Esc key, or the start of a sequence whose rest
/// is on its way), so the decoder holds it: whoever reads the terminal waits
/// ``escapeTimeout`` for more bytes and then calls ``flush()``, which decides it was Esc.
///
/// ```swift
/// var decoder = InputDecoder()
/// decoder.decode(Array("\u{1B}[A".utf8))  // [.key(.up)]
/// decoder.decode([0x1B])                  // [], hasPending
/// decoder.flush()                         // [.key(.escape)]
/// ```
///
/// Bytes that mean nothing (unknown sequences, invalid UTF-8, C1 controls) are dropped:
/// input is data, and nothing typed or pasted can make the decoder trap or grow without
/// bound.
public struct InputDecoder: Sendable {
  /// How long to wait after a lone `ESC` before deciding it was the Esc key.
  public static let escapeTimeout: Duration = .milliseconds(25)
  /// The longest `CSI` sequence kept while waiting for its end; a longer one is garbage
  /// and is dropped.
  static let maximumSequenceLength = 64

  private var pending: [UInt8] = []
  /// Whether the bytes are pasted text, until `ESC [ 201 ~`.
  private var inPaste = false

  /// `ESC [ 200 ~` and `ESC [ 201 ~`: the start and the end of a bracketed paste.
  static let pasteStart = Array("\u{1B}[200~".utf8)
  static let pasteEnd = Array("\u{1B}[201~".utf8)
  /// The most pasted bytes held before they are handed on as a paste of their own.
  static let maximumPasteChunk = 1 << 16

  public init() {}

  /// Whether bytes are held, waiting for the rest of a sequence or for the decision
  /// that a lone `ESC` was the Esc key (see ``flush()``).
  public var hasPending: Bool { !pending.isEmpty }

  /// The events `bytes` complete, in order; an unfinished sequence at the end is kept
  /// for the next call.
  /// - Complexity: O(*n*) in the bytes held and given.
  public mutating func decode(_ bytes: some Sequence<UInt8>) -> [InputEvent] {
    pending.append(contentsOf: bytes)
    return parse(final: false)
  }

  /// The events of the bytes held, taking them as complete: a lone `ESC` is the Esc key,
  /// an unfinished sequence after it is read as separate keys, an unfinished UTF-8
  /// character is dropped. Called when no byte followed within ``escapeTimeout``.
  public mutating func flush() -> [InputEvent] {
    parse(final: true)
  }

  private mutating func parse(final: Bool) -> [InputEvent] {
    var events: [InputEvent] = []
    var index = 0
    let bytes = pending
    loop: while index < bytes.count {
      if inPaste {
        guard let pasted = pastedText(bytes, from: index, final: final) else { break loop }
        if !pasted.text.isEmpty { events.append(.paste(pasted.text)) }
        index = pasted.end
        continue
      }
      let byte = bytes[index]
      if byte == 0x1B, bytes[index...].starts(with: Self.pasteStart) {
        inPaste = true
        index += Self.pasteStart.count
        continue
      }
      switch byte {
      case 0x1B:
        switch Self.escapeSequence(bytes, at: index) {
        case .incomplete where !final:
          break loop
        case .incomplete, .lone:
          events.append(.key(.escape))
          index += 1
        case .sequence(let event, let length):
          if let event { events.append(event) }
          index += length
        }
      case 0x80...:
        let length = Self.utf8Length(lead: byte)
        guard length > 0 else {
          index += 1  // not a lead byte: dropped
          continue
        }
        guard index + length <= bytes.count else {
          if final {
            index = bytes.count
          }
          break loop
        }
        if let text = String(validating: bytes[index..<index + length], as: UTF8.self),
          let scalar = text.unicodeScalars.first, !Self.isControlScalar(scalar)
        {
          events.append(.key(.character(Character(scalar))))
          index += length
        } else {
          index += 1
        }
      default:
        if let key = Self.controlOrASCII(byte) { events.append(.key(key)) }
        index += 1
      }
    }
    pending.removeFirst(index)
    return events
  }

  /// The pasted text from `start`: up to the end marker (then out of the paste, past
  /// it), or, with none yet, what is held when it is `final` or long (but a tail that may
  /// start the marker); nil to wait for more.
  private mutating func pastedText(_ bytes: [UInt8], from start: Int, final: Bool)
    -> (text: String, end: Int)?
  {
    var index = start
    while index < bytes.count {
      if bytes[index] == 0x1B, bytes[index...].starts(with: Self.pasteEnd) {
        inPaste = false
        return (Self.text(bytes[start..<index]), index + Self.pasteEnd.count)
      }
      index += 1
    }
    guard final || bytes.count - start >= Self.maximumPasteChunk else { return nil }
    // Hold back a tail that the rest of the end marker may follow.
    var end = bytes.count
    for length in (1..<Self.pasteEnd.count).reversed()
    where end - length >= start && Self.pasteEnd.starts(with: bytes[(end - length)...]) {
      end -= length
      break
    }
    guard end > start else { return nil }
    return (Self.text(bytes[start..<end]), end)
  }

  /// Pasted bytes as text: UTF-8 (a bad byte becomes U+FFFD).
  private static func text(_ bytes: ArraySlice<UInt8>) -> String {
    String(decoding: bytes, as: UTF8.self)
  }

  /// What a byte below 0x80 other than `ESC` is.
  private static func controlOrASCII(_ byte: UInt8) -> Key? {
    switch byte {
    case 0x0D, 0x0A: .enter
    case 0x09: .tab
    case 0x7F, 0x08: .backspace
    case 0x00: .control(" ")
    case 0x01...0x1A: .control(Character(Unicode.Scalar(byte + 0x60)))
    case 0x1C...0x1F: .control(Character(Unicode.Scalar(byte + 0x40)))
    case 0x20...0x7E: .character(Character(Unicode.Scalar(byte)))
    default: nil
    }
  }

  /// The length of the UTF-8 sequence `lead` starts, 0 if it starts none.
  private static func utf8Length(lead: UInt8) -> Int {
    switch lead {
    case 0xC2...0xDF: 2
    case 0xE0...0xEF: 3
    case 0xF0...0xF4: 4
    default: 0
    }
  }

  /// C1 controls, the line and paragraph separators and the bidirectional controls are
  /// never keys.
  private static func isControlScalar(_ scalar: Unicode.Scalar) -> Bool {
    (0x80...0x9F).contains(scalar.value) || (0x2028...0x202E).contains(scalar.value)
      || (0x2066...0x2069).contains(scalar.value)
  }

  private enum Escape {
    /// The bytes so far may start a sequence.
    case incomplete
    /// `ESC` followed by something no sequence starts with, that is no character (a
    /// control byte, another `ESC`): the Esc key, the next byte read on its own.
    case lone
    /// A whole sequence of `length` bytes; nil when it means nothing here.
    case sequence(InputEvent?, length: Int)
  }

  private static func escapeSequence(_ bytes: [UInt8], at start: Int) -> Escape {
    guard start + 1 < bytes.count else { return .incomplete }
    switch bytes[start + 1] {
    case UInt8(ascii: "["):
      return controlSequence(bytes, at: start)
    case UInt8(ascii: "O"):
      guard start + 2 < bytes.count else { return .incomplete }
      let key: Key? =
        switch bytes[start + 2] {
        case UInt8(ascii: "A"): .up
        case UInt8(ascii: "B"): .down
        case UInt8(ascii: "C"): .right
        case UInt8(ascii: "D"): .left
        case UInt8(ascii: "H"): .home
        case UInt8(ascii: "F"): .end
        case UInt8(ascii: "M"): .enter
        case UInt8(ascii: "P")...UInt8(ascii: "S"): .function(Int(bytes[start + 2]) - 0x4F)
        default: nil
        }
      return .sequence(key.map(InputEvent.key), length: 3)
    case 0x20...0x7E:
      // A printable character at once after it: Alt and that character.
      let character = Character(Unicode.Scalar(bytes[start + 1]))
      return .sequence(.key(.alt(character)), length: 2)
    case 0xC2...0xF4:
      // Alt and a character of several bytes, once they are all there.
      let length = utf8Length(lead: bytes[start + 1])
      guard start + 1 + length <= bytes.count else { return .incomplete }
      guard let text = String(validating: bytes[(start + 1)..<(start + 1 + length)], as: UTF8.self),
        let scalar = text.unicodeScalars.first, !isControlScalar(scalar)
      else { return .lone }
      return .sequence(.key(.alt(Character(scalar))), length: 1 + length)
    default:
      return .lone
    }
  }

  /// `ESC [`, parameter bytes (0x30–0x3F), intermediate bytes (0x20–0x2F), a final byte
  /// (0x40–0x7E).
  private static func controlSequence(_ bytes: [UInt8], at start: Int) -> Escape {
    var index = start + 2
    while index < bytes.count {
      let byte = bytes[index]
      switch byte {
      case 0x20...0x3F:
        index += 1
        if index - start > maximumSequenceLength { return .sequence(nil, length: index - start) }
      case 0x40...0x7E:
        let parameters = bytes[(start + 2)..<index]
        return .sequence(
          interpret(parameters: parameters, final: byte), length: index + 1 - start)
      default:
        // A control byte inside a sequence: the sequence was cut; drop what came so far.
        return .sequence(nil, length: index - start)
      }
    }
    return .incomplete
  }

  private static func interpret(parameters: ArraySlice<UInt8>, final: UInt8) -> InputEvent? {
    if parameters.first == UInt8(ascii: "<") {
      guard final == UInt8(ascii: "M") || final == UInt8(ascii: "m") else { return nil }
      return mouse(numbers(parameters.dropFirst()), released: final == UInt8(ascii: "m"))
    }
    guard parameters.allSatisfy({ (0x30...0x3B).contains($0) }) else { return nil }
    let values = numbers(parameters)
    let key: Key? =
      switch final {
      case UInt8(ascii: "A"): .up
      case UInt8(ascii: "B"): .down
      case UInt8(ascii: "C"): .right
      case UInt8(ascii: "D"): .left
      case UInt8(ascii: "H"): .home
      case UInt8(ascii: "F"): .end
      case UInt8(ascii: "Z"): .backTab
      case UInt8(ascii: "P")...UInt8(ascii: "S"): .function(Int(final) - 0x4F)
      case UInt8(ascii: "~"): tildeKey(values.first ?? 0)
      default: nil
      }
    return key.map(InputEvent.key)
  }

  /// `CSI n ~`: the editing keypad and the function keys.
  private static func tildeKey(_ code: Int) -> Key? {
    switch code {
    case 1, 7: .home
    case 2: .insert
    case 3: .delete
    case 4, 8: .end
    case 5: .pageUp
    case 6: .pageDown
    case 11...15: .function(code - 10)
    case 17...21: .function(code - 11)
    case 23, 24: .function(code - 12)
    default: nil
    }
  }

  /// `b ; x ; y` of an SGR report: the button code and the 1-based cell.
  private static func mouse(_ values: [Int], released: Bool) -> InputEvent? {
    guard values.count == 3, values[1] >= 1, values[2] >= 1 else { return nil }
    let code = values[0]
    let column = values[1] - 1
    let row = values[2] - 1
    if code & 64 != 0 {
      switch code & 3 {
      case 0: return .mouse(MouseEvent(.wheelUp, button: .none, column: column, row: row))
      case 1: return .mouse(MouseEvent(.wheelDown, button: .none, column: column, row: row))
      default: return nil  // horizontal wheels
      }
    }
    let button: MouseEvent.Button =
      switch code & 3 {
      case 0: .left
      case 1: .middle
      case 2: .right
      default: .none
      }
    let action: MouseEvent.Action
    if released {
      action = .release
    } else if code & 32 != 0 {
      guard button != .none else { return nil }  // motion without a button
      action = .drag
    } else {
      action = .press
    }
    return .mouse(MouseEvent(action, button: button, column: column, row: row))
  }

  /// The decimal numbers between `;`, an empty one as 0; values beyond 100,000 are
  /// capped (no overflow, whatever is sent).
  private static func numbers(_ bytes: ArraySlice<UInt8>) -> [Int] {
    var values: [Int] = []
    var current = 0
    for byte in bytes {
      if byte == UInt8(ascii: ";") {
        values.append(current)
        current = 0
      } else if (0x30...0x39).contains(byte) {
        current = min(current * 10 + Int(byte - 0x30), 100_000)
      } else {
        return []
      }
    }
    values.append(current)
    return values
  }
}
