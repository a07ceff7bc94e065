import Testing

@testable import RewindArguments

@Suite("Typed declarations")
struct DeclarationTests {
  static let tool = CommandLineTool<TestStreams>(
    name: "t", version: "", abstract: "", commands: [.command { Shapes(greeting: "hello") }])

  static func run(_ arguments: [String]) -> (status: Int32, stdout: String, stderr: String) {
    let context = TestStreams()
    let status = tool.run(arguments: ["shapes"] + arguments, context: context)
    return (status, context.output, context.error)
  }

  @Test(
    "every shape of declaration reads back its value",
    arguments: [
      (
        ["7"],
        "count=7 name=nil limit=10(default) seed=nil tag=[] colour=red ratio=nil shout=nil"
          + " json=false quiet=false greeting=hello"
      ),
      (
        [
          "7", "ann", "--limit", "3", "--seed=-2", "--tag", "a", "-t", "b", "--colour", "blue",
          "--ratio", "0.5", "--shout", "hey", "--json", "-q",
        ],
        "count=7 name=ann limit=3(given) seed=-2 tag=[\"a\", \"b\"] colour=blue ratio=0.5"
          + " shout=HEY json=true quiet=true greeting=hello"
      ),
      (
        ["--limit", "10", "-1"],
        "count=-1 name=nil limit=10(given) seed=nil tag=[] colour=red ratio=nil shout=nil"
          + " json=false quiet=false greeting=hello"
      ),
    ] as [([String], String)])
  func shapes(arguments: [String], expected: String) {
    let result = Self.run(arguments)
    #expect(result.stderr == "")
    #expect(result.stdout == expected + "\n")
    #expect(result.status == 0)
  }

