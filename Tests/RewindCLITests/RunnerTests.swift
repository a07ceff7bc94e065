import Testing

@testable import RewindCLI

@Suite("Running commands: exit codes and runtime errors")
struct RunnerTests {
  @Test("success is 0, with the command's output on stdout")
  func success() {
    let result = Sample.run(["state", "j"])
    #expect(result.status == 0)
    #expect(result.stdout == "journal=j at=end skip=- json=false\n")
    #expect(result.stderr == "")
  }

  @Test("a command error is 'Error: <message>: <cause>' on stderr and status 1")
  func commandError() {
    let result = Sample.run(["fail", "command"])
    #expect(result.status == 1)
    #expect(result.stdout == "partial output\n")
    #expect(result.stderr == "Error: cannot open 'missing.journal': No such file or directory\n")
  }

  @Test("any other error is printed by its description, status 1")
  func otherError() {
    let result = Sample.run(["fail", "other"])
    #expect(result.status == 1)
    #expect(result.stderr == "Error: Input/output error\n")
  }

  @Test("a thrown exit code ends quietly with that status")
  func exitCode() {
    let result = Sample.run(["fail", "exit"])
    #expect(result.status == 3)
    #expect(result.stdout == "partial output\n")
    #expect(result.stderr == "")
  }

  @Test("a command error may choose its exit code")
  func chosenExitCode() {
    let tool = CLI(
      name: "t", version: "", abstract: "",
      commands: [
        Command(name: "check", abstract: "") { _, _ in
          throw CommandError("2 states differ from the expected ones", exitCode: ExitCode(2))
        }
      ])
    let context = Context.capture()
    #expect(tool.run(arguments: ["check"], context: context) == 2)
    #expect(context.stderr.text == "Error: 2 states differ from the expected ones\n")
  }

  @Test("a command's bar is gone when the tool is done")
  func throughTheTool() {
    let clock = SteppingClock(step: 30_000_000)
    let context = Context.capture(stderrIsTerminal: true, clock: clock.read)
    let status = Sample.tool.run(arguments: ["count", "200"], context: context)
    #expect(status == 0)
    #expect(context.stdout.text == "counted 200\n")
    #expect(context.stderr.text.contains("\rCounting "))
    #expect(context.stderr.text.hasSuffix("\r\u{1B}[K"))
  }

