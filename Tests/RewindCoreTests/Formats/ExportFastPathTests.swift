import Navigation
import TestSupport
import Testing

@testable import RewindCore
@testable import RewindJournal

/// `rewind export`'s fast paths against the general ones they stand for (issue 17): the
/// numbers a writer remembers against `DoubleText`'s, a line's start kept from line to
/// line against `JSONWriter`'s keys and integers, and the export loop (events decoded,
/// not replayed) against the lines `JSONLines.Writer` writes for every replayed event.
@Suite("Export's fast paths write what the general paths write")
struct ExportFastPathTests {
  /// The text of `values` written by a writer that remembers numbers, and by one that
  /// does not, each in an array.
  func texts(_ values: [Double]) -> (remembered: [UInt8], plain: [UInt8]) {
    var remembering = JSONWriter(remembersNumbers: true)
    var plain = JSONWriter()
    remembering.beginArray()
    plain.beginArray()
    for value in values {
      remembering.double(value)
      plain.double(value)
    }
    remembering.endArray()
    plain.endArray()
    return (remembering.bytes, plain.bytes)
  }

  @Test("a writer that remembers numbers writes each as DoubleText does, found or not")
  func rememberedNumbers() {
    let seed = testSeed("ExportFastPathTests.rememberedNumbers")
    var random = SplitMix64(seed: seed)
    // A few values often (as scroll offsets repeat), random bit patterns, and values whose
    // entries collide (the same top 12 bits of the hash), one after another.
    let pool = (0..<300).map { _ in Double(random.next() % 6_000) / 6 }
    let edges: [Double] = [
      0, -0.0, 1, -1, 0.1, 1e-5, 1e16, -2.2250738585072014e-308, .leastNonzeroMagnitude,
      -.leastNormalMagnitude, .greatestFiniteMagnitude, -.greatestFiniteMagnitude, 1e-7,
      9_007_199_254_740_992, 123_456_789.123_456_78,
    ]
    func slot(_ value: Double) -> UInt64 { (value.bitPattern &* 0x9E37_79B9_7F4A_7C15) >> 52 }
    var colliding: [Double] = []
    let target = slot(pool[0])
    while colliding.count < 20 {
      let value = Double(random.next() % 1_000_000) / 7
      if slot(value) == target { colliding.append(value) }
    }
    var values: [Double] = []
    for _ in 0..<30_000 {
      switch random.next() % 8 {
      case 0: values.append(edges[Int(random.next() % UInt64(edges.count))])
      case 1:
        let value = Double(bitPattern: random.next())
        values.append(value.isFinite ? value : 0.5)
      case 2: values.append(colliding[Int(random.next() % UInt64(colliding.count))])
      default: values.append(pool[Int(random.next() % UInt64(pool.count))])
      }
    }
    let (remembered, plain) = texts(values)
    #expect(remembered == plain, "seed \(seed)")
    // Each value alone too, after the others: a number found writes its own text.
    for value in edges + colliding + pool.prefix(20) {
      var writer = JSONWriter(remembersNumbers: true)
      for _ in 0..<3 {
        writer.removeAll()
        writer.double(value)
        #expect(String(decoding: writer.bytes, as: UTF8.self) == value.description)
      }
    }
  }

  /// `{"seq":…,"time_us":…` as `JSONWriter` writes it with its keys and integers.
  func expectedStart(_ sequence: UInt64, _ time: UInt64) -> [UInt8] {
    var writer = JSONWriter()
    writer.beginObject()
    writer.plainKey("seq")
    writer.int(Int64(sequence))
    writer.plainKey("time_us")
    writer.int(Int64(time))
    return writer.bytes
  }

