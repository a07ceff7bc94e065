/// Writes compact JSON text as UTF-8 bytes, straight into a buffer it reuses: the bytes
/// ``JSONValue/compactText`` prints, without building a ``JSONValue`` first.
///
/// What `rewind export` writes its lines with: a domain writes an event's members into
/// an object the writer has open (``Domain/writeMembers(of:to:)``), and the lines are
/// handed on a batch at a time.
///
/// ```swift
/// var json = JSONWriter()
/// json.beginObject()
/// json.key("event")
/// json.string("categorySelected")
/// json.key("id")
/// json.string("grinders")
/// json.endObject()
/// json.bytes  // {"event":"categorySelected","id":"grinders"}
/// ```
///
/// The writer puts the commas between members and elements; it does not check that
/// keys and values alternate, nor that a key is written once: the caller writes what
/// ``JSONValue`` would hold.
public struct JSONWriter {
  /// The text written so far, UTF-8.
  public private(set) var bytes: [UInt8]
  /// Whether the next key or element follows another in its object or array.
  @usableFromInline var needsComma = false

  /// An empty writer whose buffer holds `capacity` bytes before it grows.
  public init(capacity: Int = 256) {
    bytes = []
    bytes.reserveCapacity(capacity)
  }

  /// The number of bytes written.
  @inlinable public var count: Int { bytes.count }

  /// Forgets the text written, keeping the buffer.
  public mutating func removeAll() {
    bytes.removeAll(keepingCapacity: true)
    needsComma = false
  }

  /// Starts an object: `{`.
  public mutating func beginObject() {
    comma()
    bytes.append(UInt8(ascii: "{"))
    needsComma = false
  }

  /// Ends the object begun last: `}`.
  public mutating func endObject() {
    bytes.append(UInt8(ascii: "}"))
    needsComma = true
  }

  /// Starts an array: `[`.
  public mutating func beginArray() {
    comma()
    bytes.append(UInt8(ascii: "["))
    needsComma = false
  }

  /// Ends the array begun last: `]`.
  public mutating func endArray() {
    bytes.append(UInt8(ascii: "]"))
    needsComma = true
  }

  /// Writes a member's key, quoted and escaped, and its `:`; the value follows.
  public mutating func key(_ key: String) {
    comma()
    JSONWriter.appendQuoted(key, to: &bytes)
    bytes.append(UInt8(ascii: ":"))
    needsComma = false
  }

  /// Writes a string, quoted and escaped as ``JSONValue/compactText`` escapes it.
  public mutating func string(_ text: String) {
    comma()
    JSONWriter.appendQuoted(text, to: &bytes)
    needsComma = true
  }

  /// Writes an integer.
  public mutating func int(_ value: Int64) {
    comma()
    JSONWriter.appendInteger(value, to: &bytes)
    needsComma = true
  }

  /// Writes a number as ``JSONValue/double(_:)`` prints it: the shortest text that reads
  /// back as the same `Double`.
  /// - Precondition: `value` is finite (JSON has no NaN or infinities).
  public mutating func double(_ value: Double) {
    comma()
    bytes.append(contentsOf: JSONValue.format(value).utf8)
    needsComma = true
  }

  /// Writes `true` or `false`.
  public mutating func bool(_ value: Bool) {
    comma()
    bytes.append(contentsOf: value ? "true".utf8 : "false".utf8)
    needsComma = true
  }

  /// Writes `null`.
  public mutating func null() {
    comma()
    bytes.append(contentsOf: "null".utf8)
    needsComma = true
  }

  /// Writes a whole value, compact.
  public mutating func value(_ value: JSONValue) {
    comma()
    value.appendCompact(to: &bytes)
    needsComma = true
  }

  /// Appends a line feed (between JSON Lines), after which a value starts afresh.
  public mutating func newline() {
    bytes.append(UInt8(ascii: "\n"))
    needsComma = false
  }

  private mutating func comma() {
    if needsComma { bytes.append(UInt8(ascii: ",")) }
  }

  /// Appends the decimal digits of `value`, as `String(value)` writes them.
  static func appendInteger(_ value: Int64, to output: inout [UInt8]) {
    if value < 0 { output.append(UInt8(ascii: "-")) }
    var magnitude = value.magnitude
    var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: 20 digits at most
    var count = 0
    withUnsafeMutableBytes(of: &digits) { buffer in
      repeat {
        count += 1
        buffer[24 - count] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
        magnitude /= 10
      } while magnitude > 0
      output.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[(24 - count)...]))
    }
  }

  /// Appends `text` as a JSON string: quoted, with `"` and `\` escaped, the usual short
  /// escapes for line feeds, carriage returns, tabs, backspaces and form feeds, and every
  /// other control character (``TerminalText/isControl(_:)``: the C0 controls, which JSON
  /// must escape, and DEL, C1 and the bidi controls, which it may) as `\u` and four hex
  /// digits, so that JSON output is as safe on a terminal as text.
  /// - Complexity: O(text); ASCII text with nothing to escape (ids, names) is copied whole.
  static func appendQuoted(_ text: String, to output: inout [UInt8]) {
    output.append(UInt8(ascii: "\""))
    var text = text
    let plain = text.withUTF8 { bytes in
      for byte in bytes where byte < 0x20 || byte >= 0x7F || byte == 0x22 || byte == 0x5C {
        return false
      }
      output.append(contentsOf: bytes)
      return true
    }
    if !plain { appendEscaped(text, to: &output) }
    output.append(UInt8(ascii: "\""))
  }

  /// The inside of a quoted string that needs escapes or is not ASCII.
  private static func appendEscaped(_ text: String, to output: inout [UInt8]) {
    for scalar in text.unicodeScalars {
      if scalar.value < 0x80 && scalar.value >= 0x20 && scalar != "\"" && scalar != "\\"
        && scalar.value != 0x7F
      {
        output.append(UInt8(scalar.value))
      } else if scalar.value >= 0x80 && !TerminalText.isControl(scalar) {
        output.append(contentsOf: String(scalar).utf8)
      } else {
        appendEscape(scalar, to: &output)
      }
    }
  }

  /// The escape of `"`, `\` or a control character.
  private static func appendEscape(_ scalar: Unicode.Scalar, to output: inout [UInt8]) {
    switch scalar {
    case "\"": output.append(contentsOf: "\\\"".utf8)
    case "\\": output.append(contentsOf: "\\\\".utf8)
    case "\n": output.append(contentsOf: "\\n".utf8)
    case "\r": output.append(contentsOf: "\\r".utf8)
    case "\t": output.append(contentsOf: "\\t".utf8)
    case "\u{08}": output.append(contentsOf: "\\b".utf8)
    case "\u{0C}": output.append(contentsOf: "\\f".utf8)
    default:
      let hex = String(scalar.value, radix: 16)
      output.append(contentsOf: "\\u".utf8)
      output.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: max(4 - hex.count, 0)))
      output.append(contentsOf: hex.utf8)
    }
  }
}