  @Test("the help shows each declaration's names, value names and defaults")
  func help() {
    #expect(
      Self.run(["--help"]).stdout == """
        USAGE: t shapes <count> [<name>] [--limit <limit>] [--seed <seed>] [--tag <t> ...] [--colour <colour>] [--ratio <ratio>] [--shout <shout>] [--json] [--quiet]

        ARGUMENTS:
          <count>                 How many.
          <name>                  Who.

        OPTIONS:
          --limit <limit>         The most. (default: 10)
          --seed <seed>           The seed.
          -t, --tag <t>           A tag.
          --colour <colour>       The colour. (default: red)
          --ratio <ratio>         A ratio.
          --shout <shout>         Said loudly.
          --json                  Print JSON.
          -q, --quiet             Say less.
          -h, --help              Show help information.


        """)
  }

  @Test(
    "a value that does not read is a usage error naming it, its parameter and the reason",
    arguments: [
      (["x"], "Error: The value 'x' is invalid for '<count>'\nHelp:  <count>  How many.\n"),
      (
        ["1", "--colour", "purple"],
        "Error: The value 'purple' is invalid for '--colour <colour>': expected red, green, blue\n"
          + "Help:  --colour <colour>  The colour.\n"
      ),
      (
        ["1", "--shout", ""],
        "Error: The value '' is invalid for '--shout <shout>': say something\n"
          + "Help:  --shout <shout>  Said loudly.\n"
      ),
      (
        ["1", "-t", "a", "--limit", "-3"],
        "Error: The value '-3' is invalid for '--limit <limit>'\n"
          + "Help:  --limit <limit>  The most.\n"
      ),
      (
        ["1", "--ratio", "half"],
        "Error: The value 'half' is invalid for '--ratio <ratio>'\nHelp:  --ratio <ratio>  A ratio.\n"
      ),
    ] as [([String], String)])
  func invalid(arguments: [String], expected: String) {
    let result = Self.run(arguments)
    #expect(result.stderr.hasPrefix(expected))
    #expect(result.stdout == "")
    #expect(result.status == 64)
  }

  @Test(
    "a property's name becomes the long name in kebab case",
    arguments: [
      ("_snapshotInterval", "snapshot-interval"), ("_json", "json"), ("jsonURL", "json-url"),
      ("_URLPath", "url-path"), ("with100m", "with100m"), ("level2Cache", "level2-cache"),
      ("_baselinesUpTo", "baselines-up-to"),
    ])
  func kebabCase(property: String, name: String) {
    #expect(commandLineName(ofProperty: property) == name)
  }

  @Test("a tool of one command takes its options at the top, with help and version")
  func singleCommand() {
    let tool = CommandLineTool<TestStreams>(version: "2.0") { Bench() }
    func run(_ arguments: [String]) -> (Int32, String, String) {
      let context = TestStreams()
      let status = tool.run(arguments: arguments, context: context)
      return (status, context.output, context.error)
    }
    #expect(tool.specProblems() == [])
    #expect(run(["--quick", "--runs", "3"]) == (0, "quick=true runs=3\n", ""))
    #expect(run([]) == (0, "quick=false runs=5\n", ""))
    #expect(run(["--version"]) == (0, "2.0\n", ""))
    #expect(
      run(["-h"]).1 == """
        OVERVIEW: Measure things.

        USAGE: bench [--quick] [--runs <n>]

        OPTIONS:
          --quick                 Small and fast.
          --runs <n>              Timed runs. (default: 5)
          --version               Show the version.
          -h, --help              Show help information.


        """)
    #expect(
      run(["--qiuck"])
        == (
          64, "",
          """
          Error: Unknown option '--qiuck'. Did you mean '--quick'?
          Usage: bench [--quick] [--runs <n>]
            See 'bench --help' for more information.

          """
        ))
    #expect(
      run(["extra"])
        == (
          64, "",
          """
          Error: Unexpected argument 'extra'
          Usage: bench [--quick] [--runs <n>]
            See 'bench --help' for more information.

          """
        ))
  }

  @Test("a group's parameters take its place, with their names, help and defaults")
  func groups() {
    let tool = CommandLineTool<TestStreams>(
      name: "t", version: "", abstract: "",
      commands: [.command { Fetch() }, .command { Send() }])
    func run(_ arguments: [String]) -> (status: Int32, stdout: String, stderr: String) {
      let context = TestStreams()
      let status = tool.run(arguments: arguments, context: context)
      return (status, context.output, context.error)
    }
    #expect(
      run(["fetch", "a", "--user", "ann", "--timeout", "9", "--json", "--verbose"]).stdout
        == "what=a user=ann timeout=9(given) verbose=true json=true\n")
    #expect(
      run(["fetch", "b"]).stdout == "what=b user=nil timeout=50(default) verbose=false json=false\n"
    )
    #expect(run(["send", "--timeout", "3"]).stdout == "user=nil timeout=3\n")
    let help = run(["fetch", "--help"]).stdout
    #expect(
      help.hasPrefix(
        "USAGE: t fetch <what> [--user <user>] [--timeout <ms>] [--verbose] [--json]\n"))
    #expect(help.contains("--timeout <ms>          How long to wait. (default: 50)"))
    let wrong = run(["fetch", "c", "--timeout", "x"])
    #expect(wrong.status == 64)
    #expect(wrong.stderr.hasPrefix("Error: The value 'x' is invalid for '--timeout <ms>'"))
    let unknown = run(["send", "--json"])
    #expect(unknown.status == 64)
    #expect(unknown.stderr.contains("Error: Unknown option '--json'"))
  }

  @Test("a group's declarations are read by their offsets, as a command's, not through Mirror")
  func groupsReadByOffsets() throws {
    let group: any ParsableArguments = Loud()
    let properties = try #require(DeclaredParameters.storedProperties(ofGroup: group))
    #expect(properties.map(\.label) == ["connection", "noise"])
    let inner = try #require(
      DeclaredParameters.storedProperties(ofGroup: Connection() as any ParsableArguments))
    #expect(inner.map(\.label) == ["_user", "_timeout"])
    // The same declarations, in the same order, as Mirror finds.
    let read = DeclaredParameters(of: Fetch()).parameters.map(\.name)
    #expect(read == ["what", "user", "timeout", "verbose", "json"])
  }

  @Test("a command value is made afresh for every run")
  func freshValues() {
    let first = Self.run(["1", "--json"])
    let second = Self.run(["2"])
    #expect(first.stdout.contains("count=1 ") && first.stdout.contains("json=true"))
    #expect(second.stdout.contains("count=2 ") && second.stdout.contains("json=false"))
  }
}

