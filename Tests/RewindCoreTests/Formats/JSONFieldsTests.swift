import TestSupport
import Testing

@testable import RewindCore

/// The streaming writer (`JSONWriter`) against `compactText`, and the in-place reader of
/// flat objects (`JSONFields`) against `JSONValue(parsing:)`: what `rewind export` and
/// `rewind import` read and write lines with (issue 17).
@Suite("JSON written and read in place")
struct JSONFieldsTests {
  /// `text` read in place, as (key, value) pairs the full parser would give; nil when
  /// the reader leaves it to the full parser.
  func fields(_ text: String) -> [(String, JSONValue)]? {
    var storage: [JSONField] = []
    let bytes = Array(text.utf8)
    return bytes.withUnsafeBufferPointer { buffer -> [(String, JSONValue)]? in
      guard JSONFields.parse(buffer, into: &storage) else { return nil }
      return storage.map { field in
        let key = String(decoding: field.key, as: UTF8.self)
        switch field.kind {
        case .null: return (key, .null)
        case .true: return (key, .bool(true))
        case .false: return (key, .bool(false))
        case .integer: return (key, .int(field.integer))
        case .number: return (key, .double(field.double!))
        case .string: return (key, .string(field.string!))
        }
      }
    }
  }

  @Test("the writer writes compactText's bytes for random values")
  func writerMatchesCompactText() {
    let seed = testSeed("JSONFieldsTests.writerMatchesCompactText")
    var random = SplitMix64(seed: seed)
    var writer = JSONWriter()
    for _ in 0..<2_000 {
      let value = JSONBytesTests().randomValue(depth: 0, using: &random)
      writer.removeAll()
      writer.beginArray()
      writer.value(value)
      if case .object(let members) = value {
        writer.beginObject()
        for (key, member) in members {
          writer.key(key)
          writer.value(member)
        }
        writer.endObject()
      }
      writer.endArray()
      writer.newline()
      var expected = [value]
      if case .object = value { expected.append(value) }
      #expect(
        String(decoding: writer.bytes, as: UTF8.self)
          == JSONValue.array(expected).compactText + "\n", "seed \(seed)")
    }
  }

  @Test("scalars written one by one")
  func writerScalars() {
    var writer = JSONWriter()
    writer.beginObject()
    writer.key("a")
    writer.int(-12)
    writer.key("b\"")
    writer.double(0.1)
    writer.key("c")
    writer.bool(false)
    writer.key("d")
    writer.null()
    writer.key("e")
    writer.string("x\u{1B}é")
    writer.endObject()
    #expect(
      String(decoding: writer.bytes, as: UTF8.self)
        == #"{"a":-12,"b\"":0.1,"c":false,"d":null,"e":"x\u001bé"}"#)
  }

  @Test("random flat objects read in place as the full parser reads them")
  func flatObjectsMatchFullParser() throws {
    let seed = testSeed("JSONFieldsTests.flatObjectsMatchFullParser")
    var random = SplitMix64(seed: seed)
    var readInPlace = 0
    for _ in 0..<3_000 {
      let members = (0..<Int.random(in: 0..<5, using: &random)).map { index in
        let key = index % 2 == 0 ? "k\(index)" : JSONBytesTests().randomText(using: &random)
        let value: JSONValue
        switch Int.random(in: 0..<6, using: &random) {
        case 0: value = .null
        case 1: value = .bool(Bool.random(using: &random))
        case 2: value = .int(Int64.random(in: Int64.min...Int64.max, using: &random))
        case 3: value = .double(Double.random(in: -1e6...1e6, using: &random))
        case 4:
          value = .double(
            Double(Int.random(in: -100_000...100_000, using: &random)) / 100)
        default: value = .string(JSONBytesTests().randomText(using: &random))
        }
        return (key, value)
      }
      var text = JSONValue.object(members).compactText
      if Bool.random(using: &random) {
        text =
          " "
          + text.split(separator: ",", omittingEmptySubsequences: false).joined(separator: " ,\t")
          + " "
      }
      guard let parsed = try? JSONValue(parsing: text) else { continue }
      guard let read = fields(text) else { continue }
      readInPlace += 1
      #expect(JSONValue.object(read) == parsed, "\(text), seed \(seed)")
      // Doubles to the bit.
      if case .object(let full) = parsed {
        for ((_, a), (_, b)) in zip(read, full) {
          if case .double(let x) = a, case .double(let y) = b {
            #expect(x.bitPattern == y.bitPattern, "\(text)")
          }
        }
      }
    }
    #expect(readInPlace > 500)
  }

  @Test("numbers read as Int64(_:) and Double(_:) read them")
  func numbers() {
    let texts = [
      "0", "-0", "7", "-7", "9223372036854775807", "-9223372036854775808",
      "9223372036854775808", "-9223372036854775809", "18446744073709551616", "0.0", "-0.0",
      "1.5", "-120.25", "0.1", "0.3", "414.0", "123.456789012345", "9007199254740993.0",
      "1.00000000000000000000001", "1e3", "1E-3", "-2.5e+2", "12345678901234567890.5",
      "0.000000000000000000000001",
    ]
    for text in texts {
      let full = try? JSONValue(parsing: text)
      let read = fields("{\"n\":\(text)}")
      #expect(read?.count == 1, "\(text)")
      guard let (_, value) = read?.first, let full else { continue }
      switch (value, full) {
      case (.int(let a), .int(let b)): #expect(a == b, "\(text)")
      case (.double(let a), .double(let b)): #expect(a.bitPattern == b.bitPattern, "\(text)")
      default: Issue.record("\(text): \(value) read in place, \(full) by the full parser")
      }
    }
  }

  @Test("what is not a flat object of ASCII is left to the full parser")
  func leftToFullParser() {
    let texts = [
      "", "{", "}", "[]", "{}x", "{\"a\":1,}", "{\"a\" 1}", "{\"a\":}", "{a:1}", "{\"a\":01}",
      "{\"a\":1.}", "{\"a\":.5}", "{\"a\":1e}", "{\"a\":-}", "{\"a\":tru}", "{\"a\":nul}",
      "{\"a\":\"x\\ny\"}", "{\"a\":\"é\"}", "{\"a\":\"x\ty\"}", "{\"a\":[1]}", "{\"a\":{}}",
      "{\"a\":1,\"a\":2}", "{\"a\":1e999}", "{\"a\":\"unterminated}", "{\"a\":1} {}",
    ]
    for text in texts { #expect(fields(text) == nil, "\(text)") }
    #expect(fields("{}")?.count == 0)
    #expect(fields(" { \"a\" : true , \"b\" : null } ")?.count == 2)
  }
}
