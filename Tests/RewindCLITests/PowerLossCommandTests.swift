import Foundation
import Navigation
import RewindCLI
import RewindCore
import RewindJournal
import TestSupport
import Testing

/// The writing commands, run in-process, under a power cut at every step and an I/O
/// error at every call of the seam: the file they replace is the previous one or the
/// complete new one, never a mix, and their inputs are never touched.
@Suite("Writing commands: power cuts and I/O errors at every step", .serialized)
struct PowerLossCommandTests {
  let tool = RewindTool.cli(domains: [NavigationDomain.self])

  /// A command that replaces `out.file` (or, for `recover`, repairs `torn.journal` in
  /// place), and how to tell its complete output.
  struct Command: Sendable, CustomStringConvertible {
    var name: String
    var arguments: @Sendable (TemporaryDirectory) -> [String]
    /// The file the command writes.
    var output: String
    /// Whether the file at `output` is the command's complete output.
    var isComplete: @Sendable (_ path: String, _ reference: [UInt8]) -> Bool
    var description: String { name }
  }

  /// A journal whose events are `reference`'s, clean and closed.
  static func sameJournal(_ path: String, _ reference: [UInt8]) -> Bool {
    let directory = TemporaryDirectory()
    let copy = directory.file("reference.journal")
    write(reference, to: copy)
    guard let report = try? Journal.verify(path: path), report.isClean, report.isClosed,
      let expected = try? JournalReader(path: copy)
    else { return false }
    return report.lastSequence == expected.lastSequence
  }

  static let commands: [Command] = [
    Command(
      name: "record",
      arguments: { ["record", $0.file("session.scenario"), "-o", $0.file("out.file"), "--force"] },
      output: "out.file", isComplete: sameJournal),
    Command(
      name: "export",
      arguments: { ["export", $0.file("session.journal"), "-o", $0.file("out.file"), "--force"] },
      output: "out.file", isComplete: { bytes(of: $0) == $1 }),
    Command(
      name: "upgrade",
      arguments: { ["upgrade", $0.file("old.journal"), "-o", $0.file("out.file"), "--force"] },
      output: "out.file", isComplete: sameJournal),
    Command(
      name: "recover", arguments: { ["recover", $0.file("torn.journal")] },
      output: "torn.journal", isComplete: sameJournal),
  ]

  static let previous = Array("the previous file\n".utf8)

  /// The inputs of every command and the file they replace, made once.
  static let inputs: [String: [UInt8]] = {
    let directory = TemporaryDirectory()
    let scenario = Array("layout three-column\nselect category Grinders\n+1s tap 2\nback\n".utf8)
    write(scenario, to: directory.file("session.scenario"))
    let context = Context.capture()
    let status = RewindTool.cli(domains: [NavigationDomain.self]).run(
      arguments: [
        "record", directory.file("session.scenario"), "-o", directory.file("session.journal"),
      ], context: context)
    precondition(status == 0, context.stderr.text)
    // A journal its writer never closed, with a torn frame at its end.
    let torn = bytes(of: journalsDirectory + "/day-menu.journal")
    return [
      "session.scenario": scenario, "session.journal": bytes(of: directory.file("session.journal")),
      "old.journal": bytes(of: journalsDirectory + "/schema1/day-menu.journal"),
      "torn.journal": Array(torn.prefix(torn.count * 3 / 4)), "out.file": previous,
    ]
  }()

  /// A directory with the inputs of every command and the file they replace.
  func makeInputs() throws -> TemporaryDirectory {
    let directory = TemporaryDirectory()
    for (name, content) in Self.inputs { write(content, to: directory.file(name)) }
    return directory
  }

  func run(_ arguments: [String], system: FileSystemCalls = .live) -> (
    status: Int32, stderr: String
  ) {
    let context = Context.capture()
    context.fileSystem = system
    let status = tool.run(arguments: arguments, context: context)
    return (status, context.stderr.text)
  }

  /// The names a run may leave besides the inputs and the output: the original a
  /// recovery keeps.
  static func expectedNames(_ command: Command) -> Set<String> {
    var names = Set(inputs.keys)
    if command.name == "recover" { names.insert("torn.journal.damaged") }
    return names
  }

  /// What the directory holds against what it held before: the inputs untouched, the
  /// output the previous file or the complete new one. Returns the names left behind.
  func check(
    _ directory: TemporaryDirectory, _ command: Command, before: [String: [UInt8]],
    reference: [UInt8], mustBeNew: Bool, _ what: String
  ) -> [String] {
    let output = directory.file(command.output)
    for (name, content) in before where name != command.output {
      #expect(bytes(of: directory.file(name)) == content, "\(what): the input \(name) changed")
    }
    let old = bytes(of: output) == before[command.output]!
    #expect(old || command.isComplete(output, reference), "\(what): the output is neither")
    #expect(!mustBeNew || !old, "\(what): the output is not the new one")
    if command.name == "recover", FileManager.default.fileExists(atPath: output + ".damaged") {
      #expect(bytes(of: output + ".damaged") == before[command.output]!, "\(what)")
    }
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return names.filter { !Self.expectedNames(command).contains($0) }.sorted()
  }

