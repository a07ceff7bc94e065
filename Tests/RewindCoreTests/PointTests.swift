import TestSupport
import Testing

@testable import RewindCore

@Suite("Points")
struct PointTests {
  @Test(
    "every written form parses",
    arguments: [
      ("start", Point.start), ("end", .end), ("0", .sequence(0)), ("1500", .sequence(1_500)),
      ("+12.5s", .offset(microseconds: 12_500_000)), ("+250ms", .offset(microseconds: 250_000)),
      ("+90us", .offset(microseconds: 90)), ("+2m", .offset(microseconds: 120_000_000)),
      ("+1h", .offset(microseconds: 3_600_000_000)), ("+0s", .offset(microseconds: 0)),
      (
        "2026-11-30T16:45:00Z",
        .wallClock(microsecondsSinceEpoch: 1_796_057_100_000_000)
      ),
      (
        "2026-11-30T17:45:00.25+01:00",
        .wallClock(microsecondsSinceEpoch: 1_796_057_100_250_000)
      ),
      (" 42 ", .sequence(42)),
      // Several units, largest first, as the player's status line writes a long offset.
      ("+4h 44m 37.942s", .offset(microseconds: 17_077_942_000)),
      ("+2h30m", .offset(microseconds: 9_000_000_000)),
      ("+1m 07.100s", .offset(microseconds: 67_100_000)),
      ("+1s 500ms 20us", .offset(microseconds: 1_500_020)),
    ])
  func parses(text: String, point: Point) throws {
    #expect(try Point(parsing: text) == point)
  }

