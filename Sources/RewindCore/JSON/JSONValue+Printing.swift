extension JSONValue {
  /// The value as JSON text on one line, with no spaces: the form of JSON Lines.
  public var compactText: String {
    var output: [UInt8] = []
    appendCompact(to: &output)
    return String(decoding: output, as: UTF8.self)
  }

  /// The value as indented JSON text (two spaces a level), ending without a newline.
  public var prettyText: String {
    var output: [UInt8] = []
    write(to: &output, indented: true, level: 0)
    return String(decoding: output, as: UTF8.self)
  }

  /// Appends the UTF-8 bytes of ``compactText`` to `output`: what a writer of many lines
  /// (`rewind export`) calls with one buffer it reuses, so that no text is built per
  /// value.
  /// - Complexity: O(size of the text), no allocation beyond `output`'s growth.
  package func appendCompact(to output: inout [UInt8]) {
    write(to: &output, indented: false, level: 0)
  }

  private func write(to output: inout [UInt8], indented: Bool, level: Int) {
    switch self {
    case .null: output.append(contentsOf: "null".utf8)
    case .bool(let value): output.append(contentsOf: value ? "true".utf8 : "false".utf8)
    case .int(let value): JSONValue.appendInteger(value, to: &output)
    case .double(let value): output.append(contentsOf: JSONValue.format(value).utf8)
    case .string(let text): JSONValue.appendQuoted(text, to: &output)
    case .array(let elements):
      guard !elements.isEmpty else {
        output.append(contentsOf: "[]".utf8)
        return
      }
      output.append(UInt8(ascii: "["))
      for (index, element) in elements.enumerated() {
        if index > 0 { output.append(UInt8(ascii: ",")) }
        if indented { JSONValue.appendNewline(level: level + 1, to: &output) }
        element.write(to: &output, indented: indented, level: level + 1)
      }
      if indented { JSONValue.appendNewline(level: level, to: &output) }
      output.append(UInt8(ascii: "]"))
    case .object(let members):
      guard !members.isEmpty else {
        output.append(contentsOf: "{}".utf8)
        return
      }
      output.append(UInt8(ascii: "{"))
      for (index, (key, value)) in members.enumerated() {
        if index > 0 { output.append(UInt8(ascii: ",")) }
        if indented { JSONValue.appendNewline(level: level + 1, to: &output) }
        JSONValue.appendQuoted(key, to: &output)
        output.append(UInt8(ascii: ":"))
        if indented { output.append(UInt8(ascii: " ")) }
        value.write(to: &output, indented: indented, level: level + 1)
      }
      if indented { JSONValue.appendNewline(level: level, to: &output) }
      output.append(UInt8(ascii: "}"))
    }
  }

  /// A line feed, then two spaces for each level.
  private static func appendNewline(level: Int, to output: inout [UInt8]) {
    output.append(UInt8(ascii: "\n"))
    output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * level))
  }

  /// The shortest text that reads back as the same Double (Swift's own algorithm), in
  /// a form JSON accepts.
  static func format(_ value: Double) -> String {
    precondition(value.isFinite, "JSON cannot hold \(value)")
    return value.description
  }

  /// Appends the decimal digits of `value`, as `String(value)` writes them.
  package static func appendInteger(_ value: Int64, to output: inout [UInt8]) {
    if value < 0 { output.append(UInt8(ascii: "-")) }
    var magnitude = value.magnitude
    var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: 20 digits at most
    var count = 0
    withUnsafeMutableBytes(of: &digits) { buffer in
      repeat {
        count += 1
        buffer[24 - count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
        magnitude /= 10
      } while magnitude > 0
      output.append(contentsOf: buffer[(24 - count)...])
    }
  }

  /// Appends `text` as a JSON string: quoted, with `"` and `\` escaped, the usual short
  /// escapes for line feeds, carriage returns, tabs, backspaces and form feeds, and every
  /// other control character (``TerminalText/isControl(_:)``: the C0 controls, which JSON
  /// must escape, and DEL, C1 and the bidi controls, which it may) as `\u` and four hex
  /// digits, so that JSON output is as safe on a terminal as text.
  /// - Complexity: O(text); a byte at a time while the text is ASCII.
  package static func appendQuoted(_ text: String, to output: inout [UInt8]) {
    output.append(UInt8(ascii: "\""))
    var isASCII = true
    for byte in text.utf8 where byte >= 0x80 {
      isASCII = false
      break
    }
    if isASCII {
      for byte in text.utf8 {
        if byte >= 0x20 && byte != 0x22 && byte != 0x5C && byte != 0x7F {
          output.append(byte)
        } else {
          appendEscape(Unicode.Scalar(byte), to: &output)
        }
      }
    } else {
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
    output.append(UInt8(ascii: "\""))
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
