#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes compact JSON text as UTF-8 bytes, straight into a buffer it owns and reuses:
/// the bytes ``JSONValue/compactText`` prints, without building a ``JSONValue`` first.
///
/// What `rewind export` writes its lines with: a domain writes an event's members into
/// an object the writer has open (``Domain/writeMembers(of:to:)``), and the lines are
/// handed on a batch at a time (``withBytes(_:)``).
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
/// ``JSONValue`` would hold. It cannot be copied (its buffer is its own, written in place
/// with no copy-on-write check per byte); pass it `inout`.
public struct JSONWriter: ~Copyable {
  /// The buffer: `count` bytes written of `capacity`.
  private var start: UnsafeMutablePointer<UInt8>
  private var capacity: Int
  /// The number of bytes written.
  public private(set) var count = 0
  /// Whether the next key or element follows another in its object or array.
  private var needsComma = false

  /// An empty writer whose buffer holds `capacity` bytes before it grows.
  public init(capacity: Int = 256) {
    self.capacity = max(capacity, 64)
    start = .allocate(capacity: self.capacity)
  }

  deinit { start.deallocate() }

  /// The text written so far, UTF-8.
  public var bytes: [UInt8] { Array(UnsafeBufferPointer(start: start, count: count)) }

  /// Calls `body` with the text written so far, valid only during the call.
  public func withBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E)
    -> R
  {
    try body(UnsafeRawBufferPointer(start: start, count: count))
  }

  /// Forgets the text written, keeping the buffer.
  public mutating func removeAll() {
    count = 0
    needsComma = false
  }

  /// Starts an object: `{`.
  public mutating func beginObject() {
    reserve(2)
    comma()
    append(UInt8(ascii: "{"))
    needsComma = false
  }

  /// Ends the object begun last: `}`.
  public mutating func endObject() {
    reserve(1)
    append(UInt8(ascii: "}"))
    needsComma = true
  }

  /// Starts an array: `[`.
  public mutating func beginArray() {
    reserve(2)
    comma()
    append(UInt8(ascii: "["))
    needsComma = false
  }

  /// Ends the array begun last: `]`.
  public mutating func endArray() {
    reserve(1)
    append(UInt8(ascii: "]"))
    needsComma = true
  }

  /// Writes a member's key, quoted and escaped, and its `:`; the value follows.
  public mutating func key(_ key: String) {
    reserve(1)
    comma()
    appendQuoted(key)
    reserve(1)
    append(UInt8(ascii: ":"))
    needsComma = false
  }

  /// Writes a member's key that needs no escaping (printable ASCII without `"` or `\`),
  /// known when the program is compiled: the event's own keys and kinds of a domain.
  /// - Precondition: `key` needs no escaping (checked in debug builds).
  public mutating func plainKey(_ key: StaticString) {
    assert(JSONWriter.isPlain(key), "\(key) needs escaping; write it with key(_:)")
    reserve(key.utf8CodeUnitCount + 4)
    comma()
    append(UInt8(ascii: "\""))
    append(key)
    append(UInt8(ascii: "\""))
    append(UInt8(ascii: ":"))
    needsComma = false
  }

  /// Writes a string that needs no escaping, known when the program is compiled.
  /// - Precondition: `text` needs no escaping (checked in debug builds).
  public mutating func plainString(_ text: StaticString) {
    assert(JSONWriter.isPlain(text), "\(text) needs escaping; write it with string(_:)")
    reserve(text.utf8CodeUnitCount + 3)
    comma()
    append(UInt8(ascii: "\""))
    append(text)
    append(UInt8(ascii: "\""))
    needsComma = true
  }

  /// Whether `text` is printable ASCII without `"` or `\`.
  static func isPlain(_ text: StaticString) -> Bool {
    text.withUTF8Buffer { bytes in
      bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C }
    }
  }

  /// Writes a string, quoted and escaped as ``JSONValue/compactText`` escapes it.
  public mutating func string(_ text: String) {
    reserve(1)
    comma()
    appendQuoted(text)
    needsComma = true
  }

  /// Writes an integer.
  public mutating func int(_ value: Int64) {
    reserve(21)
    comma()
    appendInteger(value)
    needsComma = true
  }

  /// Writes a number as ``JSONValue/double(_:)`` prints it: the shortest text that reads
  /// back as the same `Double`.
  /// - Precondition: `value` is finite (JSON has no NaN or infinities).
  public mutating func double(_ value: Double) {
    reserve(1)
    comma()
    var text = JSONValue.format(value)
    text.withUTF8 { append($0) }
    needsComma = true
  }

  /// Writes `true` or `false`.
  public mutating func bool(_ value: Bool) {
    reserve(6)
    comma()
    append(value ? "true" : "false")
    needsComma = true
  }

  /// Writes `null`.
  public mutating func null() {
    reserve(5)
    comma()
    append("null")
    needsComma = true
  }

  /// Writes a whole value, compact.
  public mutating func value(_ value: JSONValue) {
    reserve(1)
    comma()
    var text: [UInt8] = []
    value.appendCompact(to: &text)
    text.withUnsafeBufferPointer { append($0) }
    needsComma = true
  }

  /// Appends a line feed (between JSON Lines), after which a value starts afresh.
  public mutating func newline() {
    reserve(1)
    append(UInt8(ascii: "\n"))
    needsComma = false
  }

  // MARK: Bytes

  /// Makes room for `extra` more bytes.
  @inline(__always) private mutating func reserve(_ extra: Int) {
    if count + extra > capacity { grow(extra) }
  }

  @inline(never) private mutating func grow(_ extra: Int) {
    let grown = max(capacity * 2, count + extra)
    let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
    buffer.update(from: start, count: count)
    start.deallocate()
    start = buffer
    capacity = grown
  }

  /// One byte, room made.
  @inline(__always)
  private mutating func append(_ byte: UInt8) {
    start[count] = byte
    count += 1
  }

  @inline(__always)
  private mutating func comma() {
    if needsComma { append(UInt8(ascii: ",")) }
  }

  @inline(__always)
  private mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
    reserve(bytes.count)
    guard let base = bytes.baseAddress else { return }
    (start + count).update(from: base, count: bytes.count)
    count += bytes.count
  }

  @inline(__always)
  private mutating func append(_ text: StaticString) {
    text.withUTF8Buffer { append($0) }
  }

  /// The decimal digits of `value`, as `String(value)` writes them, room made for 20.
  private mutating func appendInteger(_ value: Int64) {
    if value < 0 { append(UInt8(ascii: "-")) }
    var magnitude = value.magnitude
    let pairs = JSONWriter.digitPairs.utf8Start
    var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: 20 digits at most
    withUnsafeMutableBytes(of: &digits) { buffer in
      var index = 24
      while magnitude >= 100 {
        let pair = Int(magnitude % 100) &* 2
        magnitude /= 100
        index -= 2
        buffer[index] = pairs[pair]
        buffer[index + 1] = pairs[pair + 1]
      }
      if magnitude >= 10 {
        let pair = Int(magnitude) &* 2
        index -= 2
        buffer[index] = pairs[pair]
        buffer[index + 1] = pairs[pair + 1]
      } else {
        index -= 1
        buffer[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude)
      }
      let digits = UnsafeRawBufferPointer(rebasing: buffer[index...])
      append(digits.assumingMemoryBound(to: UInt8.self))
    }
  }

  /// "00" to "99", to write two digits at a time.
  private static let digitPairs: StaticString =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"

  /// `text` quoted, escaped as ``appendQuoted(_:to:)`` escapes it; ASCII text with nothing
  /// to escape (ids, names) is copied whole.
  private mutating func appendQuoted(_ text: String) {
    reserve(1)
    append(UInt8(ascii: "\""))
    var text = text
    let plain = text.withUTF8 { bytes in
      for byte in bytes where byte < 0x20 || byte >= 0x7F || byte == 0x22 || byte == 0x5C {
        return false
      }
      append(bytes)
      return true
    }
    if !plain {
      var escaped: [UInt8] = []
      JSONWriter.appendEscaped(text, to: &escaped)
      escaped.withUnsafeBufferPointer { append($0) }
    }
    reserve(1)
    append(UInt8(ascii: "\""))
  }

  /// Appends the decimal digits of `value`, as `String(value)` writes them.
  static func appendInteger(_ value: Int64, to output: inout [UInt8]) {
    var writer = JSONWriter(capacity: 64)
    writer.int(value)
    writer.withBytes { output.append(contentsOf: $0) }
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
