import Navigation
import RewindCore
import TestSupport
import Testing

@testable import RewindCLI

/// `log`'s lines and `find --all`'s matches written by the domain's specialised loops
/// (`Timeline.writeLogLines`, `Timeline.writeMatches`) against the same commands printing
/// through their own generic code (`printsByReference`): the same bytes, plain, on a
/// colour terminal and on a monochrome one, on one thread and two, for the navigation domain and a small one.
@Suite("log's lines and find's matches, specialised")
struct SpecialisedLinesTests {
  let directory = TemporaryDirectory()

  /// The `log` variants compared: the filters each combination of the options gives.
  static let logVariants: [(kinds: [String], outcomes: Set<String>, condition: String?)] = [
    ([], [], nil),
    ([], ["rejected"], nil),
    (["itemSelected", "menuScrolled"], [], nil),
    (["menuScrolled"], ["applied", "unchanged"], nil),
    ([], [], "changed(split.style)"),
    ([], [], "split.selectedItem == grinders/vulcano"),
    ([], ["applied"], "outcome == rejected || changed(menu.selectedIndex)"),
    (["itemExpanded"], [], "event == itemExpanded"),
  ]

  static let findConditions = [
    "changed(split.style)", "split.selectedItem == grinders/vulcano", "outcome == rejected",
    "event == menuScrolled && outcome == unchanged", "split.style == balanced",
    "menu.scrollOffset > 100", "split.selectedItem == grinders/vulcano && menu.scrollOffset > 50",
  ]

  /// How the output is styled: plain (not a terminal), in colour, or on a monochrome
  /// terminal (bold and dim only).
  enum Styling: CaseIterable { case plain, colour, monochrome }

  /// Runs a command's visit on `timeline`, printing as `styling` says, and returns stdout.
  func printed(_ styling: Styling, _ visit: (Context) throws -> Void) throws -> String {
    let context = Context.capture(
      environment: styling == .monochrome ? ["TERM": "vt100"] : ["TERM": "xterm-256color"],
      stdoutIsTerminal: styling != .plain)
    try visit(context)
    return context.stdout.text
  }

