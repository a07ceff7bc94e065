import RewindCLI

/// A small tool in the shape of `rewind`, to test the command-line machinery without the
/// real commands. Each command prints what it was given, so tests read the parse back.
enum Sample {
  static let tool = CLI(
    name: "rewind", version: "1.2.3",
    abstract: "Replay, inspect and test recorded sessions.",
    commands: [record, state, diff, log, count, fail, jetstream])

  /// Runs the sample tool in-process and returns what it printed and its status.
  static func run(
    _ arguments: [String], environment: [String: String] = [:], stderrIsTerminal: Bool = false
  ) -> (status: Int32, stdout: String, stderr: String) {
    let context = Context.capture(environment: environment, stderrIsTerminal: stderrIsTerminal)
    let status = tool.run(arguments: arguments, context: context)
    return (status, context.stdout.text, context.stderr.text)
  }

  static let record = Command(
    name: "record",
    abstract: "Record a scenario script into a journal.",
    parameters: [
      .argument("script", help: "The scenario script to play."),
      .option("output", short: "o", value: "file", help: "The journal to write.", required: true),
      .option("events", value: "count", help: "How many events to generate.", default: "1000"),
      .option("seed", value: "n", help: "The random seed."),
      .flag("verbose", short: "v", help: "Say what is happening."),
    ]
  ) { arguments, context in
    let seed = try arguments.optionalInt("seed").map(String.init) ?? "none"
    context.stdout.print(
      "script=\(arguments.string("script")) output=\(arguments.string("output"))"
        + " events=\(try arguments.int("events")) seed=\(seed)"
        + " verbose=\(arguments.flag("verbose"))")
  }

  static let state = Command(
    name: "state",
    abstract: "Print the state at a point in a session.",
    discussion: "Replays the journal up to the point and prints the state, as text or JSON.",
    parameters: [
      .argument("journal", help: "The journal to read."),
      .option("at", value: "point", help: "The point in the session.", default: "end"),
      .option("skip", value: "seq,...", help: "Events to leave out."),
      .flag("json", help: "Print JSON."),
    ]
  ) { arguments, context in
    let point = try arguments.value("at", as: Point.init(parsing:))
    let skip = arguments.optionalString("skip") ?? "-"
    context.stdout.print(
      "journal=\(arguments.string("journal")) at=\(point) skip=\(skip)"
        + " json=\(arguments.flag("json"))")
  }

  static let diff = Command(
    name: "diff",
    abstract: "Show how the state differs between journals.",
    parameters: [
      .argument("journal", help: "The journals to compare.", arity: .oneOrMore),
      .option("from", value: "point", help: "The first point.", default: "start"),
      .option("field", value: "path", help: "A field to compare.", repeatable: true),
    ]
  ) { arguments, context in
    let fields = try arguments.values("field") { (text) throws(InvalidValue) in
      guard !text.isEmpty else { throw InvalidValue("a field path cannot be empty") }
      return text
    }
    context.stdout.print(
      "journals=\(arguments.strings("journal")) from=\(arguments.string("from"))"
        + " fields=\(fields)")
  }

  static let log = Command(
    name: "log",
    abstract: "List the events of a session.",
    parameters: [
      .argument(
        "journal", help: "The journal to read.", arity: .optional, default: "session.journal"),
      .option("limit", value: "count", help: "The most events to list."),
      .argument("extra", help: "Ignored.", arity: .zeroOrMore),
    ]
  ) { arguments, context in
    let limit = try arguments.optionalInt("limit").map(String.init) ?? "none"
    context.stdout.print(
      "journal=\(arguments.string("journal")) limit=\(limit) extra=\(arguments.strings("extra"))")
  }

  static let count = Command(
    name: "count",
    abstract: "Count events, with a progress bar.",
    parameters: [.argument("events", help: "How many.")]
  ) { arguments, context in
    let total = try arguments.int("events")
    if total < 0 { throw UsageError("<events> must not be negative") }
    let progress = context.progress("Counting")
    for done in 0..<total { progress.update(done, of: total) }
    progress.finish()
    context.stdout.print("counted \(total)")
  }

  static let fail = Command(
    name: "fail",
    abstract: "Fail in the way asked.",
    parameters: [.argument("how", help: "command, exit, other or usage.")]
  ) { arguments, context in
    context.stdout.print("partial output")
    switch arguments.string("how") {
    case "command":
      throw CommandError(
        "cannot open 'missing.journal'", cause: Errno("No such file or directory"))
    case "exit": throw ExitCode(3)
    case "usage": throw UsageError("the journal and the script disagree")
    default: throw Errno("Input/output error")
    }
  }

  static let jetstream = Command(
    name: "jetstream",
    abstract: "Ship sessions to and from a JetStream cluster.",
    subcommands: [
      Command(
        name: "push", abstract: "Push a journal.",
        parameters: [.argument("journal", help: "The journal to push.")]
      ) { arguments, context in
        context.stdout.print("pushed \(arguments.string("journal"))")
      },
      Command(name: "pull", abstract: "Pull a session.") { _, context in
        context.stdout.print("pulled")
      },
    ])
}

/// A point in a session, parsed like the real tool's: a sequence number, `+<seconds>s`,
/// `start` or `end`.
struct Point: CustomStringConvertible {
  var description: String

  init(parsing text: String) throws(InvalidValue) {
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
