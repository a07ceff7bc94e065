extension JSONValue: CustomStringConvertible {
  /// ``compactText``: a value printed, interpolated or shown in a test's failure reads as
  /// the JSON it is (`{"count":3}`), not as its cases.
  public var description: String { compactText }

  /// The value as JSON text on one line, with no spaces: the form of JSON Lines.
  public var compactText: String {
    var output: [UInt8] = []
    appendCompact(to: &output)
    return String(decoding: output, as: UTF8.self)
  }

  /// The value as indented JSON text (two spaces a level), ending without a newline.
  public var prettyText: String { prettyText(level: 0) }

  /// ``prettyText`` as it reads nested `level` deep in another value's pretty text: its
  /// lines after the first indented by two spaces a level (the first is where the
  /// caller puts it), so that a printer of a long array can print one element at a time.
  package func prettyText(level: Int) -> String {
    var output: [UInt8] = []
    write(to: &output, indented: true, level: level)
    return String(decoding: output, as: UTF8.self)
  }

  /// Appends the UTF-8 bytes of ``prettyText(level:)`` to `output`, with no text built.
  package func appendPretty(level: Int, to output: inout [UInt8]) {
    write(to: &output, indented: true, level: level)
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
    case .double(let value): JSONValue.appendDouble(value, to: &output)
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

  /// The shortest text that reads back as the same Double, in a form JSON accepts: the
  /// text of `value.description` (`DoubleText` writes it without a `String`).
  static func format(_ value: Double) -> String {
    var output: [UInt8] = []
    appendDouble(value, to: &output)
    return String(decoding: output, as: UTF8.self)
  }

  /// Appends the UTF-8 bytes of ``format(_:)``.
  /// - Precondition: `value` is finite.
  static func appendDouble(_ value: Double, to output: inout [UInt8]) {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: DoubleText.maximumCount) { text in
      let count = DoubleText.write(value, to: text.baseAddress!)
      output.append(contentsOf: UnsafeBufferPointer(rebasing: text[..<count]))
    }
  }

  /// Appends the decimal digits of `value`, as `String(value)` writes them.
  package static func appendInteger(_ value: Int64, to output: inout [UInt8]) {
    JSONWriter.appendInteger(value, to: &output)
  }

  /// Appends `text` as a JSON string, quoted and escaped (``JSONWriter``'s escapes).
  /// - Complexity: O(text).
  package static func appendQuoted(_ text: String, to output: inout [UInt8]) {
    JSONWriter.appendQuoted(text, to: &output)
  }
}