  func snapshot(_ directory: TemporaryDirectory) -> [String: [UInt8]] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return Dictionary(uniqueKeysWithValues: names.map { ($0, bytes(of: directory.file($0))) })
  }

  @Test(
    "a power cut at any step of record, export, upgrade and recover leaves the previous file or the new one",
    arguments: commands)
  func powerCut(command: Command) throws {
    let seed = testSeed("powerCut.\(command.name)")
    var random = SplitMix64(seed: seed)
    let reference = try {
      let directory = try makeInputs()
      #expect(run(command.arguments(directory)).status == 0)
      return bytes(of: directory.file(command.output))
    }()
    let steps: Int = {
      let directory = try! makeInputs()
      let disk = SimulatedDisk(directory: directory.path)
      #expect(run(command.arguments(directory), system: disk.calls).status == 0)
      return disk.steps
    }()
    var leftovers = 0
    var keptPrevious = 0
    let rounds = soakCount("COMMAND_POWER_CUT_ROUNDS", standard: 2)
    for round in 0..<rounds {
      for step in 1...(steps + 1) {
        let directory = try makeInputs()
        let before = snapshot(directory)
        let cutSeed = random.next()
        let disk = SimulatedDisk(directory: directory.path, unnamedFiles: round % 2 == 0)
        disk.cutPower(beforeStep: step, seed: cutSeed)
        let result = run(command.arguments(directory), system: disk.calls)
        let cut = disk.cutPowerNow()
        _ = disk.restart()
        let what = "\(command) cut before step \(step) of \(steps) (\(cut)), seed \(seed)"
        #expect(result.status == 0 || result.status == 1, "\(what): \(result.stderr)")
        let left = check(
          directory, command, before: before, reference: reference,
          mustBeNew: result.status == 0 && step > steps, what)
        if !left.isEmpty { leftovers += 1 }
        // Whatever the cut left, the command runs again, and removes the hidden name a
        // cut left; but the previous file's second name where it is that file's only name
        // (the cut came once the new file had moved in): nothing tells the next run that
        // it is not wanted.
        #expect(run(command.arguments(directory)).status == 0, "\(what): it does not run again")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        let after = names.filter { !Self.expectedNames(command).contains($0) }
        let previous = after.filter {
          $0.hasSuffix(".previous.tmp") && bytes(of: directory.file($0)) == before[command.output]
        }
        if !previous.isEmpty { keptPrevious += 1 }
        #expect(after.count == previous.count, "\(what): the next run left \(after)")
      }
    }
    print(
      "power cuts, \(command): \(rounds * (steps + 1)) cuts at \(steps + 1) steps, \(leftovers) of them left a hidden temporary file (removed by the next run, but in \(keptPrevious) the previous file's only name, kept)"
    )
  }

  @Test(
    "an I/O error at any call of record, export, upgrade and recover fails the command whole",
    arguments: commands)
  func ioErrors(command: Command) throws {
    let reference = try {
      let directory = try makeInputs()
      #expect(run(command.arguments(directory)).status == 0)
      return bytes(of: directory.file(command.output))
    }()
    let counting = FaultyFileSystem()
    do {
      let directory = try makeInputs()
      #expect(run(command.arguments(directory), system: counting.calls).status == 0)
    }
    let calls = counting.callCount
    var failed = 0
    var trials = 0
    for call in 1...calls {
      for (number, persisting) in injectedErrors(atCall: call, standard: 2) {
        trials += 1
        let directory = try makeInputs()
        let before = snapshot(directory)
        let faults = FaultyFileSystem()
        faults.failCall(call, with: number, persisting: persisting)
        let result = run(command.arguments(directory), system: faults.calls)
        faults.heal()
        let what =
          "\(command), call \(call) of \(calls) (\(counting.call(call))) failing with \(String(cString: strerror(number)))\(persisting ? " from then on" : "")"
        #expect(result.status == 0 || result.status == 1, "\(what): \(result.stderr)")
        if result.status == 1 {
          failed += 1
          #expect(result.stderr.hasPrefix("Error: "), "\(what): \(result.stderr)")
          #expect(
            result.stderr.contains(String(cString: strerror(number))),
            "\(what): the cause is missing: \(result.stderr)")
        }
        let inPlace = result.stderr.contains("it is in place")
        let left = check(
          directory, command, before: before, reference: reference,
          mustBeNew: result.status == 0 || inPlace, what)
        // A temporary name stays only when removing it failed.
        #expect(
          persisting || counting.call(call).hasPrefix("unlink") || left.isEmpty,
          "\(what): left \(left)")
      }
    }
    print(
      "I/O errors, \(command): \(calls) calls, \(trials) failures: \(failed) failed the command")
  }
}
