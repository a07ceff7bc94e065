import RewindArguments
import RewindCore

/// A whole number of things, `minimum` (1 unless said) or more, as `--window`, `--limit`
/// and `--max-divergences` (0 or more) take, plain or with its digits grouped (`1,000`, as
/// `groupedNumber` reads them): `noun` is the things' plural ("events").
func parseCount(_ text: String, of noun: String, minimum: Int = 1) throws(InvalidValue) -> Int {
  let expected = "expected a whole number of \(noun), \(minimum) or more"
  guard let digits = groupedDigits(text) else { throw InvalidValue(expected) }
  // Digits only: only a number too large is not an `Int`.
  guard let value = Int(digits) else {
    throw InvalidValue(
      "'\(text)' is too large: expected a whole number of \(noun), from \(minimum) to \(Format.count(Int.max))"
    )
  }
  guard value >= minimum else { throw InvalidValue(expected) }
  return value
}

/// A whole number written plainly (`1000000`) or with its digits grouped by threes from
/// the right, all with the same mark (`1,000,000`, `1_000_000`); nil for anything else
/// (`1,00`, `,100`, `10,0,0`, `1,000_000`), or one beyond 64 bits.
func groupedNumber(_ text: String) -> UInt64? {
  groupedDigits(text).flatMap { UInt64($0) }
}

/// The digits of a whole number written as `groupedNumber` reads it, however many; nil
/// for anything else.
func groupedDigits(_ text: String) -> String? {
  let marks = text.filter { $0 == "," || $0 == "_" }
  let digits = text.filter { $0 != "," && $0 != "_" }
  // Digits only: `UInt64` takes a sign too (`+100`).
  guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
    return nil
  }
  guard let mark = marks.first else { return digits }
  guard marks.allSatisfy({ $0 == mark }) else { return nil }
  let groups = text.split(separator: mark, omittingEmptySubsequences: false)
  guard let first = groups.first, (1...3).contains(first.count),
    groups.dropFirst().allSatisfy({ $0.count == 3 })
  else { return nil }
  return digits
}
