/// A point in a recorded session, as users write it on the command line.
///
/// - `1500`: the state just after the event with sequence number 1500; `0` and `start`
///   are the state before any event.
/// - `+12.5s`, `+250ms`, `+2m`, `+90us`: after every event at or before that offset from
///   the session's start; an offset after the last event is the end state, one before the
///   first event the start state. Several units, largest first, add up, as the player's
///   status line writes a long offset: `+4h 44m 37.942s`, `+2h30m`. Given by a user, an offset written to the millisecond
///   stands for the events the tool shows at or before it (``init(parsingAsShown:)``).
/// - `2026-11-30T16:45:00.250Z` (ISO 8601, `Z` or `±hh:mm`): likewise, at a wall-clock
///   time; a time before the session started is the start state.
/// - `end`: after the last event; `end-N`, N events before it (`end-1`: the state before
///   the last event; `end-0` is `end`).
///
/// Only a sequence number, or `end-N` past the start, can lie outside a session.
public enum Point: Sendable, Equatable, CustomStringConvertible {
  case start
  case end
  /// After the event with this sequence number.
  case sequence(UInt64)
  /// After every event at or before this many microseconds from the session's start.
  case offset(microseconds: UInt64)
  /// After every event at or before this wall-clock time (microseconds since the epoch).
  case wallClock(microsecondsSinceEpoch: Int64)
  /// This many events before the end (`end-N`, N at least 1): after the event this many
  /// before the last.
  case beforeEnd(events: UInt64)

  /// How points are written, for help texts and errors.
  package static let syntax =
    "a sequence number (1500), an offset (+12.5s, +250ms, +1h 30m), an ISO-8601 time, start, end or end-N (N events before the end)"

  /// Parses a point.
  /// - Throws: ``RewindError`` with code `invalidInput` saying what was expected.
  public init(parsing text: String) throws(RewindError) {
    let trimmed = text.trimmingWhitespace()
    switch trimmed {
    case "start": self = .start
    case "end": self = .end
    case _ where trimmed.hasPrefix("end-") && Point.isDigits(trimmed.dropFirst(4)):
      guard let count = UInt64(trimmed.dropFirst(4)) else {
        throw RewindError(
          .invalidInput,
          "\(Format.quoted(text)) is too large: end-N counts events, at most \(Format.count(UInt64.max))"
        )
      }
      self = count == 0 ? .end : .beforeEnd(events: count)
    case _ where trimmed.hasPrefix("+"):
      self = .offset(microseconds: try Point.parseOffset(String(trimmed.dropFirst()), text))
    case _ where trimmed.allSatisfy(\.isASCIIDigit) && !trimmed.isEmpty:
      guard let value = UInt64(trimmed) else {
        throw RewindError(
          .invalidInput, "\(Format.quoted(text)) is too large for a sequence number")
      }
      self = .sequence(value)
    default:
      guard let time = ISO8601.parse(trimmed) else {
        // Say what is wrong with a point that is nearly one.
        if ISO8601.parse(trimmed + "Z") != nil {
          throw RewindError(
            .invalidInput,
            "\(Format.quoted(text)) has no time zone: end an ISO-8601 time in Z (UTC) or ±hh:mm, e.g. \(trimmed)Z"
          )
        }
        let rest = String(trimmed.dropFirst())
        let restIsPoint =
          (rest.allSatisfy(\.isASCIIDigit) && !rest.isEmpty)
          || Point.microseconds(inDuration: rest) != nil
        if trimmed.hasPrefix("-") && restIsPoint,
          rest.allSatisfy({ $0 == "0" }) || Point.microseconds(inDuration: rest) == 0
        {
          // `-0`, `-0s`: no negative point, only a sign too many.
          throw RewindError(
            .invalidInput,
            "\(Format.quoted(text)) has a minus sign: the start is written 0 (or start), an offset from it +0s"
          )
        }
        if trimmed.hasPrefix("-") && restIsPoint {
          throw RewindError(
            .invalidInput,
            "\(Format.quoted(text)) is negative: the earliest point is 0 (or start), before any event; offsets count from +0s, the session's first moment"
          )
        }
        throw RewindError(
          .invalidInput,
          "\(Format.quoted(text)) is not a point: expected \(Point.syntax)"
            + Point.nearMiss(trimmed))
      }
      self = .wallClock(microsecondsSinceEpoch: time)
    }
  }

