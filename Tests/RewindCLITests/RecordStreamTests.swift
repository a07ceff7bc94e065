import Foundation
import Navigation
import RewindArguments
import RewindCore
import RewindJournal
import TestSupport
import Testing

@testable import RewindCLI

/// `rewind record`'s script read a batch of lines at a time (``RecordCommand``,
/// ``ScenarioRecording``) against the script read whole and recorded as `record` did before
/// it streamed: the same journal, byte for byte, and the same failure, with nothing
/// written.
@Suite("A scenario script recorded a batch at a time")
struct RecordStreamTests {
  let directory = TemporaryDirectory()
  /// One session id for every journal, so that two are compared byte for byte.
  static let id = SessionID(randomBytes: Array(1...16))
  static let batchSizes = [1, 97, 4096, 64 << 10]

  /// Records the script at `path` to `output` in batches of about `batchSize` bytes, as
  /// `rewind record` does: the error said (nil when it records), and its status.
  func record<D: RecordableDomain>(
    _ type: D.Type, _ path: String, to output: String, batchSize: Int, force: Bool = false,
    system: FileSystemCalls = .live
  ) -> (error: String?, status: Int32) {
    let context = Context.capture()
    context.fileSystem = system
    do {
      let file = try TextFileReader(path: path, system: system)
      var command = RecordCommand(
        scenarioPath: path, file: file, output: output, interval: 1024, force: force,
        json: false, context: context)
      command.batchSize = batchSize
      command.sessionID = Self.id
      try command.visit(type)
      return (nil, 0)
    } catch let error as UsageError {
      return (error.message, 64)
    } catch let error as CommandError {
      return (error.message, 1)
    } catch {
      return ("\(error)", 1)
    }
  }

  /// The journal of the script at `path` as `record` wrote it before it streamed: the
  /// whole script parsed, then its events recorded.
  func recordedWhole<D: RecordableDomain>(_ type: D.Type, _ path: String, to output: String)
    throws -> [UInt8]
  {
    let text = try TextFileReader(path: path).remainingText()
    let scenario = try D.parseScenario(text, directory: directory.path)
    let recorder = try JournalRecorder.create(
      FileDestination(output), domain: scenario.domain,
      session: SessionInfo(
        id: Self.id, startTime: try #require(scenario.startTime),
        device: scenario.device ?? "rewind record \(path)"),
      options: Context.capture().batchRecordingOptions(snapshotInterval: 1024))
    for timed in scenario.events { try recorder.record(timed.event, at: timed.time) }
    try recorder.close()
    defer { unlink(output) }
    return bytes(of: output)
  }

