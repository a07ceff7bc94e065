import RewindCore
import Testing

/// The lines of a page's data, and its rows: the numbers of each event (its time's delta,
/// code, body and change list), four unsigned LEB128 varints an event after the lines, as
/// many bytes as the first line's `rows` says.
func pageParts(_ payload: [UInt8]) throws -> (lines: [String], rows: [[UInt64]]) {
  let end = payload.firstIndex(of: UInt8(ascii: "\n")) ?? payload.count
  let meta = try JSONValue(parsing: String(decoding: payload[..<end], as: UTF8.self))
  let rowBytes = try #require(meta["page"]?["rows"]?.intValue)
  let split = payload.count - Int(rowBytes)
  let lines = String(decoding: payload[..<split], as: UTF8.self)
    .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
  var numbers: [UInt64] = []
  var value: UInt64 = 0
  var shift: UInt64 = 0
  for byte in payload[split...] {
    value |= UInt64(byte & 0x7F) << shift
    shift += 7
    if byte & 0x80 == 0 {
      numbers.append(value)
      (value, shift) = (0, 0)
    }
  }
  #expect(shift == 0 && numbers.count % 4 == 0, "the rows end within a number or a row")
  return (
    lines, stride(from: 0, to: numbers.count, by: 4).map { Array(numbers[$0..<($0 + 4)]) }
  )
}
