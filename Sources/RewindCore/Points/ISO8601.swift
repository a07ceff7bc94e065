/// ISO-8601 timestamps in the one form Rewind reads and writes:
/// `YYYY-MM-DDTHH:MM:SS[.ffffff](Z|±HH:MM)`, as microseconds since the Unix epoch.
///
/// A time it reads lies in the years 0000–9999 once taken to UTC, so that it prints
/// (``format(_:)``, always in UTC) as text of the same form, which reads back as itself:
/// `9999-12-31T23:59:60Z` (a leap second) and `9999-12-31T23:30:00-01:00` would print
/// in the year 10000 and are refused.
///
/// Written here rather than with Foundation's formatters so that parsing is exact to the
/// microsecond, allocation-light, and the same on every platform.
package enum ISO8601 {
  /// Parses a timestamp; nil if it is not of the accepted form.
  package static func parse(_ text: String) -> Int64? {
    let bytes = Array(text.utf8)
    var position = 0
    func number(_ digits: Int) -> Int64? {
      guard position + digits <= bytes.count else { return nil }
      var value: Int64 = 0
      for byte in bytes[position..<(position + digits)] {
        guard byte >= 0x30, byte <= 0x39 else { return nil }
        value = value * 10 + Int64(byte - 0x30)
      }
      position += digits
      return value
    }
    func expect(_ character: UInt8) -> Bool {
      guard position < bytes.count, bytes[position] == character else { return false }
      position += 1
      return true
    }
    guard let year = number(4), expect(0x2D), let month = number(2), expect(0x2D),
      let day = number(2), expect(0x54) || expect(0x74) || expect(0x20), let hour = number(2),
      expect(0x3A), let minute = number(2), expect(0x3A), let second = number(2)
    else { return nil }
    var micros: Int64 = 0
    if expect(0x2E) {
      var digits = 0
      while position < bytes.count, bytes[position] >= 0x30, bytes[position] <= 0x39 {
        if digits < 6 { micros = micros * 10 + Int64(bytes[position] - 0x30) }
        digits += 1
        position += 1
      }
      guard digits > 0 else { return nil }
      for _ in digits..<max(digits, 6) { micros *= 10 }
    }
    var offsetSeconds: Int64 = 0
    if expect(0x5A) || expect(0x7A) {
    } else if position < bytes.count, bytes[position] == 0x2B || bytes[position] == 0x2D {
      let sign: Int64 = bytes[position] == 0x2D ? -1 : 1
      position += 1
      guard let hours = number(2), expect(0x3A), let minutes = number(2), hours < 24,
        minutes < 60
      else { return nil }
      offsetSeconds = sign * (hours * 3_600 + minutes * 60)
    } else {
      return nil
    }
    guard position == bytes.count, (1...12).contains(month), day >= 1,
      day <= daysInMonth(year: year, month: month), hour < 24, minute < 60, second < 61
    else { return nil }
    let days = daysFromCivil(year: year, month: month, day: day)
    let seconds = days * 86_400 + hour * 3_600 + minute * 60 + second - offsetSeconds
    let time = seconds * 1_000_000 + micros
    return readable.contains(time) ? time : nil
  }

  /// The times of the years 0000–9999 in UTC: those ``format(_:)`` prints in the form
  /// ``parse(_:)`` reads.
  static let readable: ClosedRange<Int64> =
    daysFromCivil(year: 0, month: 1, day: 1) * 86_400_000_000...daysFromCivil(
      year: 10_000, month: 1, day: 1) * 86_400_000_000 - 1

  /// Formats microseconds since the epoch as `YYYY-MM-DDTHH:MM:SS.ffffffZ` (the fraction
  /// only when it is not zero, trimmed to milliseconds when it can be).
  package static func format(_ microsecondsSinceEpoch: Int64) -> String {
    var seconds = microsecondsSinceEpoch / 1_000_000
    var micros = microsecondsSinceEpoch % 1_000_000
    if micros < 0 {
      micros += 1_000_000
      seconds -= 1
    }
    var days = seconds / 86_400
    var rest = seconds % 86_400
    if rest < 0 {
      rest += 86_400
      days -= 1
    }
    let (year, month, day) = civilFromDays(days)
    func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
    let yearDigits = String(year.magnitude)
    let yearText =
      (year < 0 ? "-" : "") + String(repeating: "0", count: max(0, 4 - yearDigits.count))
      + yearDigits
    var text =
      yearText
      + "-\(two(month))-\(two(day))T\(two(rest / 3_600)):\(two(rest % 3_600 / 60)):\(two(rest % 60))"
    if micros != 0 {
      let digits = String(micros)
      var fraction = String(repeating: "0", count: 6 - digits.count) + digits
      if fraction.hasSuffix("000") { fraction.removeLast(3) }
      text += "." + fraction
    }
    return text + "Z"
  }

  static func daysInMonth(year: Int64, month: Int64) -> Int64 {
    switch month {
    case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
  static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  static func civilFromDays(_ days: Int64) -> (Int64, Int64, Int64) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthPrime = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * monthPrime + 2) / 5 + 1
    let month = monthPrime < 10 ? monthPrime + 3 : monthPrime - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }
}
