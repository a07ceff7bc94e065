import RewindJournal
import RewindSpelling

/// How the tool writes numbers, sizes and times for people: the commands of `rewind` and
/// its full-screen programs (the player) alike.
package enum Format {
  /// `1,234,567`.
  package static func count<T: BinaryInteger>(_ value: T) -> String {
    Journal.grouped(value)
  }

  /// `1 event`, `1,234 events`: a count and a noun, plural when it is not one.
  package static func count<T: BinaryInteger>(_ value: T, _ noun: String) -> String {
    "\(count(value)) \(noun)\(value == 1 ? "" : "s")"
  }

  /// `event 5`, `events 5–9`: a range of sequence numbers, singular when it holds one.
  package static func events(_ range: ClosedRange<UInt64>) -> String {
    JournalError.describe(range)
  }

  /// Text a user gave (a key, a name, a value, an argument), quoted for a message:
  /// `'Grinders'` as it is when short; when longer than ``quotedLimit`` characters, its
  /// first ``quotedPrefix`` characters, `…` and its length, `'aaaa…' (1,048,576 characters)`,
  /// so that a megabyte of input does not become a megabyte of error. The reporter still
  /// escapes the message for the terminal. RewindArguments, which depends on nothing,
  /// quotes its command-line values by the same rule (`UsageError`), and a test holds the
  /// two to one output.
  /// - Parameters:
  ///   - text: What the user gave.
  ///   - quote: The quote on either side: `'` (the default), `"` in messages about JSON,
  ///     or nothing for a number.
  /// ``quoted(_:quote:)`` with each whitespace but the space, and each invisible format
  /// character, written `\u{A0}`: two texts that differ only so read apart in a message
  /// (`'id:x\u{A0}y' reads as 'id:x y'`).
  package static func quotedVisibly(_ text: some StringProtocol) -> String {
    var shown = ""
    for scalar in text.unicodeScalars {
      if scalar != " ",
        scalar.properties.isWhitespace || scalar.properties.generalCategory == .format
      {
        shown += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      } else {
        shown.unicodeScalars.append(scalar)
      }
    }
    return quoted(shown)
  }

  package static func quoted(_ text: some StringProtocol, quote: String = "'") -> String {
    var count = 0
    var end = text.startIndex
    for index in text.indices {
      if count == quotedPrefix { end = index }
      count += 1
      if count > quotedLimit { break }
    }
    if count <= quotedLimit { return quote + String(text) + quote }
    let length = self.count(text.count, "character")
    return quote + String(text[..<end]) + "…" + quote + " (" + length + ")"
  }

  /// `text` as one word of a POSIX shell's command line: itself when it holds only
  /// letters, digits and `/ . _ - + , : = @ %` (letters of any script too), else in single
  /// quotes, a quote in it written `'\''` (`'my journal.journal'`, `'it'\''s'`).
  package static func shellWord(_ text: String) -> String {
    let plain =
      !text.isEmpty
      && text.unicodeScalars.allSatisfy { scalar in
        if scalar.isASCII {
          return ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
            || ("0"..."9").contains(scalar) || "/._-+,:=@%".unicodeScalars.contains(scalar)
        }
        return scalar.properties.isAlphabetic
      }
    if plain { return text }
    var word = "'"
    for character in text {
      word += character == "'" ? "'\\''" : String(character)
    }
    return word + "'"
  }

  /// The path `path` as one word of a POSIX shell's command line, as ``shellWord(_:)``
  /// writes it, a relative one that starts with `-` after `./` (`./-x.journal`), so that the
  /// command it is pasted into does not read it as an option.
  package static func shellPath(_ path: String) -> String {
    shellWord(path.hasPrefix("-") ? "./" + path : path)
  }

  /// ` (did you mean "X"?)`, X the one of `names` that `word` is most likely a slip of, as
  /// the tool's options and commands suggest them (`closestName`); empty when none is.
  package static func meant(_ word: String, among names: [String]) -> String {
    closestName(to: word, among: names).map { " (did you mean \(quoted($0, quote: "\""))?)" }
      ?? ""
  }

  /// ` ("idd" is given: did you mean "id"?)`: the one of `given` most likely a slip of the
  /// key `missing` (not among them); empty when none is.
  package static func slip(of missing: String, given: [String]) -> String {
    guard !given.contains(missing),
      let slip = given.first(where: { closestName(to: $0, among: [missing]) != nil })
    else { return "" }
    return " (\(quoted(slip, quote: "\"")) is given: did you mean \(quoted(missing, quote: "\""))?)"
  }

  /// The most characters ``quoted(_:quote:)`` quotes in full.
  package static let quotedLimit = 80
  /// How many characters ``quoted(_:quote:)`` keeps of a longer text.
  package static let quotedPrefix = 60

  /// `text` with its first letter in uppercase, to start a sentence.
  package static func capitalized(_ text: String) -> String {
    text.prefix(1).uppercased() + text.dropFirst()
  }

  /// `812 bytes`, `12.3 KiB`, `4.0 MiB`.
  package static func bytes(_ value: UInt64) -> String {
    if value < 1024 { return count(value, "byte") }
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
  package static func decimal(_ value: Double, places: Int) -> String {
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
  package static func offset(_ microseconds: UInt64) -> String {
    var bytes: [UInt8] = []
    appendOffset(microseconds, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Appends the UTF-8 bytes of ``offset(_:)`` to `bytes`, with no text built: the same
  /// arithmetic as ``decimal(_:places:)`` with three places (so the same rounding), the
  /// digits written directly.
  package static func appendOffset(_ microseconds: UInt64, to bytes: inout [UInt8]) {
    var scratch: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    let written = withUnsafeMutableBytes(of: &scratch) { raw -> Bool in
      let out = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
      guard let count = writeOffset(microseconds, to: out) else { return false }
      bytes.append(contentsOf: UnsafeBufferPointer(start: out, count: count))
      return true
    }
    if !written {
      // Not for a time a journal can hold; written as `decimal` writes it.
      bytes.append(
        contentsOf: ("+" + decimal(Double(microseconds) / 1_000_000, places: 3) + "s").utf8)
    }
  }

  /// Writes `+12.345s` (``Format/offset(_:)``'s text, with its arithmetic) at `out`, which
  /// has room for 32 bytes; returns its length, or nil for a time no journal holds (whose
  /// text ``appendOffset(_:to:)`` writes another way).
  @inline(__always)
  package static func writeOffset(_ microseconds: UInt64, to out: UnsafeMutablePointer<UInt8>)
    -> Int?
  {
    let scaled = ((Double(microseconds) / 1_000_000) * 1000).rounded()
    let whole = UInt64(scaled / 1000)
    let fraction = UInt64(scaled) - whole * 1000
    guard fraction < 1000 else { return nil }
    out[0] = UInt8(ascii: "+")
    let count = 1 &+ DoubleText.writeDigits(whole, to: out + 1)
    out[count] = UInt8(ascii: ".")
    out[count &+ 1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: fraction / 100)
    out[count &+ 2] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: fraction / 10 % 10)
    out[count &+ 3] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: fraction % 10)
    out[count &+ 4] = UInt8(ascii: "s")
    return count &+ 5
  }

  /// The last microsecond that ``offset(_:)`` shows as `milliseconds` (`+93.485s` for
  /// 93,485,000 to 93,485,499 µs; half a millisecond rounds up, unless the arithmetic of
  /// the text left it a hair below a half): nil for times the text does not tell apart
  /// to the millisecond (beyond hundreds of years).
  package static func lastMicrosecond(shownAs milliseconds: UInt64) -> UInt64? {
    let (first, overflow) = milliseconds.multipliedReportingOverflow(by: 1_000)
    guard !overflow, first <= UInt64.max - 500 else { return nil }
    let shown = offset(first)
    return [first + 500, first + 499].first { offset($0) == shown && offset($0 + 1) != shown }
  }

  /// Appends the decimal digits of `value` (`String(value)`'s bytes) to `bytes`.
  package static func appendDigits(_ value: UInt64, to bytes: inout [UInt8]) {
    var digits: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)  // 32 bytes, room for 20 digits
    var count = 0
    var rest = value
    withUnsafeMutableBytes(of: &digits) { buffer in
      repeat {
        buffer[31 - count] = UInt8(ascii: "0") + UInt8(rest % 10)
        rest /= 10
        count += 1
      } while rest > 0
      bytes.append(contentsOf: buffer[(32 - count)...])
    }
  }

  /// `1h 02m 03.5s`, `2m 05.0s`, `12.5s`: a duration for people.
  package static func duration(_ microseconds: UInt64) -> String {
    let seconds = Double(microseconds) / 1_000_000
    if seconds < 60 { return decimal(seconds, places: 1) + "s" }
    let minutes = UInt64(seconds / 60)
    let rest = seconds - Double(minutes * 60)
    return hoursAndMinutes(minutes) + (rest < 10 ? "0" : "") + decimal(rest, places: 1) + "s"
  }

  /// `12m `, `3h 07m `: the whole minutes of a time of a minute or more, as ``duration(_:)``
  /// writes them before the seconds.
  package static func hoursAndMinutes(_ minutes: UInt64) -> String {
    guard minutes >= 60 else { return "\(minutes)m " }
    return "\(minutes / 60)h " + (minutes % 60 < 10 ? "0" : "") + "\(minutes % 60)m "
  }

  /// Pads `text` on the right to `width` columns (as a terminal shows it, see
  /// ``TerminalText/width(_:)``).
  package static func padded(_ text: String, to width: Int) -> String {
    TerminalText.padded(text, toWidth: width)
  }

  /// Pads `text` on the left to `width` columns.
  package static func rightAligned(_ text: String, to width: Int) -> String {
    let missing = width - TerminalText.width(text)
    return missing > 0 ? String(repeating: " ", count: missing) + text : text
  }
}
