import Testing

@testable import RewindArguments

@Suite("Help screens")
struct HelpTests {
  static let rootHelp = """
    OVERVIEW: Replay, inspect and test recorded sessions.

    USAGE: rewind <subcommand>

    OPTIONS:
      --version               Show the version.
      -h, --help              Show help information.

    SUBCOMMANDS:
      record                  Record a scenario script into a journal.
      state                   Print the state at a point in a session.
      diff                    Show how the state differs between journals.
      log                     List the events of a session.
      count                   Count events, with a progress bar.
      fail                    Fail in the way asked.
      jetstream               Ship sessions to and from a JetStream cluster.

      See 'rewind help <subcommand>' for detailed help.

    """

  static let stateHelp = """
    OVERVIEW: Print the state at a point in a session.

    Replays the journal up to the point and prints the state, as text or JSON.

    USAGE: rewind state <journal> [--at <point>] [--skip <seq,...>] [--json]

    ARGUMENTS:
      <journal>               The journal to read.

    OPTIONS:
      --at <point>            The point in the session. (default: end)
      --skip <seq,...>        Events to leave out.
      --json                  Print JSON.
      -h, --help              Show help information.


    """

  @Test(
    "the tool's help, on stdout with status 0, however it is asked for",
    arguments: [
      ["help"], ["--help"], ["-h"], ["help", "--help"], ["--version", "-h"], ["help", "help"],
    ])
  func root(arguments: [String]) {
    let result = Sample.run(arguments)
    #expect(result.stdout == Self.rootHelp)
    #expect(result.stderr == "")
    #expect(result.status == 0)
  }

  @Test("the tool alone: its help on stderr and status 64, since a command is missing")
  func rootAlone() {
    let result = Sample.run([])
    #expect(result.stdout == "")
    #expect(result.stderr == Self.rootHelp)
    #expect(result.status == 64)
  }

  @Test(
    "a command's help, however it is asked for, even after a mistake",
    arguments: [
      ["help", "state"], ["help", "help", "state"], ["state", "--help"], ["state", "-h"],
      ["state", "j", "--at", "1", "-h"],
      ["state", "--bogus", "--help"], ["state", "a", "b", "c", "-h"],
    ])
  func command(arguments: [String]) {
    let result = Sample.run(arguments)
    #expect(result.stdout == Self.stateHelp)
    #expect(result.stderr == "")
    #expect(result.status == 0)
  }

  @Test("after '--', '--help' is a value")
  func helpAfterTerminator() {
    #expect(
      Sample.run(["state", "--", "--help"]).stdout == "journal=--help at=end skip=- json=false\n")
  }

  @Test("short names, required options, defaults and repeated parameters")
  func labels() {
    #expect(
      Sample.run(["record", "--help"]).stdout == """
        OVERVIEW: Record a scenario script into a journal.

        USAGE: rewind record <script> --output <file> [--events <count>] [--seed <n>]
                             [--verbose]

        ARGUMENTS:
          <script>                The scenario script to play.

        OPTIONS:
          -o, --output <file>     The journal to write.
          --events <count>        How many events to generate. (default: 1000)
          --seed <n>              The random seed.
          -v, --verbose           Say what is happening.
          -h, --help              Show help information.


        """)
    #expect(
      Sample.run(["help", "log"]).stdout == """
        OVERVIEW: List the events of a session.

        USAGE: rewind log [<journal>] [--limit <count>] [<extra> ...]

        ARGUMENTS:
          <journal>               The journal to read. (default: session.journal)
          <extra>                 Ignored.

        OPTIONS:
          --limit <count>         The most events to list.
          -h, --help              Show help information.


        """)
    #expect(
      Sample.run(["diff", "-h"]).stdout.contains(
        "USAGE: rewind diff <journal> ... [--from <point>] [--field <path> ...]\n"))
  }

  @Test("a group of subcommands, and the help of a nested command")
  func nested() {
    let group = """
      OVERVIEW: Ship sessions to and from a JetStream cluster.

      USAGE: rewind jetstream <subcommand>

      OPTIONS:
        -h, --help              Show help information.

      SUBCOMMANDS:
        push                    Push a journal.
        pull                    Pull a session.

        See 'rewind help jetstream <subcommand>' for detailed help.

      """
    let alone = Sample.run(["jetstream"])
    #expect(alone.stderr == group && alone.stdout == "" && alone.status == 64)
    #expect(Sample.run(["help", "jetstream"]).stdout == group)
    #expect(Sample.run(["jetstream", "--help"]).stdout == group)
    let push = """
      OVERVIEW: Push a journal.

      USAGE: rewind jetstream push <journal>

      ARGUMENTS:
        <journal>               The journal to push.

      OPTIONS:
        -h, --help              Show help information.


      """
    #expect(Sample.run(["help", "jetstream", "push"]).stdout == push)
    #expect(Sample.run(["jetstream", "push", "-h"]).stdout == push)
  }

  @Test("--version prints the version; only the tool has it")
  func version() {
    let result = Sample.run(["--version"])
    #expect(result.stdout == "1.2.3\n")
    #expect(result.status == 0)
    #expect(
      Sample.run(["state", "--version"]).stderr.hasPrefix("Error: Unknown option '--version'\n"))
    let unversioned = CommandLineTool<TestStreams>(
      name: "tool", version: "", abstract: "A tool.", commands: Sample.tool.root.subcommands)
    let context = TestStreams()
    #expect(unversioned.run(arguments: ["--help"], context: context) == 0)
    #expect(!context.output.contains("--version"))
  }

  @Test("long help wraps at 80 columns with the argument parser's indentation")
  func wrapping() {
    let text = HelpFormatter.help(
      path: [Sample.tool.root, .command { Export() }], showsVersion: false)
    #expect(
      text == """
        OVERVIEW: Export a session as JSON Lines: one event a line, after a header line
        with the catalog the session ran with.

        The output can be read back with 'rewind import'. Events keep their sequence
        numbers and their time offsets, so the imported journal replays identically.

        Example: rewind export session.journal -d out

        USAGE: rewind export <journal> [--output-directory <directory>]
                             [--include-snapshots]

        ARGUMENTS:
          <journal>               The journal to export.

        OPTIONS:
          -d, --output-directory <directory>
                                  Where to write the file; it is created when missing
                                  and never overwritten. (default: .)
          --include-snapshots     Also write the state snapshots stored in the journal,
                                  one line each.
                Snapshots make the file larger but let a reader start anywhere in the
                session without replaying from the start.
          -h, --help              Show help information.


        """)
    for line in text.split(separator: "\n") {
      #expect(line.count <= 80)
    }
  }

  @Test("more than twelve parameters: the usage line keeps the required ones")
  func longUsage() {
    #expect(
      HelpFormatter.usage(path: [Sample.tool.root, .command { Many() }])
        == "rewind many [<options>] <journal>")
    #expect(
      HelpFormatter.usage(path: [Sample.tool.root, .command { Flags() }])
        == "rewind flags <options>")
  }
}

