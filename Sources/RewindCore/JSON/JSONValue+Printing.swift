extension JSONValue {
  /// The value as JSON text on one line, with no spaces: the form of JSON Lines.
  public var compactText: String {
    var output = ""
    write(to: &output, indent: nil, level: 0)
    return output
  }

  /// The value as indented JSON text (two spaces a level), ending without a newline.
  public var prettyText: String {
    var output = ""
    write(to: &output, indent: "  ", level: 0)
    return output
  }

  private func write(to output: inout String, indent: String?, level: Int) {
    switch self {
    case .null: output += "null"
    case .bool(let value): output += value ? "true" : "false"
    case .int(let value): output += String(value)
    case .double(let value): output += JSONValue.format(value)
    case .string(let text): JSONValue.writeQuoted(text, to: &output)
    case .array(let elements):
      guard !elements.isEmpty else {
        output += "[]"
        return
      }
      output += "["
      for (index, element) in elements.enumerated() {
        if index > 0 { output += "," }
        if let indent { output += "\n" + String(repeating: indent, count: level + 1) }
        element.write(to: &output, indent: indent, level: level + 1)
      }
      if let indent { output += "\n" + String(repeating: indent, count: level) }
      output += "]"
    case .object(let members):
      guard !members.isEmpty else {
        output += "{}"
        return
      }
      output += "{"
      for (index, (key, value)) in members.enumerated() {
        if index > 0 { output += "," }
        if let indent { output += "\n" + String(repeating: indent, count: level + 1) }
        JSONValue.writeQuoted(key, to: &output)
        output += indent == nil ? ":" : ": "
        value.write(to: &output, indent: indent, level: level + 1)
      }
      if let indent { output += "\n" + String(repeating: indent, count: level) }
      output += "}"
    }
  }

  /// The shortest text that reads back as the same Double (Swift's own algorithm), in
  /// a form JSON accepts.
  static func format(_ value: Double) -> String {
    precondition(value.isFinite, "JSON cannot hold \(value)")
    return value.description
  }

  static func writeQuoted(_ text: String, to output: inout String) {
    output += "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": output += "\\\""
      case "\\": output += "\\\\"
      case "\n": output += "\\n"
      case "\r": output += "\\r"
      case "\t": output += "\\t"
      case "\u{08}": output += "\\b"
      case "\u{0C}": output += "\\f"
      case _ where TerminalText.isControl(scalar):
        // The other C0 controls, which JSON must escape, and DEL, C1 and the bidi
        // controls, which it may: escaped, JSON output is as safe on a terminal as text.
        let hex = String(scalar.value, radix: 16)
        output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: output.unicodeScalars.append(scalar)
      }
    }
    output += "\""
  }
}
