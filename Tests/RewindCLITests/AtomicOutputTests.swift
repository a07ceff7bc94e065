import Foundation
import Navigation
import RewindCLI
import RewindCore
import RewindJournal
import TestSupport
import Testing

/// The writing commands run in-process over a file system whose calls fail on demand.
@Suite("Writing commands: a failure at any step leaves the previous file and nothing else")
struct AtomicOutputTests {
  let tool = RewindTool.cli(domains: [NavigationDomain.self])

  /// A directory with one input of each kind: a scenario, a journal, its JSON Lines.
  struct Inputs {
    let directory = TemporaryDirectory()
    var scenario: String { directory.file("session.scenario") }
    var journal: String { directory.file("session.journal") }
    var events: String { directory.file("session.jsonl") }
  }

  func makeInputs() throws -> Inputs {
    let inputs = Inputs()
    write(
      Array("layout three-column\nselect category Grinders\n+1s tap 2\nback\n".utf8),
      to: inputs.scenario)
    #expect(run(["record", inputs.scenario, "-o", inputs.journal]).status == 0)
    #expect(run(["export", inputs.journal, "-o", inputs.events]).status == 0)
    return inputs
  }

  func run(_ arguments: [String], system: FileSystemCalls = .live) -> (
    status: Int32, stderr: String
  ) {
    let context = Context.capture()
    context.fileSystem = system
    let status = tool.run(arguments: arguments, context: context)
    return (status, context.stderr.text)
  }

  /// The arguments of each writing command, writing to `output`.
  static func commands(_ inputs: Inputs, output: String) -> [String: [String]] {
    [
      "record": ["record", inputs.scenario, "-o", output],
      "generate": ["generate", "-o", output, "--events", "3000", "--seed", "4"],
      "import": ["import", inputs.events, "-o", output],
      "export": ["export", inputs.journal, "-o", output],
    ]
  }

  /// Steps of writing and publishing a file that every write goes through, failed with
  /// the errno a user would meet there; and the step only a replacement takes.
  static let failures: [(FileStep, Int32)] = [
    (.createUnnamed, EROFS), (.write, ENOSPC), (.write, EIO), (.syncFile, EIO), (.link, EIO),
    (.openDirectory, EACCES), (.syncDirectory, EIO),
  ]
  static let replacementFailures: [(FileStep, Int32)] = [(.rename, EACCES)]

  @Test(
    "record, generate, import and export fail whole, naming the destination and the cause",
    arguments: ["record", "generate", "import", "export"], [false, true])
  func failures(command: String, replacing: Bool) throws {
    let inputs = try makeInputs()
    let output = inputs.directory.file("out.file")
    let previous = Array("the previous file\n".utf8)
    for (step, cause) in Self.failures + (replacing ? Self.replacementFailures : []) {
      if replacing { write(previous, to: output) }
      let before = try FileManager.default.contentsOfDirectory(atPath: inputs.directory.path)
        .sorted()
      let faults = FaultyFileSystem()
      faults.fail(step, with: cause)
      // Without unnamed files, the writer falls back to a named one: make it fail too.
      if step == .createUnnamed { faults.fail(.create, with: cause) }
      var arguments = Self.commands(inputs, output: output)[command]!
      if replacing { arguments.append("--force") }
      let result = run(arguments, system: faults.calls)
      let what = "\(command) with \(step) failing (\(cause))"
      #expect(result.status == 1, "\(what): \(result.stderr)")
      #expect(result.stderr.hasPrefix("Error: \(output): "), "\(what): \(result.stderr)")
      #expect(
        result.stderr.contains(String(cString: strerror(cause))),
        "\(what): the cause is missing: \(result.stderr)")
      #expect(
        !result.stderr.contains(".tmp") && !result.stderr.contains("/proc/"),
        "\(what): a temporary file is named: \(result.stderr)")
      #expect(
        try FileManager.default.contentsOfDirectory(atPath: inputs.directory.path).sorted()
          == before, "\(what): left something behind")
      if replacing {
        #expect(bytes(of: output) == previous, "\(what): the previous file changed")
      }
      #expect(faults.count(step) > 0, "\(what): the step was not taken")
    }
  }

  /// A failed removal of the previous file's second name, after the replacement, left it
  /// behind with exit 0 and no word.
  @Test(
    "a replacement that cannot remove the previous file's second name succeeds, and a warning names it"
  )
  func leftoverNamed() throws {
    let inputs = try makeInputs()
    let output = inputs.directory.file("out.file")
    write(Array("the previous file\n".utf8), to: output)
    let faults = FaultyFileSystem()
    faults.fail(.unlink, with: EIO)
    let result = run(["export", inputs.journal, "-o", output, "--force"], system: faults.calls)
    #expect(result.status == 0, "\(result.stderr)")
    let names = try FileManager.default.contentsOfDirectory(atPath: inputs.directory.path)
    let left = names.filter { $0.hasPrefix(".") }
    try #require(left.count == 1, "\(names)")
    #expect(bytes(of: inputs.directory.file(left[0])) == Array("the previous file\n".utf8))
    #expect(
      result.stderr
        == "warning: \(output): the new file is in place, but the previous file's second name could not be removed (\(String(cString: strerror(EIO))) (errno \(EIO))): \(inputs.directory.file(left[0])) is left, and may be deleted\n"
    )
  }

  @Test("with nothing failing, each command publishes its file once, and syncs it")
  func success() throws {
    let inputs = try makeInputs()
    for (command, arguments) in Self.commands(inputs, output: inputs.directory.file("new.file")) {
      let faults = FaultyFileSystem()
      let result = run(arguments, system: faults.calls)
      #expect(result.status == 0, "\(command): \(result.stderr)")
      #expect(faults.count(.syncFile) >= 1, "\(command)")
      #expect(faults.count(.syncDirectory) >= 1, "\(command)")
      #expect(FileManager.default.fileExists(atPath: inputs.directory.file("new.file")))
      try FileManager.default.removeItem(atPath: inputs.directory.file("new.file"))
    }
  }

  @Test("the inputs are read through the same seam: a failed read names the file and line")
  func failedRead() throws {
    let inputs = try makeInputs()
    let output = inputs.directory.file("out.journal")
    for arguments in [
      ["record", inputs.scenario, "-o", output], ["import", inputs.events, "-o", output],
    ] {
      let faults = FaultyFileSystem()
      faults.fail(.read, with: EIO)
      let result = run(arguments, system: faults.calls)
      #expect(result.status == 1)
      #expect(result.stderr.contains(String(cString: strerror(EIO))), "\(result.stderr)")
      #expect(result.stderr.contains(arguments[1]), "\(result.stderr)")
      #expect(!FileManager.default.fileExists(atPath: output))
    }
  }
}