  @Test(
    "malformed points say what a point is",
    arguments: [
      "", "abc", "-5", "+", "+5", "+5x", "+-1s", "2026-13-01T00:00:00Z", "2026-02-30T00:00:00Z",
      "99999999999999999999999", "+1e400s",
      // Units out of order, repeated, decimals before the last, two spaces, one at the end.
      "+1m 1h", "+1m 2m", "+1.5h 3m", "+1h  30m", "+1h 30", "+1h 30m x",
    ])
  func malformed(text: String) {
    #expect {
      try Point(parsing: text)
    } throws: { error in
      let error = error as! RewindError
      return error.code == .invalidInput && error.message.contains("'\(text)'")
    }
  }

  @Test("points print in the form they are written")
  func printing() throws {
    for text in [
      "start", "end", "1500", "+12.5s", "+250ms", "+90us", "2026-11-30T16:45:00Z",
      "2026-11-30T16:45:00.25Z",
    ] {
      let point = try Point(parsing: text)
      #expect(try Point(parsing: point.description) == point)
    }
    #expect(Point.offset(microseconds: 12_500_000).description == "+12.5s")
    #expect(ISO8601.format(1_796_057_100_250_000) == "2026-11-30T16:45:00.250Z")
    #expect(ISO8601.format(-1) == "1969-12-31T23:59:59.999999Z")
    #expect(
      ISO8601.format(ISO8601.daysFromCivil(year: -6, month: 1, day: 1) * 86_400_000_000)
        == "-0006-01-01T00:00:00Z")
    #expect(ISO8601.format(.min).hasPrefix("-29"))
    #expect(ISO8601.format(.max).hasPrefix("294247-"))
    for days in stride(from: Int64(-719_000), through: 2_900_000, by: 997) {  // years 1–9909
      let time = days * 86_400_000_000 + 12_345_678
      #expect(ISO8601.parse(ISO8601.format(time)) == time)
    }
  }

  @Test("a UTC offset has hours 00–23 and minutes 00–59, as the time of day does")
  func offsets() throws {
    for text in [
      "2026-11-30T15:05:00-99:00", "2026-11-30T15:05:00+24:00", "2026-11-30T15:05:00+01:60",
      "2026-11-30T15:05:00+00:99",
    ] {
      #expect(ISO8601.parse(text) == nil, "\(text)")
    }
    #expect(ISO8601.parse("2026-11-30T15:05:00+23:59") == ISO8601.parse("2026-11-29T15:06:00Z"))
    #expect(ISO8601.parse("2026-11-30T15:05:00-05:30") == ISO8601.parse("2026-11-30T20:35:00Z"))
  }

  /// Found by the fuzzer (Fuzz/Regressions/point/leap-second-into-year-10000): a time
  /// whose UTC falls outside the years 0000–9999 printed in a form (`10000-…`,
  /// `-0001-…`) that does not read back. Such times are refused; the years' edges read
  /// and print back as themselves.
  @Test("a time read lies in the years 0000–9999 in UTC, and prints back as itself")
  func timesOutsideTheYearsPrinted() throws {
    for text in [
      "9999-12-31T23:59:60Z", "9999-12-31T23:30:00-01:00", "9999-12-31T23:59:59.5-00:01",
      "0000-01-01T00:00:00+00:01", "0000-01-01T00:59:59.999999+01:00",
    ] {
      #expect(ISO8601.parse(text) == nil, "\(text)")
      #expect(throws: RewindError.self) { try Point(parsing: text) }
    }
    for text in [
      "9999-12-31T23:59:59.999999Z", "0000-01-01T00:00:00Z", "9999-12-31T23:59:60+00:01",
      "0000-01-01T00:00:00-00:01", "2016-12-31T23:59:60Z",
    ] {
      let point = try Point(parsing: text)
      #expect(try Point(parsing: point.description) == point, "\(text)")
    }
    #expect(
      ISO8601.format(try #require(ISO8601.parse("9999-12-31T23:59:59.999999Z")))
        == "9999-12-31T23:59:59.999999Z")
    #expect(
      ISO8601.format(try #require(ISO8601.parse("2016-12-31T23:59:60Z")))
        == "2017-01-01T00:00:00Z")
  }

  /// Found by the fuzzer (Fuzz/Regressions/point): an offset of more than 2^53
  /// microseconds printed through a Double, and read back through one, as another offset.
  @Test(
    "an offset prints exactly and reads back as itself, however large",
    arguments: [
      "+17999999999999997952us", "+12345678901234567us", "+4503599627370497us",
      "+17999999999999.999999s", "+0.0000005s", "+1.5us", "+299999999999.9999995m",
    ])
  func offsetRoundTrip(text: String) throws {
    let point = try Point(parsing: text)
    #expect(try Point(parsing: point.description) == point, "\(text) prints as \(point)")
  }

  @Test("offsets are read exactly, without what is finer than a microsecond")
  func exactOffsets() throws {
    #expect(
      try Point(parsing: "+17999999999999997952us")
        == .offset(microseconds: 17_999_999_999_999_997_952))
    #expect(
      try Point(parsing: "+17999999999999.997952s")
        == .offset(microseconds: 17_999_999_999_999_997_952))
    // Before an event at 1.4 s, however close (walk of the query commands, WQ-1).
    #expect(try Point(parsing: "+1.3999999s") == .offset(microseconds: 1_399_999))
    #expect(try Point(parsing: "+1399999.5us") == .offset(microseconds: 1_399_999))
    #expect(try Point(parsing: "+0.023333333m") == .offset(microseconds: 1_399_999))
    #expect(try Point(parsing: "+1m 0.0000019s") == .offset(microseconds: 60_000_001))
    #expect(try Point(parsing: "+0.0000005s") == .offset(microseconds: 0))
    #expect(try Point(parsing: "+1.5us") == .offset(microseconds: 1))
    for (text, whole) in [
      ("1.5us", false), ("0.0000005s", false), ("1m 0.0000019s", false), ("0.0000010s", true),
      ("1.25ms", true), ("0.1h", true), ("12s", true), ("1h 30m", true),
    ] {
      #expect(Point.isWholeMicroseconds(text) == whole, "\(text)")
    }
    #expect(try Point(parsing: "+.5ms") == .offset(microseconds: 500))
    #expect(try Point(parsing: "+5.s") == .offset(microseconds: 5_000_000))
    #expect(
      Point.offset(microseconds: 17_999_999_999_999_997_952).description
        == "+17999999999999.997952s")
    #expect(Point.offset(microseconds: 1_000_001).description == "+1.000001s")
    for text in ["+18000000000000000000us", "+1.2.3s", "+.s", "+1e3s", "+5000000000h"] {
      #expect(throws: RewindError.self, "\(text)") { try Point(parsing: text) }
    }
  }

  @Test(
    "a time written to the millisecond stands for every event shown at or before it; one written finer is exact"
  )
  func timesAsShown() throws {
    // The event at 93.485203 s is shown +93.485s: the point written so reaches it.
    #expect(Format.offset(93_485_203) == "+93.485s")
    for (text, microseconds) in [
      ("+93.485s", 93_485_499), ("+12.5s", 12_500_499), ("+0s", 499), ("+2m", 120_000_499),
      ("+250ms", 250_499), ("+1.5m", 90_000_499), ("+0.0001h", 360_499),
      // Written finer than the millisecond: exact, so that of two such points the later
      // is never the earlier (+93485000us and +93485001us).
      ("+93.485203s", 93_485_203), ("+93485000us", 93_485_000), ("+93485001us", 93_485_001),
      ("+93.4850s", 93_485_000), ("+250.0ms", 250_000), ("+1.00001m", 60_000_600),
    ] as [(String, UInt64)] {
      #expect(try Point(parsingAsShown: text) == .offset(microseconds: microseconds), "\(text)")
    }
    // Several units: the last one's decimals tell the precision, as for one unit.
    #expect(try Point(parsingAsShown: "+4h 44m 37.942s") == .offset(microseconds: 17_077_942_499))
    #expect(try Point(parsingAsShown: "+1h 30m") == .offset(microseconds: 5_400_000_499))
    #expect(try Point(parsingAsShown: "+1s 5us") == .offset(microseconds: 1_000_005))
    #expect {
      try Point(parsing: "+5000000000h 1s")
    } throws: { error in
      (error as? RewindError)?.message.contains("is too large for an offset") == true
    }
    // No time, or none the text tells apart to the millisecond: as written.
    for point in ["1500", "start", "end", "2026-11-30T09:15:00.25Z", "+17999999999999.997s"] {
      #expect(try Point(parsingAsShown: point) == Point(parsing: point), "\(point)")
    }
    // Every time, at random and near each half millisecond: the offset shown for it, read
    // back as shown, is at or after it and shown the same, and the next microsecond is not.
    var random = SplitMix64(seed: testSeed("PointTests.timesAsShown"))
    var times: [UInt64] = [0, 499, 500, 501, 999, 1_000, 93_485_203, 73_584_805]
    for _ in 0..<20_000 {
      let millisecond = random.next() % 10_000_000_000
      times.append(
        millisecond * 1_000 + [499, 500, 501, random.next() % 1_000][Int(random.next() % 4)])
    }
    for time in times {
      let shown = Format.offset(time)
      guard case .offset(let last) = try Point(parsingAsShown: shown) else {
        Issue.record("\(shown) is no offset")
        continue
      }
      #expect(last >= time && Format.offset(last) == shown, "\(time) µs, shown \(shown)")
      #expect(Format.offset(last + 1) != shown, "\(time) µs, shown \(shown)")
    }
  }

  /// Found by the fuzzer (Fuzz/Regressions/point): a digit followed by a combining mark
  /// (`0` + U+0310) counted as a digit, so that an offset trapped and a sequence number
  /// was called too large.
  @Test(
    "a digit with a combining mark is not a digit",
    arguments: ["1\u{312}", "+10\u{310}2.5s", "+1\u{312}s", "+0.5\u{301}ms"])
  func combiningMarks(text: String) {
    #expect {
      try Point(parsing: text)
    } throws: { error in
      let error = error as! RewindError
      return error.code == .invalidInput && !error.message.contains("too large")
    }
    #expect(Point.microseconds(inDuration: String(text.dropFirst())) == nil)
  }

  @Test("end-N is N events before the end: it prints as written, end-0 is the end")
  func fromTheEnd() throws {
    for text in ["end-1", "end-25", " end-3 ", "end-18446744073709551615"] {
      let point = try Point(parsing: text)
      #expect(point.description == text.filter { $0 != " " })
      #expect(try Point(parsing: point.description) == point)
    }
    #expect(try Point(parsing: "end-0") == .end)
    #expect(try Point(parsing: "end-01") == Point(parsing: "end-1"))
    let large = #expect(throws: RewindError.self) {
      try Point(parsing: "end-18446744073709551616")
    }
    #expect(
      large?.message
        == "'end-18446744073709551616' is too large: end-N counts events, at most 18,446,744,073,709,551,615"
    )
    for (text, hint) in [
      ("end-", "; end-N counts events before the end: end-1 is the state before the last event"),
      ("end-1s", "; end-N counts events before the end: end-1 is the state before the last event"),
      ("end+1", "; nothing comes after the end: end-N is N events before it"),
      ("End-1", "; end is written in lower case"),
    ] {
      let error = #expect(throws: RewindError.self) { try Point(parsing: text) }
      #expect(
        error?.message == "'\(text)' is not a point: expected \(Point.syntax)\(hint)",
        "\(String(describing: error))")
    }
  }

  @Test("end-N resolves to N events before the last; past the start it is out of range")
  func fromTheEndResolved() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("tally.journal")
    try recordTally(at: path, count: 30)
    let timeline = try Timeline<StandardTally>(path: path)
    #expect(try timeline.resolve(Point(parsing: "end-1")) == 29)
    #expect(try timeline.resolve(Point(parsing: "end-30")) == 0)
    #expect(try timeline.resolveKnown(Point(parsing: "end-5")) == 25)
    let error = #expect(throws: RewindError.self) {
      try timeline.resolve(Point(parsing: "end-31"))
    }
    #expect(error?.code == .outOfRange)
    #expect(
      error?.message
        == "end-31 is before the start of the session (points are 0–30; end-30 is the start)")
  }

  /// A text that is nearly a point says what it most likely meant.
  @Test func nearMissesSayWhatWasMeant() {
    let cases: [(String, String)] = [
      ("12s", "; an offset starts with +: +12s"),
      ("250ms", "; an offset starts with +: +250ms"),
      ("END", "; end is written in lower case"),
      ("Start", "; start is written in lower case"),
      ("1.5", "; a sequence number is a whole number, and an offset has a unit: +1.5s"),
      (
        "2026-11-30",
        "; a point in time has its time and zone too: 2026-11-30T00:00:00Z for its midnight, UTC"
      ),
    ]
    for (text, hint) in cases {
      let error = #expect(throws: RewindError.self) { try Point(parsing: text) }
      #expect(
        error?.message == "'\(text)' is not a point: expected \(Point.syntax)\(hint)",
        "\(String(describing: error))")
    }
    for text in ["soon", "1e3", "0x1p3", ".", "2026-02-30", "2026-11"] {
      let plain = #expect(throws: RewindError.self) { try Point(parsing: text) }
      #expect(plain?.message == "'\(text)' is not a point: expected \(Point.syntax)")
    }
  }
}
