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