  /// Records `script` in each batch size and expects the journal recorded whole.
  func expectSameJournal<D: RecordableDomain>(
    _ type: D.Type, _ script: String, _ note: String
  ) throws {
    let path = directory.file("s.scenario")
    write(script, to: path)
    let whole = try recordedWhole(type, path, to: directory.file("whole.journal"))
    for batchSize in Self.batchSizes {
      let output = directory.file("batched.journal")
      let result = record(type, path, to: output, batchSize: batchSize)
      #expect(result.error == nil, "\(note), batches of \(batchSize)")
      let batched = bytes(of: output)
      #expect(
        batched == whole,
        "\(note), batches of \(batchSize): \(batched.count) bytes, \(whole.count) read whole")
      unlink(output)
    }
  }

  /// A navigation session of `count` simulated events as a script, with an `expect` line
  /// that holds after every seventh event (its outcome).
  static func navigationScript(events count: Int, seed: UInt64) -> String {
    var script = NavigationDomain.scenarioPreamble(
      Scenario(
        domain: NavigationDomain(), device: "iPhone 15 Pro, iOS 18.1",
        startTime: 1_764_000_000_000_000, events: []))
    // The session's domain, the device's: its menu is as wide as an iPhone's.
    let domain = try! ScenarioScript.parse(script).domain
    var user = domain.simulatedUser(seed: seed)
    var state = domain.initialState
    var previous: UInt64?
    for index in 1...count {
      let timed = user.next()!
      script += EventScript.timeStep(
        timed, after: previous, needsTime: domain.scenarioLineNeedsTime)
      script += domain.scenarioLine(timed.event) + "\n"
      previous = timed.time
      let outcome = domain.reduce(&state, timed.event)
      guard index % 7 == 0 else { continue }
      switch outcome {
      case .rejected: script += "expect rejected\n"
      case .unchanged: script += "expect unchanged\n"
      case .applied: script += "expect outcome == applied\n"
      }
    }
    return script
  }

  @Test("navigation scripts: the same journal in batches of any size as read whole")
  func navigationJournals() throws {
    let seed = testSeed("recordStreamNavigation")
    let script = Self.navigationScript(events: 3_000, seed: seed)
    try expectSameJournal(NavigationDomain.self, script, "seed \(seed)")
    // Lines ending in \r\n, after a byte-order mark, and a last line without a line break.
    let crlf = "\u{FEFF}" + script.replacing("\n", with: "\r\n")
    try expectSameJournal(NavigationDomain.self, crlf, "seed \(seed), CRLF")
    try expectSameJournal(NavigationDomain.self, script + "\n\n", "seed \(seed), blank end")
  }

  @Test("the sample scripts: the same journal in batches of any size as read whole")
  func sampleJournals() throws {
    let samples = journalsDirectory
    let names = try FileManager.default.contentsOfDirectory(atPath: samples).filter {
      $0.hasSuffix(".scenario")
    }
    #expect(names.count >= 5)
    for name in names {
      try expectSameJournal(
        NavigationDomain.self, String(decoding: bytes(of: samples + "/" + name), as: UTF8.self),
        name)
    }
  }

  @Test("event scripts: the same journal in batches of any size as read whole")
  func eventScriptJournals() throws {
    var lines = ["# a counter", "device: test phone", "start: 2026-11-30T09:00:00Z", ""]
    for index in 0..<2_000 {
      switch index % 5 {
      case 0: lines.append("incremented")
      case 1: lines.append("+1.5s stepChanged to=\(index % 120)")
      case 2: lines.append("decremented   # maybe below 0")
      case 3: lines.append("expect count >= 0")
      default: lines.append("@\(index)s reset")
      }
    }
    try expectSameJournal(Counter.self, lines.joined(separator: "\n") + "\n", "counter")
  }

  /// A script of `count` events that record, for the failures at its end.
  func longScript(events count: Int, start: String = "start: 2026-11-30T09:00:00Z\n") -> String {
    start + (0..<count).map { "+0.25s stepChanged to=\($0 % 90 + 1)\nincremented\n" }.joined()
  }

  /// File systems to record through: the real one, where the journal is written to an
  /// unnamed file (`O_TMPFILE`), and one that makes none, where it is written to a hidden
  /// `.NAME.PID-N.new.tmp` beside the destination; with whether a named file was made.
  func fileSystems() -> [(system: FileSystemCalls, named: () -> Bool, note: String)] {
    let faults = FaultyFileSystem()
    faults.fail(.createUnnamed, with: EOPNOTSUPP)
    return [
      (.live, { false }, "unnamed"), (faults.calls, { faults.count(.create) > 0 }, "named"),
    ]
  }

  @Test("a line that does not parse at the end of a long script: said, and nothing written")
  func parseErrorAtTheEnd() throws {
    let path = directory.file("long.scenario")
    let script = longScript(events: 5_000)
    write(script + "incremented by=2\n", to: path)
    let output = directory.file("out.journal")
    write("the user's file", to: output)
    for (system, named, note) in fileSystems() {
      for batchSize in Self.batchSizes + [.max] {
        let result = record(
          Counter.self, path, to: output, batchSize: batchSize, force: true, system: system)
        #expect(result.status == 1)
        #expect(
          result.error
            == "\(path):10002:13: unknown key \"by\" in the event \"incremented\"; it has no payload",
          "\(note), batches of \(batchSize)")
        #expect(String(decoding: bytes(of: output), as: UTF8.self) == "the user's file")
        #expect(listing(directory.path) == ["long.scenario", "out.journal"], "\(note)")
      }
      #expect(named() == (note == "named"))
    }
  }

  @Test("an expect line that fails at the end of a long script: said, and nothing written")
  func expectationAtTheEnd() throws {
    let path = directory.file("long.scenario")
    write(longScript(events: 5_000) + "expect count == 1\n", to: path)
    let output = directory.file("out.journal")
    // The count after the last event, which added its step (50).
    let count = (0..<5_000).reduce(0) { $0 + $1 % 90 + 1 }
    for (system, named, note) in fileSystems() {
      for batchSize in Self.batchSizes {
        let result = record(
          Counter.self, path, to: output, batchSize: batchSize, system: system)
        #expect(
          result.error
            == "\(path):10002: expect failed (after incremented): expected count == 1, but count is \(count); the event changed count \(count - 50) → \(count); nothing was recorded",
          "\(note), batches of \(batchSize)")
        #expect(listing(directory.path) == ["long.scenario"], "\(note)")
      }
      #expect(named() == (note == "named"))
    }
  }

  @Test("problems found later are said in the order of a whole script's")
  func orderOfProblems() throws {
    let path = directory.file("s.scenario")
    let output = directory.file("out.journal")
    let long = longScript(events: 3_000)
    // An expect line that fails early, then a line that does not parse: the line.
    write(
      longScript(
        events: 3_000, start: "start: 2026-11-30T09:00:00Z\nincremented\nexpect count == 9\n")
        + "bogus\n", to: path)
    for batchSize in Self.batchSizes {
      let result = record(Counter.self, path, to: output, batchSize: batchSize)
      #expect(
        result.error?.hasPrefix("\(path):6004:1: unknown event kind \"bogus\"") == true,
        "\(result.error ?? "")")
    }
    // An output that is refused (a file there), then an expect line that fails: the
    // output.
    write("first", to: output)
    write(long + "expect count == 9\n", to: path)
    for batchSize in Self.batchSizes {
      let result = record(Counter.self, path, to: output, batchSize: batchSize)
      #expect(result.error == "\(output): the file exists; pass --force to replace it")
    }
    // The output is the script: a usage error, unless a line does not parse.
    for (script, message) in [
      (long, "-o \(path): the output would overwrite the input \(path) (the same file)"),
      (long + "bogus\n", "\(path):6002:1: unknown event kind \"bogus\""),
    ] {
      write(script, to: path)
      for batchSize in Self.batchSizes {
        let result = record(Counter.self, path, to: path, batchSize: batchSize, force: true)
        #expect(result.error?.hasPrefix(message) == true, "\(result.error ?? "")")
        #expect(result.status == (script == long ? 64 : 1))
      }
    }
    // A line that does not parse, then one that is no UTF-8 text: the text.
    write(Array(("bogus\n" + long).utf8) + [0xC3, 0x28, 0x0A], to: path)
    for batchSize in Self.batchSizes {
      let result = record(Counter.self, path, to: output, batchSize: batchSize, force: true)
      #expect(
        result.error
          == "\(path):6003: invalid UTF-8 at column 1 (byte 0xC3); the file must be UTF-8 text")
    }
    #expect(listing(directory.path) == ["out.journal", "s.scenario"])
    #expect(String(decoding: bytes(of: output), as: UTF8.self) == "first")
  }

  @Test("an expect line that fails is said before a journal that cannot be written")
  func expectationBeforeWriting() throws {
    let path = directory.file("s.scenario")
    write(longScript(events: 3_000) + "expect count == 9\n", to: path)
    let output = directory.file("out.journal")
    for skip in [0, 1, 3] {
      for batchSize in Self.batchSizes {
        let faults = FaultyFileSystem()
        faults.fail(.write, with: ENOSPC, after: skip)
        let result = record(
          Counter.self, path, to: output, batchSize: batchSize, system: faults.calls)
        #expect(
          result.error?.hasPrefix("\(path):6002: expect failed (after incremented)") == true,
          "\(result.error ?? ""), after \(skip) writes, batches of \(batchSize)")
      }
    }
    // Without it, the full disk is said.
    write(longScript(events: 3_000), to: path)
    let faults = FaultyFileSystem()
    faults.fail(.write, with: ENOSPC, after: 1)
    let result = record(Counter.self, path, to: output, batchSize: 97, system: faults.calls)
    #expect(result.error?.contains("No space left on device") == true, "\(result.error ?? "")")
    #expect(listing(directory.path) == ["s.scenario"])
  }

  @Test("JSON Lines given for a script are said to be, after blank lines too, in any batch")
  func jsonHint() throws {
    let path = directory.file("events.jsonl")
    let header = #"{"header": {"domain": "counter"}}"#
    let event = #"{"seq":1,"time_us":0,"event":"incremented"}"#
    for text in [header + "\n" + event, "\n  \r\n\t\n" + event, "\r\n\n" + event + "\r\n"] {
      write(text, to: path)
      for batchSize in Self.batchSizes {
        let result = record(Counter.self, path, to: directory.file("out.journal"), batchSize: 1)
        #expect(
          result.error?.contains(
            "; it reads as JSON Lines, as `rewind export` writes: `rewind import \(path) -o "
          ) == true, "\(result.error ?? ""), batches of \(batchSize)")
      }
    }
    // Not where the first line that is not blank is fine.
    write("incremented\n" + event + "\n", to: path)
    let later = record(Counter.self, path, to: directory.file("out.journal"), batchSize: 1)
    #expect(later.error?.contains("reads as JSON") == false, "\(later.error ?? "")")
  }

  @Test("the first line that is not blank, as the whole text's lines cut at \\n say")
  func firstContentLine() {
    let seed = testSeed("firstContentLine")
    var random = SplitMix64(seed: seed)
    let pieces = ["", " ", "\t", "\r", "x", "{\"seq\":1}", "é", " \r", "\u{2028}", "\u{85}"]
    for trial in 0..<2_000 {
      let lines = (0..<Int.random(in: 0...6, using: &random)).map { _ in
        (0..<Int.random(in: 0...3, using: &random)).map { _ in
          pieces.randomElement(using: &random)!
        }.joined()
      }
      let text = lines.joined(separator: "\n")
      // What record computed from the whole text.
      let number =
        (text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex {
          $0.contains { !$0.isWhitespace }
        } ?? 0) + 1
      let first =
        text.split(separator: "\n").map { $0.filter { !$0.isWhitespace } }.first { !$0.isEmpty }
      var start = FirstContentLine()
      for line in lines { start.add(line) }
      start.finish()
      #expect(start.number == number, "seed \(seed), trial \(trial): \(lines)")
      #expect(
        start.content?.filter { !$0.isWhitespace } == first, "seed \(seed), trial \(trial)")
    }
  }

  @Test(
    "a script whose lines all end in \\r (\\r\\r\\n) is one line that is not held whole (each line copied it: time in the square of the lines)",
    .timeLimit(.minutes(1))
  )
  func carriageReturnLines() {
    var start = FirstContentLine()
    let line = "{\"seq\": 1, \"event\": \"menuTabTapped\"}\r"
    for _ in 0..<200_000 { start.add(line) }
    start.finish()
    #expect(start.number == 1)
    let held = start.content?.utf8.count ?? 0
    #expect(held >= FirstContentLine.longest && held < FirstContentLine.longest + 64)
  }

  @Test("the batches, one after the other, are the text read whole")
  func batches() throws {
    let path = directory.file("s.txt")
    for text in ["", "\n", "a", "a\n", "a\n\n", "\u{FEFF}a\r\nb\r\n\r\n", "a\nbb\nccc\n\ndddd"] {
      write(text, to: path)
      let whole = try TextFileReader(path: path).remainingText()
      for size in [1, 2, 3, 100] {
        var batches = ScriptBatches(try TextFileReader(path: path), size: size)
        var joined = ""
        while let batch = try batches.next() {
          #expect(!batch.isEmpty)
          joined += batch
        }
        #expect(joined == whole, "\(text.debugDescription), batches of \(size)")
      }
    }
  }
}

/// The names of the files in `path`, sorted.
private func listing(_ path: String) -> [String] {
  ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
}