enum Colour: String, CaseIterable, ExpressibleByArgument {
  case red, green, blue
}

/// One declaration of every shape, and a stored property that is no declaration.
private struct Shapes: ParsableCommand {
  static let configuration = CommandConfiguration(name: "shapes", abstract: "")

  let greeting: String

  @Argument(help: "How many.") var count: Int
  @Argument(help: "Who.") var name: String?
  @Option(help: "The most.") var limit: UInt64 = 10
  @Option(help: "The seed.") var seed: Int?
  @Option(short: "t", valueName: "t", help: "A tag.") var tag: [String]
  @Option(help: "The colour.") var colour = Colour.red
  @Option(help: "A ratio.") var ratio: Double?
  @Option(help: "Said loudly.", transform: loud) var shout: String?
  @Flag(help: "Print JSON.") var json: Bool
  @Flag(name: "quiet", short: "q", help: "Say less.") var beQuiet: Bool

  func run(_ context: TestStreams) throws {
    context.print(
      "count=\(count) name=\(name ?? "nil") limit=\(limit)(\($limit.isGiven ? "given" : "default"))"
        + " seed=\(seed.map(String.init) ?? "nil") tag=\(tag) colour=\(colour.rawValue)"
        + " ratio=\(ratio.map { "\($0)" } ?? "nil") shout=\(shout ?? "nil") json=\(json)"
        + " quiet=\(beQuiet) greeting=\(greeting)")
  }
}

private func loud(_ text: String) throws(InvalidValue) -> String {
  guard !text.isEmpty else { throw InvalidValue("say something") }
  return text.uppercased()
}

/// Parameters two commands share, one of them a group itself.
private struct Connection: ParsableArguments {
  @Option(help: "The user name.") var user: String?
  @Option(valueName: "ms", help: "How long to wait.") var timeout = 50
}

private struct Noise: ParsableArguments {
  @Flag(help: "Say more.") var verbose: Bool
}

private struct Loud: ParsableArguments {
  var connection = Connection()
  var noise = Noise()
}

private struct Fetch: ParsableCommand {
  static let configuration = CommandConfiguration(name: "fetch", abstract: "")

  @Argument(help: "What.") var what: String
  var options = Loud()
  @Flag(help: "Print JSON.") var json: Bool

  func run(_ context: TestStreams) throws {
    let connection = options.connection
    context.print(
      "what=\(what) user=\(connection.user ?? "nil")"
        + " timeout=\(connection.timeout)(\(connection.$timeout.isGiven ? "given" : "default"))"
        + " verbose=\(options.noise.verbose) json=\(json)")
  }
}

private struct Send: ParsableCommand {
  static let configuration = CommandConfiguration(name: "send", abstract: "")

  var connection = Connection()

  func run(_ context: TestStreams) throws {
    context.print("user=\(connection.user ?? "nil") timeout=\(connection.timeout)")
  }
}

/// A tool that is one command.
private struct Bench: ParsableCommand {
  static let configuration = CommandConfiguration(name: "bench", abstract: "Measure things.")

  @Flag(help: "Small and fast.") var quick: Bool
  @Option(valueName: "n", help: "Timed runs.") var runs = 5

  func run(_ context: TestStreams) throws {
    context.print("quick=\(quick) runs=\(runs)")
  }
}