  /// Compares every variant of `log` and `find --all` on `timeline`, both ways.
  func compare<D: RecordableDomain>(
    _ timeline: Timeline<D>,
    logVariants: [(kinds: [String], outcomes: Set<String>, condition: String?)],
    findConditions: [String], seed: UInt64
  ) throws -> Int {
    let last = timeline.lastSequence
    var random = SplitMix64(seed: seed)
    let middle = last / 3 + random.next() % max(last / 3, 1)
    let ranges: [(PointArgument, PointArgument)] = [
      (.start, .end),
      (try PointArgument(String(middle)), .end),
      (
        try PointArgument(String(random.next() % max(middle, 1))),
        try PointArgument(String(middle + 1))
      ),
    ]
    var compared = 0
    for (from, to) in ranges {
      for styled in Styling.allCases {
        for jobs in [1, 2] {
          for json in [false, true] {
            for variant in logVariants {
              let condition = try variant.condition.map { try WrittenCondition(parsing: $0) }
              for changes in [false, true] {
                func log(_ reference: Bool) throws -> String {
                  try printed(styled) { context in
                    try LogCommand(
                      from: from, to: to, kinds: variant.kinds, outcomes: variant.outcomes,
                      condition: condition, changes: changes, json: json, jobs: jobs,
                      context: context, printsByReference: reference
                    ).visit(timeline)
                  }
                }
                let expected = try log(true)
                #expect(
                  try log(false) == expected,
                  "seed \(seed): log \(from)...\(to) \(variant) changes \(changes) json \(json) jobs \(jobs) styled \(styled)"
                )
                compared += 1
              }
            }
            for text in findConditions {
              let condition = try WrittenCondition(parsing: text)
              func find(_ reference: Bool) throws -> String {
                try printed(styled) { context in
                  var command = FindCommand(
                    condition: condition, mode: .all, from: from, to: to, json: json, jobs: jobs,
                    context: context)
                  command.printsByReference = reference
                  try command.visit(timeline)
                }
              }
              let expected = try find(true)
              #expect(
                try find(false) == expected,
                "seed \(seed): find \(text) \(from)...\(to) json \(json) jobs \(jobs) styled \(styled)"
              )
              compared += 1
            }
          }
        }
      }
    }
    return compared
  }

  @Test("navigation: random sessions, every filter, ranges, JSON, styles, one and two jobs")
  func navigation() throws {
    let seed = testSeed("SpecialisedLinesTests.navigation")
    var random = SplitMix64(seed: seed)
    let tool = RewindTool.cli(domains: [NavigationDomain.self])
    var compared = 0
    for index in 0..<2 {
      let path = directory.file("n\(index).journal")
      let events = String(800 + random.next() % 800)
      let generate = [
        "generate", "-o", path, "--events", events, "--seed", String(random.next() % 1000),
      ]
      #expect(tool.run(arguments: generate, context: .capture()) == 0)
      let timeline = try Timeline<NavigationDomain>(path: path)
      // Parts small enough that two jobs split the session.
      timeline.minimumEventsPerPart = 32
      timeline.streamingWindow = 256
      compared += try compare(
        timeline, logVariants: Self.logVariants, findConditions: Self.findConditions,
        seed: random.next())
    }
    #expect(
      compared == 2 * 3 * Styling.allCases.count * 2 * 2
        * (2 * Self.logVariants.count + Self.findConditions.count))
  }

  @Test("a small domain (its defaults: descriptions, JSON, kinds), random sessions")
  func counter() throws {
    let seed = testSeed("SpecialisedLinesTests.counter")
    var random = SplitMix64(seed: seed)
    let tool = RewindTool.cli(domains: [Counter.self])
    var compared = 0
    for index in 0..<2 {
      var lines = ["device: test phone", "start: 2026-11-30T09:00:00Z", ""]
      for _ in 0..<(300 + Int(random.next() % 300)) {
        switch random.next() % 6 {
        case 0, 1: lines.append("incremented")
        case 2: lines.append("decremented")
        case 3: lines.append("stepChanged to=\(Int(random.next() % 120))")
        case 4: lines.append("+\(random.next() % 3)s reset")
        default: lines.append("+0.\(random.next() % 1000)s incremented")
        }
      }
      let script = directory.file("c\(index).scenario")
      write(Array(lines.joined(separator: "\n").utf8), to: script)
      let path = directory.file("c\(index).journal")
      let record = ["record", script, "-o", path, "--snapshot-interval", "16"]
      #expect(tool.run(arguments: record, context: .capture()) == 0)
      let timeline = try Timeline<Counter>(path: path)
      timeline.minimumEventsPerPart = 16
      timeline.streamingWindow = 128
      compared += try compare(
        timeline,
        logVariants: [
          ([], [], nil), ([], ["rejected", "unchanged"], nil), (["reset"], [], nil),
          ([], [], "changed(count)"), ([], ["applied"], "step > 50 || outcome == rejected"),
        ],
        findConditions: ["changed(step)", "count > 20", "outcome == rejected", "step == 1"],
        seed: random.next())
    }
    #expect(compared == 2 * 3 * Styling.allCases.count * 2 * 2 * (2 * 5 + 4))
  }

  @Test("the word-at-a-time control scan against the scalar definition on ASCII text")
  func asciiWords() {
    let seed = testSeed("SpecialisedLinesTests.asciiWords")
    var random = SplitMix64(seed: seed)
    // Mostly printable, with line feeds, other controls, DEL, spaces and a few non-ASCII
    // characters, at every offset of the eight-byte words.
    let pieces: [[UInt8]] = [
      [0x0A], [0x0B], [0x09], [0x00], [0x1F], [0x20], [0x7F], [0x7E], [0x21], Array("→".utf8),
      Array("\u{85}".utf8), Array("\u{202E}".utf8), Array("é".utf8),
    ]
    for trial in 0..<20_000 {
      var bytes: [UInt8] = []
      for _ in 0..<Int(random.next() % 40) {
        if random.next() % 4 == 0 {
          bytes += pieces[Int(random.next() % UInt64(pieces.count))]
        } else {
          bytes.append(UInt8(0x20 + random.next() % 0x5F))
        }
      }
      let text = String(decoding: bytes, as: UTF8.self)
      for keeping in [false, true] {
        let fast = bytes.withUnsafeBufferPointer {
          TerminalText.hasControlBytes($0, keepingNewlines: keeping)
        }
        #expect(
          fast == TerminalText.needsEscapingScalarByScalar(text, keepingNewlines: keeping),
          "seed \(seed), trial \(trial), keeping \(keeping): \(bytes)")
      }
    }
  }

  @Test("control characters in the batch are escaped as each line would have been")
  func escapedBatch() {
    let lines = [
      "  1  plain line", "  2  a\u{1B}]0;title\u{07} bidi \u{202E}x",
      "  3  \u{1B}[31mred\u{1B}[39m",
      "  4  é → ü \u{85} end", "",
    ]
    for styled in [false, true] {
      let expected = Output.capture(isTerminal: styled)
      for line in lines { expected.print(line) }
      let batch = Output.capture(isTerminal: styled)
      let bytes = Array(lines.map { $0 + "\n" }.joined().utf8)
      // Cut between lines and inside one (between two characters).
      let cut = lines[0].utf8.count + 1 + 7
      bytes.withUnsafeBytes {
        batch.write(utf8Lines: UnsafeRawBufferPointer(rebasing: $0[..<cut]))
        batch.write(utf8Lines: UnsafeRawBufferPointer(rebasing: $0[cut...]))
      }
      #expect(batch.text == expected.text, "styled \(styled)")
    }
  }

  @Test("on a terminal each line and match is handed on as it is written, else a batch at a time")
  func eachLineOnATerminal() throws {
    let tool = RewindTool.cli(domains: [NavigationDomain.self])
    let path = directory.file("each.journal")
    let generate = ["generate", "-o", path, "--events", "3000", "--seed", "7"]
    #expect(tool.run(arguments: generate, context: .capture()) == 0)
    let timeline = try Timeline<NavigationDomain>(path: path)
    let last = timeline.lastSequence
    for json in [false, true] {
      for eachLine in [false, true] {
        var counts: [Int] = []
        let lines = LogLines(
          json: json, styling: .plain, width: 4, outcomes: [], kinds: [], first: 1, last: last,
          eachLine: eachLine)
        _ = try timeline.writeLogLines(lines, where: nil, jobs: 1) { _, count in
          counts.append(count)
        }
        #expect(counts.reduce(0, +) == Int(last), "json \(json) eachLine \(eachLine)")
        if eachLine {
          #expect(counts.count == Int(last) && counts.allSatisfy { $0 == 1 })
        } else {
          #expect(counts.count < Int(last) / 10, "\(counts.count) batches")
        }
      }
    }
    for eachLine in [false, true] {
      var counts: [Int] = []
      let lines = MatchLines(json: false, styling: .plain, showsValue: false, eachLine: eachLine)
      try timeline.writeMatches(
        try WrittenCondition(parsing: "event == menuScrolled").condition, in: 1...last, lines,
        jobs: 1
      ) { _, count in counts.append(count) }
      let matches = counts.reduce(0, +)
      #expect(matches > 100)
      if eachLine {
        #expect(counts.count == matches && counts.allSatisfy { $0 == 1 })
      } else {
        #expect(counts.count < matches / 10, "\(counts.count) batches")
      }
    }
  }
}
