import RewindArguments

/// A small tool in the shape of `rewind`, to test the command-line machinery without the
/// real commands. Each command prints what it was given, so tests read the parse back.
enum Sample {
  static let tool = CommandLineTool<TestStreams>(
    name: "rewind", version: "1.2.3",
    abstract: "Replay, inspect and test recorded sessions.",
    commands: [
      .command { Record() }, .command { State() }, .command { Diff() }, .command { Log() },
      .command { Count() }, .command { Fail() },
      .group(
        "jetstream", abstract: "Ship sessions to and from a JetStream cluster.",
        subcommands: [.command { Push() }, .command { Pull() }]),
    ])

  /// Runs the sample tool in-process and returns what it printed and its status.
  static func run(_ arguments: [String], errorLabel: String = "Error:") -> (
    status: Int32, stdout: String, stderr: String
  ) {
    let context = TestStreams(errorLabel: errorLabel)
    let status = tool.run(arguments: arguments, context: context)
    return (status, context.output, context.error)
  }

  struct Record: ParsableCommand {
    static let configuration = CommandConfiguration(
      name: "record", abstract: "Record a scenario script into a journal.")

    @Argument(help: "The scenario script to play.")
    var script: String
    @Option(short: "o", valueName: "file", help: "The journal to write.")
    var output: String
    @Option(valueName: "count", help: "How many events to generate.")
    var events: Int = 1000
    @Option(valueName: "n", help: "The random seed.")
    var seed: Int?
    @Flag(short: "v", help: "Say what is happening.")
    var verbose: Bool

    func run(_ context: TestStreams) throws {
      context.print(
        "script=\(script) output=\(output) events=\(events) seed=\(seed.map(String.init) ?? "none")"
          + " verbose=\(verbose)")
    }
  }

  struct State: ParsableCommand {
    static let configuration = CommandConfiguration(
      name: "state", abstract: "Print the state at a point in a session.",
      discussion: "Replays the journal up to the point and prints the state, as text or JSON.",
      unknownOptionHints: ["--end": "the state at the end is the default; --at for another point"])

    @Argument(help: "The journal to read.")
    var journal: String
    @Option(valueName: "point", help: "The point in the session.")
    var at: Point = .end
    @Option(valueName: "seq,...", help: "Events to leave out.")
    var skip: String?
    @Flag(help: "Print JSON.")
    var json: Bool

    func run(_ context: TestStreams) throws {
      // Values found wrong once the command line is read (against a session).
      if skip == "99" {
        throw UsageError(
          .invalidValue, "The value '99' is invalid for '--skip <seq,...>': beyond the end")
      }
      if journal == "gone" {
        throw UsageError(.invalidValue, "The value 'gone' is invalid for '<journal>': no such file")
      }
      if journal == "other" {
        throw UsageError(.invalidValue, "The value 'x' is invalid for '--other <x>': not declared")
      }
      context.print("journal=\(journal) at=\(at) skip=\(skip ?? "-") json=\(json)")
    }

    /// A number among the words goes after `--at`.
    static func unexpectedArgumentsHint(positionals: [String]) -> String? {
      guard let number = positionals.first(where: { Int($0) != nil }) else { return nil }
      return
        "a number goes after --at (given: \(positionals.joined(separator: " ")); --at \(number))"
    }
  }

  struct Diff: ParsableCommand {
    static let configuration = CommandConfiguration(
      name: "diff", abstract: "Show how the state differs between journals.")

    @Argument(name: "journal", help: "The journals to compare.")
    var journals: [String]
    @Option(valueName: "point", help: "The first point.")
    var from = "start"
    @Option(valueName: "path", help: "A field to compare.", transform: nonEmptyField)
    var field: [String]

    func run(_ context: TestStreams) throws {
      context.print("journals=\(journals) from=\(from) fields=\(field)")
    }
  }

  struct Log: ParsableCommand {
    static let configuration = CommandConfiguration(
      name: "log", abstract: "List the events of a session.")

    @Argument(help: "The journal to read.")
    var journal = "session.journal"
    @Option(valueName: "count", help: "The most events to list.")
    var limit: Int?
    @Argument(help: "Ignored.")
    var extra: [String] = []

    func run(_ context: TestStreams) throws {
      context.print("journal=\(journal) limit=\(limit.map(String.init) ?? "none") extra=\(extra)")
    }
  }

  struct Count: ParsableCommand {
    static let configuration = CommandConfiguration(
      name: "count", abstract: "Count events, with a progress bar.")

    @Argument(help: "How many.")
    var events: Int

    func run(_ context: TestStreams) throws {
      if events < 0 { throw UsageError("<events> must not be negative") }
      context.print("counted \(events)")
    }
  }

  struct Fail: ParsableCommand {
    static let configuration = CommandConfiguration(
      name: "fail", abstract: "Fail in the way asked.")

    @Argument(help: "command, exit, other or usage.")
    var how: String

    func run(_ context: TestStreams) throws {
      context.print("partial output")
      switch how {
      case "command":
        throw CommandError(
          "cannot open 'missing.journal'", cause: Errno("No such file or directory"))
      case "exit": throw ExitCode(3)
      case "usage": throw UsageError("the journal and the script disagree")
      default: throw Errno("Input/output error")
      }
    }
  }

  struct Push: ParsableCommand {
    static let configuration = CommandConfiguration(name: "push", abstract: "Push a journal.")

    @Argument(help: "The journal to push.")
    var journal: String

    func run(_ context: TestStreams) throws {
      context.print("pushed \(journal)")
    }
  }

  struct Pull: ParsableCommand {
    static let configuration = CommandConfiguration(name: "pull", abstract: "Pull a session.")

    func run(_ context: TestStreams) throws {
      context.print("pulled")
    }
  }
}

/// `--field`: any text but an empty one.
private func nonEmptyField(_ text: String) throws(InvalidValue) -> String {
  guard !text.isEmpty else { throw InvalidValue("a field path cannot be empty") }
  return text
}

/// A point in a session, parsed like the real tool's: a sequence number, `+<seconds>s`,
/// `start` or `end`.
struct Point: CustomStringConvertible, ExpressibleByArgument {
  var description: String

  static let end = Point(checked: "end")

  private init(checked text: String) {
    description = text
  }

  init(argument text: String) throws(InvalidValue) {
    if text == "start" || text == "end" || Int(text).map({ $0 >= 0 }) == true {
      description = text
    } else if text.hasPrefix("+"), text.hasSuffix("s"), Double(text.dropFirst().dropLast()) != nil {
      description = text
    } else if let number = Int(text), number < 0 {
      throw InvalidValue("a sequence number cannot be negative")
    } else {
      throw InvalidValue("expected a sequence number, +<seconds>s, start or end")
    }
  }
}

/// An error with a plain description, like a system error.
struct Errno: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

/// Streams that keep what is written, with the error label a test chooses.
final class TestStreams: CommandContext {
  private(set) var output = ""
  private(set) var error = ""
  /// How many times the runner finished the streams.
  private(set) var finishCount = 0
  let errorLabel: String

  init(errorLabel: String = "Error:") {
    self.errorLabel = errorLabel
  }

  func writeOutput(_ text: String) {
    output += text
  }

  func writeError(_ text: String) {
    error += text
  }

  func finish() {
    finishCount += 1
  }

  /// Writes a line to standard output.
  func print(_ line: String) {
    output += line + "\n"
  }
}
