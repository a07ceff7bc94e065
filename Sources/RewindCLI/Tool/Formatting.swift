import RewindCore

/// How the tool writes numbers, sizes and times for people.
enum Format {
  /// `1,234,567`.
  static func count<T: BinaryInteger>(_ value: T) -> String {
    let digits = String(value)
    var result = ""
    for (index, character) in digits.enumerated() {
      if index > 0 && (digits.count - index) % 3 == 0 { result.append(",") }
      result.append(character)
    }
    return result
  }

  /// `1 event`, `1,234 events`: a count and a noun, plural when it is not one.
  static func count<T: BinaryInteger>(_ value: T, _ noun: String) -> String {
    "\(count(value)) \(noun)\(value == 1 ? "" : "s")"
  }

  /// `812 bytes`, `12.3 KiB`, `4.0 MiB`.
  static func bytes(_ value: UInt64) -> String {
    if value < 1024 { return "\(value) bytes" }
    let units = ["KiB", "MiB", "GiB", "TiB"]
    var amount = Double(value) / 1024
    var unit = 0
    while amount >= 1024 && unit < units.count - 1 {
      amount /= 1024
      unit += 1
    }
    return "\(decimal(amount, places: 1)) \(units[unit])"
  }

  /// A number with a fixed count of decimals, without Foundation.
  static func decimal(_ value: Double, places: Int) -> String {
    var scale = 1.0
    for _ in 0..<places { scale *= 10 }
    let scaled = (abs(value) * scale).rounded()
    let whole = UInt64(scaled / scale)
    var text = (value < 0 && scaled > 0 ? "-" : "") + String(whole)
    if places > 0 {
      let fraction = String(UInt64(scaled) - whole * UInt64(scale))
      text += "." + String(repeating: "0", count: places - fraction.count) + fraction
    }
    return text
  }

  /// `+12.345s`: an offset from the session start, to the millisecond.
  static func offset(_ microseconds: UInt64) -> String {
    "+" + decimal(Double(microseconds) / 1_000_000, places: 3) + "s"
  }

  /// `1h 02m 03.5s`, `2m 05.0s`, `12.5s`: a duration for people.
  static func duration(_ microseconds: UInt64) -> String {
    let seconds = Double(microseconds) / 1_000_000
    if seconds < 60 { return decimal(seconds, places: 1) + "s" }
    let minutes = UInt64(seconds / 60)
    let rest = seconds - Double(minutes * 60)
    let restText = (rest < 10 ? "0" : "") + decimal(rest, places: 1) + "s"
    if minutes < 60 { return "\(minutes)m \(restText)" }
    let hours = minutes / 60
    let minutesText = (minutes % 60 < 10 ? "0" : "") + String(minutes % 60)
    return "\(hours)h \(minutesText)m \(restText)"
  }

  /// Pads `text` on the right to `width` characters.
  static func padded(_ text: String, to width: Int) -> String {
    text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
  }

  /// Pads `text` on the left to `width` characters.
  static func rightAligned(_ text: String, to width: Int) -> String {
    text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
  }
}

extension Outcome {
  /// `applied`, `unchanged`, `rejected: reason`.
  var summary: String {
    switch self {
    case .applied: "applied"
    case .unchanged: "unchanged"
    case .rejected(let reason): "rejected: \(reason)"
    }
  }

  /// The outcome for JSON output: `{"outcome": …, "reason": …}` members.
  var jsonMembers: [(String, JSONValue)] {
    switch self {
    case .applied, .unchanged: [("outcome", .string(name))]
    case .rejected(let reason): [("outcome", "rejected"), ("reason", .string("\(reason)"))]
    }
  }
}

extension Output {
  /// Prints a JSON document, indented.
  func printJSON(_ value: JSONValue) {
    print(value.prettyText)
  }
}