  @Test("a line's start, kept from line to line, is what the writer's keys and integers write")
  func lineStart() {
    let seed = testSeed("ExportFastPathTests.lineStart")
    var random = SplitMix64(seed: seed)
    var pairs: [(UInt64, UInt64)] = []
    // Runs of sequences crossing every power of ten, with times crossing 10⁸ boundaries.
    var power: UInt64 = 1
    for _ in 0..<19 {
      var time = random.next() % (UInt64(Int64.max) / 2)
      time -= time % 100_000_000
      time = time > 3 ? time - 3 : time
      for sequence in (power - min(power, 3))...(power + 2) {
        pairs.append((sequence, time))
        time += 1 + random.next() % 2
      }
      power *= 10
    }
    // A session: small steps, now and then a jump (events lost and crossed).
    var sequence: UInt64 = 0
    var time: UInt64 = 0
    for _ in 0..<20_000 {
      sequence += random.next() % 50 == 0 ? 1 + random.next() % 5_000 : 1
      time += random.next() % 20 == 0 ? random.next() % 1_000_000_000 : random.next() % 40_000
      pairs.append((sequence, time))
    }
    pairs += [
      (1, 0), (2, 99_999_999), (3, 100_000_000), (4, 100_000_000), (5, 199_999_999),
      (6, UInt64(Int64.max) - 1), (7, UInt64(Int64.max)), (999_999_999_999_999_999, 0),
      (1_000_000_000_000_000_000, 5),
      (UInt64(Int64.max), 1),
    ]
    var start = JSONLines.LineStart()
    var writer = JSONWriter()
    for (sequence, time) in pairs {
      writer.removeAll()
      start.write(sequence: sequence, time: time, to: &writer)
      let written = writer.bytes
      #expect(
        written == expectedStart(sequence, min(time, UInt64(Int64.max))),
        "seed \(seed): \(sequence), \(time): \(String(decoding: written, as: UTF8.self))")
      // The writer is in the object, after a member: the next key takes a comma.
      writer.plainKey("event")
      #expect(writer.bytes.suffix(9) == Array(",\"event\":".utf8))
    }
  }

  /// The lines of events `first...last` written the general way: every event replayed
  /// (`Timeline.events`, lost events crossed) and written by `JSONLines.Writer`.
  func generalLines(
    _ timeline: Timeline<NavigationDomain>, _ first: UInt64, _ last: UInt64
  ) throws -> [UInt8] {
    var bytes: [UInt8] = []
    let writer = JSONLines.Writer(domain: timeline.domain) { bytes += $0 }
    try timeline.events(from: first, through: last, crossingLostEvents: true) { event, _, _ in
      try writer.write(sequence: event.sequence, time: event.time, event: event.event)
      return true
    }
    return bytes
  }

  /// The lines of the export loop, and the lost events it crossed.
  func exportedLines(
    _ timeline: Timeline<NavigationDomain>, _ first: UInt64, _ last: UInt64
  ) throws -> (bytes: [UInt8], lost: [ClosedRange<UInt64>]) {
    var bytes: [UInt8] = []
    let lost = try timeline.writeJSONLines(from: first, through: last) { lines in
      #expect(lines.last == UInt8(ascii: "\n"))
      bytes += lines
    }
    return (bytes, lost)
  }

  @Test("the export loop writes the lines of every replayed event, over ranges")
  func exportLoop() throws {
    let seed = testSeed("ExportFastPathTests.exportLoop")
    var random = SplitMix64(seed: seed)
    for trial in 0..<3 {
      let directory = TemporaryDirectory()
      let (timeline, events) = try ParallelScanTests().randomTimeline(
        seed: random.next(), count: 3_000 + trial * 1_000, in: directory)
      let last = UInt64(events.count)
      var ranges: [(UInt64, UInt64)] = [(1, last), (0, last), (last, last), (1, 1)]
      for _ in 0..<6 {
        let from = 1 + random.next() % last
        ranges.append((from, from + random.next() % (last - from + 1)))
      }
      for (first, end) in ranges {
        let exported = try exportedLines(timeline, first, end)
        let expected = try generalLines(timeline, first, end)
        #expect(exported.bytes == expected, "seed \(seed), trial \(trial), \(first)...\(end)")
        #expect(exported.lost.isEmpty)
      }
    }
  }

  @Test("the export loop crosses events lost to damage as the general path does")
  func exportLoopCrossesLostEvents() throws {
    let seed = testSeed("ExportFastPathTests.exportLoopCrossesLostEvents")
    let directory = TemporaryDirectory()
    let (timeline, _) = try ParallelScanTests().randomTimeline(
      seed: seed, count: 4_000, in: directory)
    let frames = timeline.reader.frames
    #expect(frames.count > 8)
    let salvaged = directory.file("salvaged.journal")
    let dropped = [frames[2], frames[5], frames[6]]
    let report = try Journal.recover(
      path: timeline.path, output: salvaged, salvage: true,
      repairs: Dictionary(
        uniqueKeysWithValues: dropped.map { ($0.offset, .drop(reason: "a test drops it")) }),
      system: .live)
    #expect(report.lostRanges.count == 2)
    let damaged = try Timeline<NavigationDomain>(path: salvaged, salvage: true)
    let last = damaged.lastSequence
    for (first, end) in [
      (1, last), (frames[2].firstSequence - 3, frames[7].lastSequence),
      (frames[1].lastSequence, frames[3].firstSequence),
    ] {
      let exported = try exportedLines(damaged, first, end)
      let expected = try generalLines(damaged, first, end)
      #expect(exported.bytes == expected, "seed \(seed), \(first)...\(end)")
      #expect(!exported.lost.isEmpty)
      var crossed: [ClosedRange<UInt64>] = []
      crossed = try damaged.events(from: first, through: end, crossingLostEvents: true) {
        _, _, _ in true
      }
      #expect(exported.lost == crossed)
    }
  }
}

