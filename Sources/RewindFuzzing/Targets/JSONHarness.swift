import RewindCore

/// Parses arbitrary text as JSON; a value must print, compact and indented, as text that
/// parses back to an equal value and prints the same again.
enum JSONHarness {
  static func run(_ bytes: [UInt8]) throws(FuzzFailure) {
    let value: JSONValue
    do {
      value = try JSONValue(parsing: String(decoding: bytes, as: UTF8.self))
    } catch {
      _ = error.description
      return
    }
    try checkRoundTrip(value)
    for (path, leaf) in value.leaves() {
      _ = value.value(atPath: path)
      _ = (leaf.typeName, leaf.intValue, leaf.doubleValue, leaf.stringValue)
    }
  }

  /// Checks that `value` prints as JSON that reads back as itself.
  /// - Throws: ``FuzzFailure`` naming the printed text and what came back.
  static func checkRoundTrip(_ value: JSONValue) throws(FuzzFailure) {
    let compact = value.compactText
    for printed in [compact, value.prettyText] {
      let again: JSONValue
      do {
        again = try JSONValue(parsing: printed)
      } catch {
        throw FuzzFailure("the printed JSON \(printed.debugDescription) does not parse: \(error)")
      }
      guard again == value else {
        throw FuzzFailure(
          "the printed JSON \(printed.debugDescription) parses as \(again.compactText.debugDescription), not as the value printed"
        )
      }
      guard again.compactText == compact else {
        throw FuzzFailure(
          "the JSON \(compact.debugDescription) prints as \(again.compactText.debugDescription) once read back"
        )
      }
    }
  }
}