  /// Parses a point as a user means it who writes a time as the tool shows times: an
  /// offset written to the millisecond or coarser (`+93.485s`, `+250ms`, `+2m`) stands
  /// for every event shown at or before it, to the millisecond, rounded (`Format.offset`:
  /// the event at 93.485203 s is shown `+93.485s`), and is moved to the last microsecond
  /// shown so; an offset written finer (`+93.485203s`, `+93485000us`) is exact, and any
  /// other point is as ``init(parsing:)`` reads it. Decided from the text, so that of two
  /// offsets written to the same precision the later is never the earlier point. A time
  /// copied from `rewind log`, `find` or `blame` then leads back to its event, where the
  /// exact offset is the state before it about half the time.
  /// - Throws: what ``init(parsing:)`` throws.
  public init(parsingAsShown text: String) throws(RewindError) {
    let point = try Point(parsing: text)
    guard case .offset(let microseconds) = point,
      Point.isWrittenToMilliseconds(text.trimmingWhitespace().dropFirst()),
      let last = Format.lastMicrosecond(shownAs: microseconds / 1_000)
    else {
      self = point
      return
    }
    self = .offset(microseconds: last)
  }

  /// Whether an offset's text without its `+` (`93.485s`, `2m`) is written to whole
  /// milliseconds or coarser: a step of its last digit in its unit is a whole number of
  /// milliseconds (`s` with at most 3 decimals, `ms` with none, `m` with at most 4, `h`
  /// with at most 5; never `us`).
  static func isWrittenToMilliseconds(_ body: Substring) -> Bool {
    guard let (suffix, scale) = units.first(where: { body.hasSuffix($0.suffix) }) else {
      return false
    }
    let number = body.dropLast(suffix.count)
    let decimals = number.firstIndex(of: ".").map { number[$0...].count - 1 } ?? 0
    var step = scale
    for _ in 0..<decimals {
      guard step % 10 == 0 else { return false }
      step /= 10
    }
    return step % 1_000 == 0
  }

  /// Whether `text` is ASCII digits, at least one.
  static func isDigits(_ text: Substring) -> Bool {
    !text.isEmpty && text.allSatisfy(\.isASCIIDigit)
  }

  /// What a text that is no point most likely meant, as the end of a sentence (`; an
  /// offset starts with +: +12s`), or nothing.
  static func nearMiss(_ text: String) -> String {
    let lowered = text.lowercased()
    if lowered == "start" || lowered == "end"
      || (lowered.hasPrefix("end-") && isDigits(lowered.dropFirst(4)))
    {
      return "; \(lowered.hasPrefix("end") ? "end" : lowered) is written in lower case"
    }
    if text.hasPrefix("end-") {
      return "; end-N counts events before the end: end-1 is the state before the last event"
    }
    if text.hasPrefix("end+") {
      return "; nothing comes after the end: end-N is N events before it"
    }
    if microseconds(inDuration: text) != nil {
      return "; an offset starts with +: +\(text)"
    }
    // A decimal number: digits and one point (`1.5`; not `1e3` or `0x1p3`, no offset).
    if text.allSatisfy({ $0.isASCIIDigit || $0 == "." }),
      text.filter({ $0 == "." }).count == 1, text.contains(where: \.isASCIIDigit)
    {
      return "; a sequence number is a whole number, and an offset has a unit: +\(text)s"
    }
    if let problem = timeProblem(text) { return "; " + problem }
    // A date alone (`sessions --since` takes one: its midnight, UTC).
    if ISO8601.parse(text + "T00:00:00Z") != nil {
      return "; a point in time has its time and zone too: \(text)T00:00:00Z for its midnight, UTC"
    }
    return ""
  }

