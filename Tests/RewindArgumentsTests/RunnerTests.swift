import Testing

@testable import RewindArguments

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

  @Test("a command's error of a declared parameter's value shows its help, as the parser's do")
  func lateInvalidValue() {
    let skip = Sample.run(["state", "j", "--skip", "99"])
    #expect(skip.status == 64)
    #expect(
      skip.stderr.hasPrefix(
        "Error: The value '99' is invalid for '--skip <seq,...>': beyond the end\n"
          + "Help:  --skip <seq,...>  Events to leave out.\nUsage: "))
    let journal = Sample.run(["state", "gone"])
    #expect(
      journal.stderr.hasPrefix(
        "Error: The value 'gone' is invalid for '<journal>': no such file\n"
          + "Help:  <journal>  The journal to read.\nUsage: "))
    // A parameter the command does not declare has no help to show.
    let other = Sample.run(["state", "other"])
    #expect(other.status == 64)
    #expect(!other.stderr.contains("Help:"))
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
    let tool = CommandLineTool<TestStreams>(
      name: "t", version: "", abstract: "", commands: [.command { FailingCheck() }])
    let context = TestStreams()
    #expect(tool.run(arguments: ["check"], context: context) == 2)
    #expect(context.error == "Error: 2 states differ from the expected ones\n")
  }

  @Test(
    "the streams are finished once, whatever the run ends with",
    arguments: [["state", "j"], ["fail", "command"], ["state"], ["--help"], ["--version"]])
  func finished(arguments: [String]) {
    let context = TestStreams()
    _ = Sample.tool.run(arguments: arguments, context: context)
    #expect(context.finishCount == 1)
  }

  @Test("the sample tool's specs are sound")
  func soundSpecs() {
    #expect(Sample.tool.specProblems() == [])
  }

  @Test("mistakes in a spec are found")
  func specProblems() {
    let tool = CommandLineTool<TestStreams>(
      name: "t", version: "", abstract: "",
      commands: [
        .command { BadSpec() },
        .group(
          "group", abstract: "",
          subcommands: [.command { NamedHelp() }, .group("x", abstract: "", subcommands: [])]),
        .command { DefaultedList() }, .command { HintedOptions() },
      ])
    #expect(
      tool.specProblems() == [
        "'bad': <after>: no positional argument may follow a repeated one",
        "'bad': <after>: a required argument may not follow an optional one",
        "'bad': --at: name 'at' is used twice or is reserved",
        "'bad': --all: short name '-a' is used twice or is reserved",
        "'bad': --help: name 'help' is used twice or is reserved",
        "'bad': --bad name <>: name must be a non-empty word without dashes, spaces or '='",
        "'bad': --bad name <>: short name '-1' must be a letter",
        "'bad': --bad name <>: an option needs a value name",
        "'bad': --most <n>: help says '(default: …)', which help adds from the default",
        "'group': subcommand name 'help' is used twice or is reserved",
        "'x': a command needs an implementation or subcommands",
        "'defaulted': <files>: only an optional argument may have a default",
        "'hinted': the hint for --all is for an option it has",
        "'hinted': the hint for --help is for an option it has",
        "'hinted': the hint for -a is for an option it has",
        "'hinted': the hint for first is not for an option's spelling",
      ])
  }

  #if DEBUG
    @Test("running a command with a bad spec traps in a debug build")
    func badSpecTraps() async {
      let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        let tool = CommandLineTool<TestStreams>(
          name: "t", version: "", abstract: "", commands: [.command { TwoJSONFlags() }])
        _ = tool.run(arguments: ["x"], context: TestStreams())
      }
      let standardError = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
      #expect(
        standardError.contains(
          "bad command spec: 'x': --json: name 'json' is used twice or is reserved"))
    }
  #endif

  @Test("reading a declared value before the command line is read traps")
  func readBeforeParsingTraps() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Sample.Record().output
    }
    let standardError = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(
      standardError.contains(
        "an option declared with help 'The journal to write.' was read before the command line"
          + " was parsed; read it in run(_:)"))
  }
}

private struct FailingCheck: ParsableCommand {
  static let configuration = CommandConfiguration(name: "check", abstract: "")

  func run(_ context: TestStreams) throws {
    throw CommandError("2 states differ from the expected ones", exitCode: ExitCode(2))
  }
}

/// Every mistake a spec can make, but those of a group.
private struct BadSpec: ParsableCommand {
  static let configuration = CommandConfiguration(name: "bad", abstract: "")

  @Argument(help: "") var files: [String] = []
  @Argument(help: "") var after: String
  @Option(short: "a", valueName: "point", help: "") var at: String?
  @Flag(name: "at", help: "") var atFlag: Bool
  @Flag(short: "a", help: "") var all: Bool
  @Flag(help: "") var help: Bool
  @Option(name: "bad name", short: "1", valueName: "", help: "") var badName: String?
  @Option(valueName: "n", help: "At most n (default: 10).") var most: Int = 10

  func run(_ context: TestStreams) {}
}

/// Hints for options it has, which are never unknown, and for no option at all.
private struct HintedOptions: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "hinted", abstract: "",
    unknownOptionHints: [
      "--all": "", "-a": "", "--help": "", "first": "", "--first": "the first is the default",
    ])

  @Flag(short: "a", help: "") var all: Bool

  func run(_ context: TestStreams) {}
}

private struct NamedHelp: ParsableCommand {
  static let configuration = CommandConfiguration(name: "help", abstract: "")

  func run(_ context: TestStreams) {}
}

/// A repeated argument with a default, which a command line could never leave empty.
private struct DefaultedList: ParsableCommand {
  static let configuration = CommandConfiguration(name: "defaulted", abstract: "")

  @Argument(help: "") var files = ["a.journal"]

  func run(_ context: TestStreams) {}
}

private struct TwoJSONFlags: ParsableCommand {
  static let configuration = CommandConfiguration(name: "x", abstract: "")

  @Flag(help: "") var json: Bool
  @Flag(name: "json", help: "") var again: Bool

  func run(_ context: TestStreams) {}
}
