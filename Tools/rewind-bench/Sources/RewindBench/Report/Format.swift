import Foundation

/// Number formatting for the table: three significant digits, no exponent.
enum Format {
  static func number(_ value: Double) -> String {
    guard value.isFinite else { return "—" }
    let magnitude = abs(value)
    let places: Int
    switch magnitude {
    case 100...: places = 0
    case 10..<100: places = 1
    case 1..<10: places = 2
    case 0.1..<1: places = 3
    case 0.01..<0.1: places = 4
    default: places = magnitude == 0 ? 0 : 5
    }
    return String(format: "%.\(places)f", value)
  }

  /// `12.3 (11.9–12.8)`: the median and the range.
  static func summary(_ value: Summary) -> String {
    if value.min == value.max { return number(value.median) }
    return "\(number(value.median)) (\(number(value.min))–\(number(value.max)))"
  }

  /// `×34`: how many times better Rewind is.
  static func advantage(_ ratio: Double) -> String { "×" + number(ratio) }
}
