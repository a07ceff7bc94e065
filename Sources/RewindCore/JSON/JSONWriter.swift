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
  @usableFromInline var start: UnsafeMutablePointer<UInt8>
  @usableFromInline var capacity: Int
  /// The number of bytes written (``count``).
  @usableFromInline var length = 0
  /// Whether the next key or element follows another in its object or array.
  @usableFromInline var needsComma = false
  /// The texts of numbers written before (`NumberMemory`), when the writer keeps them.
  @usableFromInline var numbers: NumberMemory?

  /// An empty writer.
  ///
  /// - Parameters:
  ///   - capacity: the bytes its buffer holds before it grows (64 at the least).
  ///   - remembersNumbers: keep the texts of the last numbers written (a table of 4,096,
  ///     160 KiB), so that a number written again is copied, not formatted again: for
  ///     text whose numbers repeat, like a session's scroll offsets.
  public init(capacity: Int = 256, remembersNumbers: Bool = false) {
    self.capacity = max(capacity, 64)
    start = .allocate(capacity: self.capacity)
    numbers = remembersNumbers ? NumberMemory() : nil
  }

  deinit {
    start.deallocate()
    numbers?.deallocate()
  }

  /// The number of bytes written.
  public var count: Int { length }

  /// The text written so far, UTF-8.
  public var bytes: [UInt8] { Array(UnsafeBufferPointer(start: start, count: length)) }

  /// Calls `body` with the text written so far, valid only during the call.
  public func withBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E)
    -> R
  {
    try body(UnsafeRawBufferPointer(start: start, count: length))
  }

  /// Forgets the text written, keeping the buffer.
  public mutating func removeAll() {
    length = 0
    needsComma = false
  }

  /// Starts an object: `{`.
  @inlinable public mutating func beginObject() {
    reserve(2)
    comma()
    append(UInt8(ascii: "{"))
    needsComma = false
  }

  /// Ends the object begun last: `}`.
  @inlinable public mutating func endObject() {
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
  /// Inlined where it is called, so that the copy of a constant key is a few moves.
  @inlinable @inline(__always) public mutating func plainKey(_ key: StaticString) {
    assert(JSONWriter.isPlain(key), "\(key) needs escaping; write it with key(_:)")
    reserve(key.utf8CodeUnitCount + 4)
    comma()
    append(UInt8(ascii: "\""))
    appendPlain(key)
    append(UInt8(ascii: "\""))
    append(UInt8(ascii: ":"))
    needsComma = false
  }

  /// Writes a string that needs no escaping, known when the program is compiled.
  /// - Precondition: `text` needs no escaping (checked in debug builds).
  @inlinable @inline(__always) public mutating func plainString(_ text: StaticString) {
    assert(JSONWriter.isPlain(text), "\(text) needs escaping; write it with string(_:)")
    reserve(text.utf8CodeUnitCount + 3)
    comma()
    append(UInt8(ascii: "\""))
    appendPlain(text)
    append(UInt8(ascii: "\""))
    needsComma = true
  }

  /// Whether `text` is printable ASCII without `"` or `\`.
  @usableFromInline static func isPlain(_ text: StaticString) -> Bool {
    text.withUTF8Buffer { bytes in
      bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C }
    }
  }

  /// Writes a value whose compact text was written before (by another writer, once), with
  /// the comma before it that the place needs: a catalog's labels or ids, escaped once.
  package mutating func append(valueText bytes: UnsafeBufferPointer<UInt8>) {
    reserve(1)
    comma()
    append(bytes)
    needsComma = true
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
  /// - Complexity: O(1), no allocation: the digits are written in place (`DoubleText`).
  public mutating func double(_ value: Double) {
    reserve(DoubleText.maximumCount + 1)
    comma()
    // A NaN's bits mark the memory's empty entries: a number not finite (which
    // `DoubleText` refuses) never goes through it.
    if let numbers, value.isFinite {
      length += numbers.write(value, to: start + length)
    } else {
      length += DoubleText.write(value, to: start + length)
    }
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

  /// Writes a whole value, compact: the bytes of ``JSONValue/compactText``, written in
  /// place (no text of its own built first).
  public mutating func value(_ value: JSONValue) {
    switch value {
    case .null: null()
    case .bool(let value): bool(value)
    case .int(let value): int(value)
    case .double(let value): double(value)
    case .string(let text): string(text)
    case .array(let elements):
      beginArray()
      for element in elements { self.value(element) }
      endArray()
    case .object(let members):
      beginObject()
      for (key, member) in members {
        self.key(key)
        self.value(member)
      }
      endObject()
    }
  }

  /// Appends a line feed (between JSON Lines), after which a value starts afresh.
  @inlinable public mutating func newline() {
    reserve(1)
    append(UInt8(ascii: "\n"))
    needsComma = false
  }

  // MARK: Bytes

  /// Makes room for `extra` more bytes.
  @inlinable @inline(__always) mutating func reserve(_ extra: Int) {
    if length + extra > capacity { grow(extra) }
  }

  @usableFromInline @inline(never) mutating func grow(_ extra: Int) {
    let grown = max(capacity * 2, length + extra)
    let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
    buffer.update(from: start, count: length)
    start.deallocate()
    start = buffer
    capacity = grown
  }

  /// One byte, room made.
  @inlinable @inline(__always)
  mutating func append(_ byte: UInt8) {
    start[length] = byte
    length += 1
  }

  @inlinable @inline(__always)
  mutating func comma() {
    if needsComma { append(UInt8(ascii: ",")) }
  }

  /// Appends `bytes` as they are: JSON text written elsewhere (the page's keyframes
  /// built in parts).
  @inlinable @inline(__always)
  package mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
    reserve(bytes.count)
    guard let base = bytes.baseAddress else { return }
    (start + length).update(from: base, count: bytes.count)
    length += bytes.count
  }

  /// The bytes of `text`, room made: a constant's copied with no call.
  @inlinable @inline(__always)
  mutating func appendPlain(_ text: StaticString) {
    if text.hasPointerRepresentation {
      (start + length).update(from: text.utf8Start, count: text.utf8CodeUnitCount)
      length += text.utf8CodeUnitCount
    } else {
      text.withUTF8Buffer { append($0) }
    }
  }

  @inline(__always)
  private mutating func append(_ text: StaticString) {
    text.withUTF8Buffer { append($0) }
  }

  /// The decimal digits of `value`, as `String(value)` writes them, room made for 21:
  /// written in place, two at a time (`DoubleText.writeDigits`).
  private mutating func appendInteger(_ value: Int64) {
    if value < 0 { append(UInt8(ascii: "-")) }
    length += DoubleText.writeDigits(value.magnitude, to: start + length)
  }

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

/// The texts of the numbers a ``JSONWriter`` wrote last: a table of 4,096 entries, each a
/// number's bits and its text (``DoubleText``'s bytes, at most 24), found by a hash of the
/// bits. A number found is copied (three eight-byte stores), one not found is formatted
/// and takes its entry's place.
@usableFromInline struct NumberMemory {
  /// One number and its text.
  @usableFromInline struct Entry {
    /// The number's bits; a NaN's (which is never written) while the entry is empty.
    var bits: UInt64
    /// The text's length.
    var count: UInt64
    /// The text, its first `count` bytes.
    var text: (UInt64, UInt64, UInt64)
  }

  static let entryCount = 4096
  /// The longest text kept: `-2.2250738585072014e-308` is the longest `description`.
  static let longestText = 24

  let entries: UnsafeMutablePointer<Entry>

  init() {
    entries = .allocate(capacity: Self.entryCount)
    entries.initialize(
      repeating: Entry(bits: Double.nan.bitPattern, count: 0, text: (0, 0, 0)),
      count: Self.entryCount)
  }

  func deallocate() { entries.deallocate() }

  /// Writes `value` as ``DoubleText/write(_:to:)`` writes it to `output`, which has room
  /// for ``DoubleText/maximumCount`` bytes, and returns the number of bytes written.
  /// - Precondition: `value` is finite.
  @inline(__always)
  func write(_ value: Double, to output: UnsafeMutablePointer<UInt8>) -> Int {
    let bits = value.bitPattern
    // Fibonacci hashing: the top 12 bits of the product.
    let entry = entries + Int(truncatingIfNeeded: (bits &* 0x9E37_79B9_7F4A_7C15) >> 52)
    if entry.pointee.bits == bits {
      let count = Int(truncatingIfNeeded: entry.pointee.count)
      UnsafeMutableRawPointer(output).storeBytes(
        of: entry.pointee.text, as: (UInt64, UInt64, UInt64).self)
      return count
    }
    return remember(value, entry, output)
  }

  @inline(never)
  func remember(
    _ value: Double, _ entry: UnsafeMutablePointer<Entry>, _ output: UnsafeMutablePointer<UInt8>
  ) -> Int {
    let count = DoubleText.write(value, to: output)
    guard count <= Self.longestText else { return count }
    var text: (UInt64, UInt64, UInt64) = (0, 0, 0)
    withUnsafeMutableBytes(of: &text) { bytes in
      bytes.baseAddress!.copyMemory(from: output, byteCount: count)
    }
    entry.pointee = Entry(bits: value.bitPattern, count: UInt64(count), text: text)
    return count
  }
}