  /// What is wrong with `text`, written as an ISO-8601 time (a date, `T`, a time) that is
  /// none: a zone without its colon, a decimal comma, no seconds, a date or a time that
  /// does not exist; nil for any other text (walk of the query commands, WQ-8: each was
  /// only "expected a sequence number …").
  static func timeProblem(_ text: String) -> String? {
    let text = text.uppercased()
    let parts = text.split(separator: "T", maxSplits: 1, omittingEmptySubsequences: false)
    let date = parts[0].split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 2, date.count == 3, date.allSatisfy({ !$0.isEmpty && isDigits($0) }),
      date[0].count == 4
    else { return nil }
    if text.contains(",") { return "decimals of a second follow a point, not a comma" }
    let time = parts[1]
    let clockEnd = time.firstIndex { !($0.isASCIIDigit || $0 == ":" || $0 == ".") } ?? time.endIndex
    let clock = time[..<clockEnd]
    let zone = time[clockEnd...]
    if let sign = zone.first, sign == "+" || sign == "-", zone.count == 5,
      isDigits(zone.dropFirst())
    {
      return "a zone is written ±hh:mm: \(sign)\(zone.dropFirst().prefix(2)):\(zone.suffix(2))"
    }
    let fields =
      clock.split(separator: ".", maxSplits: 1)[...].first?
      .split(separator: ":", omittingEmptySubsequences: false) ?? []
    if fields.count == 2 { return "a time has its seconds too: hh:mm:ss" }
    let (year, month, day) = (Int(date[0]) ?? 0, Int(date[1]) ?? 0, Int(date[2]) ?? 0)
    guard (1...12).contains(month) else { return "there is no month \(date[1])" }
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
    guard (1...days).contains(day) else {
      return "there is no day \(date[2]) in \(date[0])-\(date[1]), which has \(days) days"
    }
    guard fields.count == 3, fields.allSatisfy({ $0.count == 2 && isDigits($0) }) else {
      return nil
    }
    let limits = [("hour", 23), ("minute", 59), ("second", 59)]
    for (field, (name, limit)) in zip(fields, limits) where Int(field) ?? 0 > limit {
      return "there is no \(name) \(field) (00 to \(limit))"
    }
    if let sign = zone.first, sign == "+" || sign == "-", zone.count == 6,
      let hours = Int(zone.dropFirst().prefix(2)), hours > 23
    {
      return "a zone is at most 23 hours from UTC"
    }
    return nil
  }

  /// Microseconds in a duration written as a number and a unit: `12.5s`, `250ms`,
  /// `90us`, `2m`, `1h`; nil if it is not one.
  package static func microseconds(inDuration text: String) -> UInt64? {
    try? parseOffset(text, text)
  }

  static func parseOffset(_ body: String, _ original: String) throws(RewindError) -> UInt64 {
    let (microseconds, tooLarge) = offset(body)
    if let microseconds { return microseconds }
    if tooLarge {
      throw RewindError(
        .invalidInput,
        "\(Format.quoted(original)) is too large for an offset: offsets stop below 18,000,000,000,000,000,000us (570,000 years)"
      )
    }
    throw RewindError(
      .invalidInput,
      "\(Format.quoted(original)) is not an offset: expected + then a number and a unit (us, ms, s, m, h), e.g. +12.5s, or several, largest first, e.g. +1h 30m"
    )
  }

  /// The microseconds of a duration with its unit (`12.5s`), or nil, and then whether it
  /// is a decimal number with a unit whose microseconds are beyond any offset's
  /// (`99999999999999999999s`).
  package static func offset(_ body: some StringProtocol) -> (
    microseconds: UInt64?, tooLarge: Bool
  ) {
    if let microseconds = body.utf8.withContiguousStorageIfAvailable(asciiOffset) ?? nil {
      return (microseconds, false)
    }
    if let (microseconds, fits) = compoundOffset(body) { return (fits ? microseconds : nil, !fits) }
    var tooLarge = false
    for (suffix, scale) in units where body.hasSuffix(suffix) {
      // "ms" ends in "s" and "us" too: only accept when what is left is a number.
      let number = Substring(body.dropLast(suffix.count))
      guard let microseconds = exactMicroseconds(number, scale: scale),
        microseconds < maximumOffset
      else {
        tooLarge = tooLarge || isDecimal(number)
        continue
      }
      return (microseconds, false)
    }
    return (nil, tooLarge)
  }

