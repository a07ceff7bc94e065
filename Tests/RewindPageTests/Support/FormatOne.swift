import RewindCore

/// The page's data of format 3 written back as format 1 (one line per event as `rewind log
/// --json` prints it, then one line of changes per event; see PageFormat.md before issue
/// 17's tables), so that the builder can be held byte for byte to `ReferencePayload`.
///
/// Each event's line is rebuilt from its sequence number, its time (the sum of the deltas),
/// its body, its outcome (its code) and a rejected event's reason; its changes are its
/// change list's text. The meta line loses `tables` and `rows` and says format 1; the times'
/// deltas and the codes, rows' numbers in format 3, are lines of JSON again.
enum FormatOne {
  struct Malformed: Error, CustomStringConvertible {
    var description: String
  }

  static func expand(_ payload: [UInt8]) throws -> [UInt8] {
    let firstLine = payload.firstIndex(of: UInt8(ascii: "\n")) ?? payload.count
    guard
      case .object(let root) = try JSONValue(
        parsing: String(decoding: payload[..<firstLine], as: UTF8.self)),
      root.count == 1, root[0].0 == "page", case .object(let page) = root[0].1,
      page.first.map({ $0.0 == "format" && $0.1 == 3 }) == true
    else { throw Malformed(description: "not a page's data of format 3") }
    let meta = JSONValue.object(page)
    func number(_ value: JSONValue?) throws -> Int {
      guard let value = value?.intValue else { throw Malformed(description: "not a number") }
      return Int(value)
    }
    let rowBytes = try number(meta["rows"])
    guard rowBytes >= 0, rowBytes < payload.count - firstLine else {
      throw Malformed(description: "\(rowBytes) bytes of rows")
    }
    let lines = String(decoding: payload[..<(payload.count - rowBytes)], as: UTF8.self)
      .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    guard lines.count >= 4 else { throw Malformed(description: "\(lines.count) lines") }
    // The rows: four varints an event.
    var rows: [Int] = []
    var at = payload.count - rowBytes
    while at < payload.count {
      var value: UInt64 = 0
      var shift: UInt64 = 0
      var byte: UInt8
      repeat {
        guard at < payload.count, shift < 64 else { throw Malformed(description: "a varint") }
        byte = payload[at]
        at += 1
        value |= UInt64(byte & 0x7F) << shift
        shift += 7
      } while byte & 0x80 != 0
      rows.append(Int(value))
    }
    guard rows.count % 4 == 0 else { throw Malformed(description: "\(rows.count) numbers") }
    func column(_ index: Int) -> [Int] {
      stride(from: index, to: rows.count, by: 4).map { rows[$0] }
    }
    func line(_ numbers: [Int]) -> String {
      "[" + numbers.map(String.init).joined(separator: ",") + "]"
    }
    func numbers(_ line: String) throws -> [Int] {
      guard case .array(let elements) = try JSONValue(parsing: line) else {
        throw Malformed(description: "not an array: \(line)")
      }
      return try elements.map { try number($0) }
    }
    let from = try number(meta["from"])
    let count = try number(meta["events"])
    let deltas = column(0)
    let codes = column(1)
    let bodies = column(2)
    let changeLists = column(3)
    let reasons = try numbers(lines[2])
    let tables = meta["tables"]
    var start = 3
    func table(_ name: String) throws -> [String] {
      let length = try number(tables?[name])
      guard start + length <= lines.count else { throw Malformed(description: "short \(name)") }
      defer { start += length }
      return Array(lines[start..<(start + length)])
    }
    let bodyLines = try table("bodies")
    let changeLines = try table("changes")
    let reasonLines = try table("reasons")
    guard deltas.count == count, codes.count == count, bodies.count == count,
      changeLists.count == count
    else { throw Malformed(description: "the events' lines do not hold \(count) events") }

    var text: [String] = [
      JSONValue.object([
        (
          "page",
          .object(
            page.compactMap { member -> (String, JSONValue)? in
              member.0 == "tables" || member.0 == "rows"
                ? nil : member.0 == "format" ? ("format", 1) : member
            })
        )
      ]).compactText,
      lines[1], line(deltas), line(codes),
    ]
    var time = try number(meta["fromTime"])
    var rejected = 0
    for index in 0..<count {
      time += deltas[index]
      let body = bodyLines[bodies[index]]
      var line = #"{"seq":\#(from + index + 1),"time_us":\#(time),"#
      line += body.dropFirst().dropLast()
      switch codes[index] % 3 {
      case 0: line += #","outcome":"applied""#
      case 1: line += #","outcome":"unchanged""#
      default:
        line += #","outcome":"rejected","reason":"# + reasonLines[reasons[rejected]]
        rejected += 1
      }
      text.append(line + "}")
    }
    guard rejected == reasons.count else {
      throw Malformed(description: "\(reasons.count) reasons for \(rejected) rejected events")
    }
    text += changeLists.map { changeLines[$0] }
    text += lines[start...]
    return Array(text.joined(separator: "\n").utf8)
  }
}