/// `rewind import`'s fast paths against the general ones: a line as `rewind export`
/// writes it read at once, against the flat parser's reading of the whole line; digits
/// read eight at a time, against their value.
@Suite("Import's fast paths read what the general paths read")
struct ImportFastPathTests {
  /// The fields of `text` as (key, kind, value bytes, integer, number).
  typealias Field = (
    key: String, kind: JSONField.Kind, value: String, integer: Int64, number: Double?
  )

  func fields(_ buffer: borrowing JSONFieldBuffer) -> [Field] {
    buffer.fields.map {
      (
        String(decoding: $0.key, as: UTF8.self), $0.kind, String(decoding: $0.value, as: UTF8.self),
        $0.integer, $0.double
      )
    }
  }

  func same(_ a: [Field], _ b: [Field]) -> Bool {
    a.count == b.count
      && zip(a, b).allSatisfy {
        $0.key == $1.key && $0.kind == $1.kind && $0.value == $1.value && $0.integer == $1.integer
          && $0.number?.bitPattern == $1.number?.bitPattern
      }
  }

  /// A number's text, now and then not as `rewind export` writes it.
  func number(_ random: inout SplitMix64) -> String {
    switch random.next() % 12 {
    case 0: return "0"
    case 1: return "0" + String(random.next() % 1000)
    case 2: return String(random.next())
    case 3: return "-" + String(random.next() % 1000)
    case 4: return String(random.next() % 1000) + ".5"
    case 5: return String(random.next() % 1000) + "e2"
    case 6: return String(repeating: "9", count: 18 + Int(random.next() % 3))
    default: return String(random.next() >> (random.next() % 64))
    }
  }

  func member(_ random: inout SplitMix64) -> String {
    let keys = ["event", "offset", "id", "seq", "time_us", "header", "index", "width"]
    let key = keys[Int(random.next() % UInt64(keys.count))]
    let values = [
      "\"menuScrolled\"", "null", "true", "12.345678901234567", "-0.0", "1e-7", "123456789012",
      "\"a b\"", "[1]", "0012", "3.", "\"é\"",
    ]
    let value =
      random.next() % 3 == 0
      ? String(Double(random.next() % 100_000) / 6)
      : values[Int(random.next() % UInt64(values.count))]
    return "\"\(key)\":\(value)"
  }

