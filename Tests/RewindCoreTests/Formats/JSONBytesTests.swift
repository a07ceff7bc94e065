import TestSupport
import Testing

@testable import RewindCore

/// The byte printer of JSON (`appendCompact`, what `rewind export` writes with) against
/// the `String` printer it replaced, kept here as the reference.
@Suite("JSON printed as bytes")
struct JSONBytesTests {
  /// The printer before issue 17: a `String` built scalar by scalar.
  static func reference(_ value: JSONValue) -> String {
    switch value {
    case .null: return "null"
    case .bool(let flag): return flag ? "true" : "false"
    case .int(let number): return String(number)
    case .double(let number): return number.description
    case .string(let text): return quoted(text)
    case .array(let elements): return "[" + elements.map(reference).joined(separator: ",") + "]"
    case .object(let members):
      return "{" + members.map { quoted($0.0) + ":" + reference($0.1) }.joined(separator: ",")
        + "}"
    }
  }

  static func quoted(_ text: String) -> String {
    var output = "\""
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
        let hex = String(scalar.value, radix: 16)
        output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: output.unicodeScalars.append(scalar)
      }
    }
    return output + "\""
  }

  static let alphabet: [Unicode.Scalar] = [
    "a", "Z", "0", " ", "\"", "\\", "/", "\n", "\r", "\t", "\u{08}", "\u{0C}", "\u{00}", "\u{1B}",
    "\u{1F}", "\u{7F}", "\u{80}", "\u{9B}", "\u{A0}", "é", "\u{202E}", "\u{2066}", "\u{2069}",
    "漢", "😀", "\u{FEFF}",
  ]

  func randomValue(depth: Int, using random: inout SplitMix64) -> JSONValue {
    switch Int.random(in: 0..<(depth > 2 ? 5 : 7), using: &random) {
    case 0: return .null
    case 1: return .bool(Bool.random(using: &random))
    case 2:
      return .int(
        [Int64.min, Int64.max, 0, -1, Int64.random(in: -1_000_000...1_000_000, using: &random)]
          .randomElement(using: &random)!)
    case 3: return .double(Double.random(in: -1e6...1e6, using: &random))
    case 4: return .string(randomText(using: &random))
    case 5:
      return .array(
        (0..<Int.random(in: 0..<4, using: &random)).map { _ in
          randomValue(depth: depth + 1, using: &random)
        })
    default:
      return .object(
        (0..<Int.random(in: 0..<4, using: &random)).map { index in
          ("\(randomText(using: &random))\(index)", randomValue(depth: depth + 1, using: &random))
        })
    }
  }

  func randomText(using random: inout SplitMix64) -> String {
    var text = String.UnicodeScalarView()
    for _ in 0..<Int.random(in: 0..<12, using: &random) {
      text.append(Self.alphabet.randomElement(using: &random)!)
    }
    return String(text)
  }

  @Test("random values print the reference's bytes, and parse back")
  func matchesReference() throws {
    let seed = testSeed("JSONBytesTests.matchesReference")
    var random = SplitMix64(seed: seed)
    var buffer: [UInt8] = []
    for _ in 0..<3_000 {
      let value = randomValue(depth: 0, using: &random)
      buffer.removeAll(keepingCapacity: true)
      value.appendCompact(to: &buffer)
      let expected = Self.reference(value)
      #expect(String(decoding: buffer, as: UTF8.self) == expected, "seed \(seed)")
      #expect(value.compactText == expected)
      #expect(try JSONValue(parsing: expected) == value)
    }
  }

  @Test("integers print as String(_:) prints them")
  func integers() {
    for value: Int64 in [0, 7, -7, 10, 99, -100, 1_234_567_890, .max, .min, .min + 1] {
      var buffer: [UInt8] = []
      JSONValue.appendInteger(value, to: &buffer)
      #expect(String(decoding: buffer, as: UTF8.self) == String(value))
    }
  }
}