  /// The microseconds of an ASCII duration with its unit (`12.5s`, `250ms`), read byte by
  /// byte: digits, at most one decimal point, and `us`, `ms`, `s`, `m` or `h`, within an
  /// offset's range; nil for any other text, which ``offset(_:)`` reads character by
  /// character (and says why it is no offset).
  ///
  /// Without a `Character` or an allocation: the scripts `rewind export --scenario` writes
  /// have a step on every line.
  static func asciiOffset(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64? {
    var end = bytes.count
    while end > 0, bytes[end - 1] >= UInt8(ascii: "a"), bytes[end - 1] <= UInt8(ascii: "z") {
      end -= 1
    }
    let scale: UInt64
    switch (bytes.count - end, bytes.count - end == 0 ? 0 : bytes[end]) {
    case (2, UInt8(ascii: "u")) where bytes[end + 1] == UInt8(ascii: "s"): scale = 1
    case (2, UInt8(ascii: "m")) where bytes[end + 1] == UInt8(ascii: "s"): scale = 1_000
    case (1, UInt8(ascii: "s")): scale = 1_000_000
    case (1, UInt8(ascii: "m")): scale = 60_000_000
    case (1, UInt8(ascii: "h")): scale = 3_600_000_000
    default: return nil
    }
    guard
      let microseconds = exactMicroseconds(
        UnsafeBufferPointer(rebasing: bytes[..<end]), scale: scale),
      microseconds < maximumOffset
    else { return nil }
    return microseconds
  }

  /// The microseconds of an offset of several units, largest first (`4h 44m 37.942s`,
  /// `2h30m`, as `Format.offset` writes a long one): two or more groups of a number and a
  /// unit, each unit smaller than the one before, with one space between them or none,
  /// only the last number with decimals; then whether the sum is within an offset's range.
  /// Nil for any other text (one group too: ``offset(_:)`` reads it).
  static func compoundOffset(_ body: some StringProtocol) -> (microseconds: UInt64, fits: Bool)? {
    var rest = Substring(body)
    var total: UInt64 = 0
    var fits = true
    var previous = UInt64.max
    var groups = 0
    while !rest.isEmpty {
      let end = rest.firstIndex { !($0.isASCIIDigit || $0 == ".") } ?? rest.endIndex
      let number = rest[..<end]
      rest = rest[end...]
      guard let (suffix, scale) = unitsLongestFirst.first(where: { rest.hasPrefix($0.suffix) }),
        scale < previous, isDecimal(number)
      else { return nil }
      rest = rest.dropFirst(suffix.count)
      if rest.first == " " {
        rest = rest.dropFirst()
        guard !rest.isEmpty else { return nil }
      }
      // Decimals in the last number only (`1.5h 3m` is no offset).
      guard !number.contains(".") || rest.isEmpty else { return nil }
      previous = scale
      groups += 1
      if let microseconds = exactMicroseconds(number, scale: scale) {
        let (sum, overflow) = total.addingReportingOverflow(microseconds)
        if overflow { fits = false } else { total = sum }
      } else {
        fits = false
      }
    }
    guard groups >= 2 else { return nil }
    return (total, fits && total < maximumOffset)
  }

  /// ``units``, the two-letter ones first, as a group's unit is matched at its start
  /// (`ms` is not `m` then `s`).
  static let unitsLongestFirst = units.sorted { $0.suffix.count > $1.suffix.count }

  /// An offset's units and their microseconds, each after the ones it ends with (`ms`
  /// and `us` before `s`), as the text is matched against them in turn.
  static let units: [(suffix: String, scale: UInt64)] = [
    ("us", 1), ("µs", 1), ("ms", 1_000), ("s", 1_000_000), ("m", 60_000_000),
    ("h", 3_600_000_000),
  ]

  /// Offsets stop below 1.8 × 10^19 microseconds (570,000 years), within a `UInt64`.
  static let maximumOffset: UInt64 = 18_000_000_000_000_000_000

  /// Whether `number` is digits with at most one decimal point, and some digit.
  static func isDecimal(_ number: Substring) -> Bool {
    let parts = number.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
    return parts.joined().allSatisfy(\.isASCIIDigit) && !parts.joined().isEmpty
  }

  /// `number` (digits with at most one decimal point) times `scale`, without what is
  /// finer than a microsecond (a point is the state after every event at or before its
  /// time: `+1.3999999s` is before an event at 1.4 s); nil when it is no such number or
  /// does not fit 64 bits.
  ///
  /// Read digit by digit, never through a `Double`, so that every offset ``formatOffset(_:)``
  /// writes reads back exactly, however large.
  static func exactMicroseconds(_ number: Substring, scale: UInt64) -> UInt64? {
    var number = number
    return number.withUTF8 { exactMicroseconds($0, scale: scale) }
  }

  /// Whether a duration with its unit, or several (`12.5s`, `1m 0.0000005s`), is a whole
  /// number of microseconds: a script's time step finer than that is refused, where a
  /// point drops it. True for text that is no duration.
  package static func isWholeMicroseconds(_ body: some StringProtocol) -> Bool {
    // Only the last number has decimals: its digits and point, then its unit.
    let unit = body.reversed().prefix { $0.isLetter }.count
    let number = body.dropLast(unit).reversed().prefix { $0.isASCIIDigit || $0 == "." }
    let suffix = String(body.suffix(unit))
    guard let scale = units.first(where: { $0.suffix == suffix })?.scale else { return true }
    var digits = String(number.reversed())
    return digits.withUTF8 { microseconds($0, scale: scale)?.isWhole ?? true }
  }

  /// ``exactMicroseconds(_:scale:)`` of a number's UTF-8 bytes: ASCII digits with at most
  /// one `.` (any other byte, a non-ASCII digit's too, is no number).
  static func exactMicroseconds(_ number: UnsafeBufferPointer<UInt8>, scale: UInt64) -> UInt64? {
    microseconds(number, scale: scale)?.whole
  }

  /// ``exactMicroseconds(_:scale:)``, and whether nothing finer than a microsecond was
  /// dropped.
  static func microseconds(_ number: UnsafeBufferPointer<UInt8>, scale: UInt64) -> (
    whole: UInt64, isWhole: Bool
  )? {
    let point = number.firstIndex(of: UInt8(ascii: ".")) ?? number.count
    guard number.count > (point < number.count ? 1 : 0) else { return nil }
    var value: UInt64 = 0
    for byte in number[..<point] {
      let digit = byte &- UInt8(ascii: "0")
      guard digit < 10 else { return nil }
      let (tenfold, overflow) = value.multipliedReportingOverflow(by: 10)
      let (sum, carry) = tenfold.addingReportingOverflow(UInt64(digit))
      guard !overflow, !carry else { return nil }
      value = sum
    }
    let (scaled, overflow) = value.multipliedReportingOverflow(by: scale)
    guard !overflow else { return nil }
    // 0.fraction × scale by long multiplication from the last digit: `carry` ends as its
    // whole part, and each digit it drops is of what is finer.
    var carry: UInt64 = 0
    var isWhole = true
    for byte in number[min(point + 1, number.count)...].reversed() {
      let digit = byte &- UInt8(ascii: "0")
      guard digit < 10 else { return nil }
      let product = UInt64(digit) * scale + carry
      carry = product / 10
      isWhole = isWhole && product % 10 == 0
    }
    let (total, more) = scaled.addingReportingOverflow(carry)
    return more ? nil : (total, isWhole)
  }

  public var description: String {
    switch self {
    case .start: "start"
    case .end: "end"
    case .sequence(let value): String(value)
    case .offset(let microseconds): "+" + Point.formatOffset(microseconds)
    case .wallClock(let time): ISO8601.format(time)
    case .beforeEnd(let count): "end-\(count)"
    }
  }

  /// `12.5s`, `250ms`, `0s`: an offset in the unit that reads best, written exactly, so
  /// that it reads back as the same offset.
  package static func formatOffset(_ microseconds: UInt64) -> String {
    if microseconds == 0 { return "0s" }
    if microseconds % 1_000 != 0 && microseconds < 1_000_000 { return "\(microseconds)us" }
    if microseconds < 1_000_000 { return "\(microseconds / 1_000)ms" }
    let seconds = String(microseconds / 1_000_000)
    let fraction = microseconds % 1_000_000
    guard fraction != 0 else { return seconds + "s" }
    var decimals = String(fraction)
    decimals = String(repeating: "0", count: 6 - decimals.count) + decimals
    while decimals.hasSuffix("0") { decimals.removeLast() }
    return seconds + "." + decimals + "s"
  }
}

extension Character {
  /// Whether the character is one of the ASCII digits 0–9, alone: a range of characters
  /// would also hold a digit with a combining mark (`2` + U+0312), which sorts between
  /// them.
  var isASCIIDigit: Bool { asciiValue.map { (0x30...0x39).contains($0) } ?? false }
}

extension String {
  func trimmingWhitespace() -> String {
    var scalars = Substring(self)
    while scalars.first?.isWhitespace == true { scalars.removeFirst() }
    while scalars.last?.isWhitespace == true { scalars.removeLast() }
    return String(scalars)
  }
}