/// A command whose help is long enough to wrap.
private struct Export: ParsableCommand {
  static let configuration = CommandConfiguration(
    name: "export",
    abstract:
      "Export a session as JSON Lines: one event a line, after a header line with the catalog the session ran with.",
    discussion: """
      The output can be read back with 'rewind import'. Events keep their sequence numbers and their time offsets, so the imported journal replays identically.

      Example: rewind export session.journal -d out
      """)

  @Argument(help: "The journal to export.")
  var journal: String
  @Option(
    short: "d", valueName: "directory",
    help: "Where to write the file; it is created when missing and never overwritten.")
  var outputDirectory = "."
  @Flag(
    help: "Also write the state snapshots stored in the journal, one line each.",
    discussion:
      "Snapshots make the file larger but let a reader start anywhere in the session without replaying from the start."
  )
  var includeSnapshots: Bool

  func run(_ context: TestStreams) {}
}

/// A journal and twelve flags: more parameters than a usage line lists.
private struct Many: ParsableCommand {
  static let configuration = CommandConfiguration(name: "many", abstract: "")

  @Argument(help: "") var journal: String
  @Flag(help: "") var flag1: Bool
  @Flag(help: "") var flag2: Bool
  @Flag(help: "") var flag3: Bool
  @Flag(help: "") var flag4: Bool
  @Flag(help: "") var flag5: Bool
  @Flag(help: "") var flag6: Bool
  @Flag(help: "") var flag7: Bool
  @Flag(help: "") var flag8: Bool
  @Flag(help: "") var flag9: Bool
  @Flag(help: "") var flag10: Bool
  @Flag(help: "") var flag11: Bool
  @Flag(help: "") var flag12: Bool

  func run(_ context: TestStreams) {}
}

/// Thirteen flags and nothing required.
private struct Flags: ParsableCommand {
  static let configuration = CommandConfiguration(name: "flags", abstract: "")

  @Flag(help: "") var flag1: Bool
  @Flag(help: "") var flag2: Bool
  @Flag(help: "") var flag3: Bool
  @Flag(help: "") var flag4: Bool
  @Flag(help: "") var flag5: Bool
  @Flag(help: "") var flag6: Bool
  @Flag(help: "") var flag7: Bool
  @Flag(help: "") var flag8: Bool
  @Flag(help: "") var flag9: Bool
  @Flag(help: "") var flag10: Bool
  @Flag(help: "") var flag11: Bool
  @Flag(help: "") var flag12: Bool
  @Flag(help: "") var flag13: Bool