  @Test("a line read at once gives the fields the flat parser gives, or is left to it")
  func exportedLines() {
    let seed = testSeed("ImportFastPathTests.exportedLines")
    var random = SplitMix64(seed: seed)
    var taken = 0
    var start = JSONLines.LineStart()
    for _ in 0..<40_000 {
      var text = "{\"seq\":\(number(&random)),\"time_us\":\(number(&random))"
      for _ in 0..<(random.next() % 4) { text += "," + member(&random) }
      text += "}"
      switch random.next() % 10 {
      case 0: text = text.replacingOccurrences(of: ",", with: ", ")
      case 1: text += " "
      case 2: text = String(text.dropLast())
      case 3: text = text.replacingOccurrences(of: "\"seq\"", with: "\"Seq\"")
      default: break
      }
      let bytes = Array(text.utf8)
      bytes.withUnsafeBufferPointer { line in
        var whole = JSONFieldBuffer()
        let parsed = JSONFields.parse(line, into: &whole)
        var rest = JSONFieldBuffer()
        guard let (sequence, time) = JSONFields.parseExportedLine(line, into: &rest) else { return }
        taken += 1
        // Its start compared with the one expected (set for the sequence before, then
        // counted up): the same time and fields; another sequence's start does not match.
        if sequence > 0 {
          #expect(start.prefixCount(ofLine: line, sequence: sequence - 1) == nil)
          let prefixCount = 7 + String(sequence).utf8.count + 11
          let found = start.prefixCount(ofLine: line, sequence: sequence)
          #expect(found == (line.count >= (prefixCount + 7) / 8 * 8 ? prefixCount : nil))
          #expect(start.prefixCount(ofLine: line, sequence: sequence + 1) == nil)
          if let found {
            var after = JSONFieldBuffer()
            let timeRead = JSONFields.parseExportedLine(line, afterPrefix: found, into: &after)
            #expect(timeRead == time, "seed \(seed): \(text)")
            #expect(same(fields(after), fields(rest)), "seed \(seed): \(text)")
          }
        }
        // Whatever is read at once, the flat parser reads too, to the same fields, unless
        // a key after them repeats `seq` or `time_us` (which the reader then leaves to it).
        let expected = fields(whole)
        let read = fields(rest)
        if read.contains(where: { $0.key == "seq" || $0.key == "time_us" }) {
          #expect(!parsed, "seed \(seed): \(text)")
          return
        }
        #expect(parsed, "seed \(seed): \(text)")
        guard parsed, expected.count == read.count + 2 else {
          Issue.record("seed \(seed): \(text)")
          return
        }
        #expect(expected[0].key == "seq" && expected[0].kind == .integer)
        #expect(expected[0].integer == Int64(sequence), "seed \(seed): \(text)")
        #expect(expected[1].key == "time_us" && expected[1].kind == .integer)
        #expect(expected[1].integer == Int64(time), "seed \(seed): \(text)")
        #expect(same(Array(expected.dropFirst(2)), read), "seed \(seed): \(text)")
      }
    }
    #expect(taken > 1_000, "seed \(seed)")
  }

  @Test("numbers of every length are read to the values of their text, eight digits at a time")
  func longNumbers() {
    let seed = testSeed("ImportFastPathTests.longNumbers")
    var random = SplitMix64(seed: seed)
    for _ in 0..<20_000 {
      let whole = random.next() % 3 == 0 ? "0" : String(random.next() >> (random.next() % 64))
      let zeros = String(repeating: "0", count: Int(random.next() % 12))
      let fraction = String(random.next() >> (random.next() % 64))
      let text =
        switch random.next() % 3 {
        case 0: whole
        case 1: whole + "." + zeros + fraction
        default: whole + "." + zeros + fraction + "e" + String(Int(random.next() % 40) - 20)
        }
      let line = Array("{\"n\":\(text)}".utf8)
      line.withUnsafeBufferPointer { bytes in
        var buffer = JSONFieldBuffer()
        #expect(JSONFields.parse(bytes, into: &buffer), "seed \(seed): \(text)")
        guard buffer.count == 1 else { return }
        let field = buffer.fields[0]
        #expect(field.double?.bitPattern == Double(text)?.bitPattern, "seed \(seed): \(text)")
        if field.kind == .integer { #expect(field.integer == Int64(text), "seed \(seed): \(text)") }
      }
    }
  }
}