  @Test("a bar left on screen by a failing command is erased before the error")
  func failureDuringProgress() {
    let tool = CLI(
      name: "t", version: "", abstract: "",
      commands: [
        Command(name: "replay", abstract: "") { _, context in
          let progress = context.progress("Replaying")
          for done in 0..<10 { progress.update(done, of: 100) }
          throw CommandError("frame 3 (events 129–192) is damaged")
        }
      ])
    let clock = SteppingClock(step: 500_000_000)
    let context = Context.capture(stderrIsTerminal: true, clock: clock.read)
    #expect(tool.run(arguments: ["replay"], context: context) == 1)
    #expect(context.stderr.text.hasPrefix("\rReplaying "))
    #expect(
      context.stderr.text.hasSuffix(
        "\u{1B}[K\r\u{1B}[K\u{1B}[1m\u{1B}[31mError:\u{1B}[39m\u{1B}[22m"
          + " frame 3 (events 129–192) is damaged\n"))
  }

  @Test("the sample tool's specs are sound")
  func soundSpecs() {
    #expect(Sample.tool.specProblems() == [])
  }

  @Test("mistakes in a spec are found")
  func specProblems() {
    let bad = Command(
      name: "bad", abstract: "",
      parameters: [
        .argument("files", help: "", arity: .zeroOrMore),
        .argument("after", help: ""),
        .option("at", short: "a", value: "point", help: ""),
        .flag("at", help: ""),
        .flag("all", short: "a", help: ""),
        .flag("help", help: ""),
        .option("to", value: "point", help: "", default: "end", required: true),
        .option("bad name", short: "1", value: "", help: ""),
      ]
    ) { _, _ in }
    #expect(
      bad.specProblems() == [
        "'bad': <after>: no positional argument may follow a repeated one",
        "'bad': <after>: a required argument may not follow an optional one",
        "'bad': --at: name 'at' is used twice or is reserved",
        "'bad': --all: short name '-a' is used twice or is reserved",
        "'bad': --help: name 'help' is used twice or is reserved",
        "'bad': --to <point>: a required option cannot have a default",
        "'bad': --bad name <>: name must be a non-empty word without dashes, spaces or '='",
        "'bad': --bad name <>: short name '-1' must be a letter",
        "'bad': --bad name <>: an option needs a value name",
      ])
    let group = Command(
      name: "group", abstract: "",
      subcommands: [
        Command(name: "help", abstract: "") { _, _ in },
        Command(name: "x", abstract: ""),
      ])
    #expect(
      group.specProblems() == [
        "'group': subcommand name 'help' is used twice or is reserved",
        "'x': a command needs an implementation or subcommands",
      ])
  }

  @Test("running a command with a bad spec traps")
  func badSpecTraps() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let tool = CLI(
        name: "t", version: "", abstract: "",
        commands: [
          Command(
            name: "x", abstract: "",
            parameters: [.flag("json", help: ""), .flag("json", help: "")]
          ) { _, _ in }
        ])
      _ = tool.run(arguments: ["x"], context: .capture())
    }
    let standardError = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(
      standardError.contains(
        "bad command spec: 'x': --json: name 'json' is used twice or is reserved"))
  }

  @Test("reading a parameter the spec does not declare traps")
  func undeclaredParameterTraps() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let tool = CLI(
        name: "t", version: "", abstract: "",
        commands: [
          Command(name: "x", abstract: "") { arguments, _ in _ = arguments.flag("jsn") }
        ])
      _ = tool.run(arguments: ["x"], context: .capture())
    }
    let standardError = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(standardError.contains("command 'x' declares no parameter named 'jsn'"))
  }

  @Test("reading an optional parameter as if it were always there traps")
  func optionalReadAsRequiredTraps() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let tool = CLI(
        name: "t", version: "", abstract: "",
        commands: [
          Command(name: "x", abstract: "", parameters: [.option("to", value: "p", help: "")]) {
            arguments, _ in _ = arguments.string("to")
          }
        ])
      _ = tool.run(arguments: ["x", "--to", "1"], context: .capture())
    }
    let standardError = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(
      standardError.contains(
        "'to' may be absent and has no default: read it with optionalString(_:)"))
  }

  @Test("parsed values read back through every accessor")
  func accessors() throws {
    let command = Command(
      name: "x", abstract: "",
      parameters: [
        .argument("n", help: ""),
        .option("limit", value: "count", help: "", default: "10"),
        .option("seed", value: "n", help: ""),
        .option("tag", value: "t", help: "", repeatable: true),
        .flag("json", help: ""),
      ]
    ) { _, _ in }
    let parsed = try ParsedArguments(
      parsing: ["7", "--tag", "a", "--tag", "b", "--json"], for: command)
    #expect(parsed.string("n") == "7")
    #expect(try parsed.int("n") == 7)
    #expect(try parsed.int("limit") == 10)
    #expect(!parsed.isGiven("limit"))
    #expect(parsed.isGiven("n"))
    #expect(try parsed.optionalInt("seed") == nil)
    #expect(parsed.optionalString("seed") == nil)
    #expect(parsed.strings("tag") == ["a", "b"])
    #expect(try parsed.values("tag") { $0.uppercased() } == ["A", "B"])
    #expect(parsed.flag("json"))
    #expect(try parsed.value("n") { Double($0)! } == 7.0)

    #expect(
      throws: UsageError(
        .invalidValue, "The value 'a' is invalid for '--tag <t>': not a number", help: "")
    ) {
      _ = try parsed.values("tag") { (text: String) throws(InvalidValue) -> Int in
        guard let number = Int(text) else { throw InvalidValue("not a number") }
        return number
      }
    }
  }

  @Test("the process context reads the real environment and directory")
  func standardContext() {
    let context = Context.standard()
    #expect(context.environment["PATH"] != nil)
    #expect(context.currentDirectory.hasPrefix("/"))
    #expect(context.absolutePath("a.journal") == context.currentDirectory + "/a.journal")
    #expect(context.absolutePath("/tmp/a.journal") == "/tmp/a.journal")
    let first = context.clock()
    #expect(context.clock() >= first)
  }
}
