import Synchronization
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
        USAGE: t shapes <count> [<name>] [--limit <limit>] [--seed <seed>]
                        [--tag <t> ...] [--colour <colour>] [--ratio <ratio>]
                        [--shout <shout>] [--json] [--quiet]

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
      (
        ["x"],
        "Error: The value 'x' is invalid for '<count>': expected a whole number\n"
          + "Help:  <count>  How many.\n"
      ),
      (
        ["9223372036854775808"],
        "Error: The value '9223372036854775808' is invalid for '<count>': too large: at most 9,223,372,036,854,775,807\n"
      ),
      (
        ["--", "-9223372036854775809"],
        "Error: The value '-9223372036854775809' is invalid for '<count>': too small: at least -9,223,372,036,854,775,808\n"
      ),
      (
        ["1", "--limit", "18446744073709551616"],
        "Error: The value '18446744073709551616' is invalid for '--limit <limit>': too large: at most 18,446,744,073,709,551,615\n"
      ),
      (
        ["1", "--limit", "+"],
        "Error: The value '+' is invalid for '--limit <limit>': expected a whole number\n"
      ),
      (
        ["1", "--seed", "1.5"],
        "Error: The value '1.5' is invalid for '--seed <seed>': expected a whole number\n"
      ),
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
        "Error: The value '-3' is invalid for '--limit <limit>': expected a whole number, not negative\n"
          + "Help:  --limit <limit>  The most.\n"
      ),
      (
        ["1", "--ratio", "half"],
        "Error: The value 'half' is invalid for '--ratio <ratio>': expected a number\n"
          + "Help:  --ratio <ratio>  A ratio.\n"
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
    let fields = try #require(DeclaredParameters.storedFields(of: Loud.self))
    #expect(fields.map(\.label) == ["connection", "noise"])
    let inner = try #require(DeclaredParameters.storedFields(of: Connection.self))
    #expect(inner.map(\.label) == ["_user", "_timeout"])
    #expect(DeclaredParameters.storedFields(of: TestStreams.self) == nil)
    // A group whose first property is a declaration starts where that declaration does
    // (`connection`), and a group of one declaration is as long as it (`noise`).
    let read = DeclaredParameters.make { Fetch() }.declared.parameters.map(\.name)
    #expect(read == ["what", "user", "timeout", "verbose", "json"])
  }

  @Test("declarations the command value does not hold in its own bytes are not its parameters")
  func declarationsElsewhere() {
    let made = DeclaredParameters.make { Holder() }
    #expect(made.declared.parameters.map(\.name) == ["kept"])
    let tool = CommandLineTool<TestStreams>(
      name: "t", version: "", abstract: "", commands: [.command { Holder() }])
    let context = TestStreams()
    #expect(tool.run(arguments: ["holder", "--kept", "4"], context: context) == 0)
    #expect(context.output == "kept=4\n")
  }

  @Test("a command that is a class is read through Mirror")
  func classCommand() {
    let tool = CommandLineTool<TestStreams>(
      name: "t", version: "", abstract: "", commands: [.command { Counter() }])
    let context = TestStreams()
    #expect(tool.run(arguments: ["counter", "3", "--step", "2"], context: context) == 0)
    #expect(context.output == "from=3 step=2 loud=false\n")
    let help = TestStreams()
    #expect(tool.run(arguments: ["counter", "--help"], context: help) == 0)
    #expect(help.output.hasPrefix("USAGE: t counter <from> [--step <step>] [--verbose] [--loud]\n"))
    #expect(help.output.contains("(default: 1)"))
  }

  @Test("commands made at once on several threads each read their own declarations")
  func concurrentMaking() async {
    let names = await withTaskGroup(of: [String].self) { group in
      for index in 0..<16 {
        group.addTask {
          index.isMultiple(of: 2)
            ? DeclaredParameters.make { Fetch() }.declared.parameters.map(\.name)
            : DeclaredParameters.make { Send() }.declared.parameters.map(\.name)
        }
      }
      return await group.reduce(into: []) { $0.append($1) }
    }
    #expect(names.filter { $0 == ["what", "user", "timeout", "verbose", "json"] }.count == 8)
    #expect(names.filter { $0 == ["user", "timeout"] }.count == 8)
  }

  @Test("a default's text is made when help shows it, not when the command runs")
  func defaultTextsOnlyForHelp() throws {
    let before = Shown.descriptions.withLock { $0 }
    let made = DeclaredParameters.make { Described() }
    let parsed = try ParsedArguments(parsing: ["--one", "x"], for: made.declared.parameters)
    try made.declared.fill(from: parsed)
    #expect(made.declared.parameters.map(\.defaultValue) == [nil, nil])
    #expect(Shown.descriptions.withLock { $0 } == before)
    let documented = made.declared.documentedParameters
    #expect(documented.map(\.defaultValue) == ["shown", "shown, shown"])
    #expect(Shown.descriptions.withLock { $0 } == before + 3)
    let tool = CommandLineTool<TestStreams>(
      name: "t", version: "", abstract: "", commands: [.command { Described() }])
    let help = TestStreams()
    #expect(tool.run(arguments: ["described", "--help"], context: help) == 0)
    #expect(help.output.contains("A shown value. (default: shown)"))
    #expect(help.output.contains("Two shown values. (default: shown, shown)"))
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

/// A command that holds one declaration in its bytes and makes two it does not hold: one
/// thrown away, one in an array.
private struct Holder: ParsableCommand {
  static let configuration = CommandConfiguration(name: "holder", abstract: "")

  @Option(help: "Kept.") var kept = 1
  let others: [Option<Int>]

  init() {
    _ = Option<Int>(name: "dropped", help: "Dropped.")
    others = [Option<Int>(name: "listed", help: "Listed.")]
  }

  func run(_ context: TestStreams) throws {
    context.print("kept=\(kept)")
  }
}

/// A command that is a class.
private final class Counter: ParsableCommand {
  static let configuration = CommandConfiguration(name: "counter", abstract: "")

  @Argument(help: "Where to start.") var from: Int
  @Option(help: "By how much.") var step = 1
  var noise = Noise()
  @Flag(help: "Shout.") var loud: Bool

  func run(_ context: TestStreams) throws {
    context.print("from=\(from) step=\(step) loud=\(loud)")
  }
}

/// A value that counts how often its default's text is made.
private struct Shown: ExpressibleByArgument {
  static let descriptions = Mutex(0)

  init() {}
  init(argument: String) {}

  var defaultValueDescription: String {
    Self.descriptions.withLock { $0 += 1 }
    return "shown"
  }
}

private struct Described: ParsableCommand {
  static let configuration = CommandConfiguration(name: "described", abstract: "")

  @Option(help: "A shown value.") var one = Shown()
  @Option(help: "Two shown values.") var two = [Shown(), Shown()]

  func run(_ context: TestStreams) throws {}
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

/// A group that is a class, held by a command.
private final class SharedOptions: ParsableArguments {
  @Option(help: "Where.") var host: String?
}

/// A command whose groups the field walk cannot find by their boxes' addresses: one a
/// class, one behind an optional.
private struct Remote: ParsableCommand {
  static let configuration = CommandConfiguration(name: "remote", abstract: "")

  var shared = SharedOptions()
  var maybe: Connection? = Connection()
  @Flag(help: "Print JSON.") var json: Bool

  func run(_ context: TestStreams) throws {
    context.print(
      "host=\(shared.host ?? "nil") user=\(maybe?.user ?? "nil") timeout=\(maybe?.timeout ?? 0)"
        + " json=\(json)")
  }
}

extension DeclarationTests {
  @Test("a group that is a class or behind an optional is read through casts and Mirror")
  func groupsElsewhere() {
    let made = DeclaredParameters.make { Remote() }
    #expect(made.declared.parameters.map(\.name) == ["host", "user", "timeout", "json"])
    let tool = CommandLineTool<TestStreams>(
      name: "t", version: "", abstract: "", commands: [.command { Remote() }])
    let context = TestStreams()
    let status = tool.run(
      arguments: ["remote", "--host", "h", "--user", "ann", "--timeout", "7", "--json"],
      context: context)
    #expect(status == 0)
    #expect(context.output == "host=h user=ann timeout=7 json=true\n")
  }

  @Test("a command value made before it is read still declares its parameters")
  func valueMadeEarlier() {
    let kept = Bench()
    let made = DeclaredParameters.make { kept }
    #expect(made.declared.parameters.map(\.name) == ["quick", "runs"])
  }
}
