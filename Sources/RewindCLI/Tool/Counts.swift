import RewindArguments
import RewindCore

/// A whole number of things, 1 or more, as `--window`, `--limit` and `--max-divergences`
/// take: `noun` is the things' plural ("events").
func parseCount(_ text: String, of noun: String) throws(InvalidValue) -> Int {
  if let value = Int(text), value >= 1 { return value }
  if Int(text) == nil, !text.isEmpty,
    text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
  {
    throw InvalidValue(
      "'\(text)' is too large: expected a whole number of \(noun), from 1 to \(Format.count(Int.max))"
    )
  }
  throw InvalidValue("expected a whole number of \(noun), 1 or more")
}

/// A whole number written plainly (`1000000`) or with its digits grouped by threes from
/// the right, all with the same mark (`1,000,000`, `1_000_000`); nil for anything else
/// (`1,00`, `,100`, `10,0,0`, `1,000_000`), or one beyond 64 bits.
func groupedNumber(_ text: String) -> UInt64? {
  let marks = text.filter { $0 == "," || $0 == "_" }
  let digits = text.filter { $0 != "," && $0 != "_" }
  // Digits only: `UInt64` takes a sign too (`+100`).
  guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
    return nil
  }
  guard let mark = marks.first else { return UInt64(digits) }
  guard marks.allSatisfy({ $0 == mark }) else { return nil }
  let groups = text.split(separator: mark, omittingEmptySubsequences: false)
  guard let first = groups.first, (1...3).contains(first.count),
    groups.dropFirst().allSatisfy({ $0.count == 3 })
  else { return nil }
  return UInt64(digits)
}