  func run(_ context: TestStreams) {}
}

@Suite("The usage laid out in 80 columns")
struct UsageLayoutTests {
  @Test("parameters that do not fit go on the next line under the first, none broken")
  func layout() {
    let path: [Command<TestStreams>] = [Sample.tool.root, .command { Export() }]
    let text = HelpFormatter.usage(after: "USAGE: ", path: path)
    #expect(
      text == """
        USAGE: rewind export <journal> [--output-directory <directory>]
                             [--include-snapshots]
        """)
    // The same parameters as the synopsis on one line, in order.
    let joined = text.split(separator: "\n").map { $0.drop { $0 == " " } }.joined(separator: " ")
    #expect(joined == "USAGE: " + HelpFormatter.usage(path: path))
    for line in text.split(separator: "\n") { #expect(line.count <= 80, "\(line)") }
    // A short one stays on one line.
    #expect(
      HelpFormatter.usage(after: "Usage: ", path: [Sample.tool.root, .command { Many() }])
        == "Usage: rewind many [<options>] <journal>")
  }
}

@Suite("Exit statuses in help")
struct ExitStatusHelpTests {
  /// A tool that says the statuses every command shares, and a command that says its own.
  static let tool = CommandLineTool<TestStreams>(
    name: "tool", version: "",
    abstract: "Compare things.",
    exitStatuses: [
      ExitStatusHelp("0", "Success."),
      ExitStatusHelp("64", "A usage error."),
      ExitStatusHelp("", "A command's help gives its own."),
    ],
    commands: [.command { Compare() }, .command { Plain() }])

  struct Compare: ParsableCommand {
    static let configuration = CommandConfiguration(
      name: "compare", abstract: "Compare two things.",
      exitStatuses: [
        ExitStatusHelp(
          "2",
          "With --exit-code: they cannot be compared, the one or the other being unreadable, damaged or missing."
        ),
        ExitStatusHelp("128+N", "A signal."),
      ])

    func run(_ context: TestStreams) {}
  }

  struct Plain: ParsableCommand {
    static let configuration = CommandConfiguration(name: "plain", abstract: "Do nothing.")

    func run(_ context: TestStreams) {}
  }

  static func help(_ arguments: [String]) -> String {
    let context = TestStreams()
    #expect(tool.run(arguments: arguments, context: context) == 0)
    return context.output
  }

  @Test("the tool's help lists its statuses last, a note under them, after the subcommands")
  func toolStatuses() {
    #expect(
      Self.help(["help"]) == """
        OVERVIEW: Compare things.

        USAGE: tool <subcommand>

        OPTIONS:
          -h, --help              Show help information.

        SUBCOMMANDS:
          compare                 Compare two things.
          plain                   Do nothing.

          See 'tool help <subcommand>' for detailed help.

        EXIT STATUS:
          0       Success.
          64      A usage error.
          A command's help gives its own.


        """)
  }

  @Test("a command's help lists its own statuses, wrapped under the meaning's column")
  func commandStatuses() {
    #expect(
      Self.help(["compare", "--help"]) == """
        OVERVIEW: Compare two things.

        USAGE: tool compare

        OPTIONS:
          -h, --help              Show help information.

        EXIT STATUS:
          2       With --exit-code: they cannot be compared, the one or the other being
                  unreadable, damaged or missing.
          128+N   A signal.


        """)
    // A command without statuses has no section.
    #expect(!Self.help(["plain", "--help"]).contains("EXIT STATUS"))
  }
}

@Suite("Help topics")
struct HelpTopicTests {
  /// A tool with a topic that has other names.
  static let tool = CommandLineTool<TestStreams>(
    name: "tool", version: "", abstract: "Compare things.",
    commands: [.command { ExitStatusHelpTests.Plain() }],
    topics: [
      HelpTopic(
        "scenario", aliases: ["scripts", "script"], abstract: "The script language.",
        text: "SCRIPTS\n")
    ])

  static func run(_ arguments: [String]) -> (status: Int32, output: String, error: String) {
    let context = TestStreams()
    let status = tool.run(arguments: arguments, context: context)
    return (status, context.output, context.error)
  }

  @Test("a topic prints by its name or another of its names; the tool's help lists the name alone")
  func aliases() {
    for name in ["scenario", "scripts", "script"] {
      #expect(Self.run(["help", name]) == (0, "SCRIPTS\n", ""), "\(name)")
    }
    let root = Self.run(["help"]).output
    #expect(root.contains("HELP TOPICS:\n  scenario                The script language.\n\n"))
    #expect(!root.contains("scripts"))
    // A near miss of any of its names is suggested.
    #expect(
      Self.run(["help", "scrips"]).error.hasPrefix(
        "Error: Unknown subcommand or help topic 'scrips'. Did you mean 'scripts'?"))
  }
}
