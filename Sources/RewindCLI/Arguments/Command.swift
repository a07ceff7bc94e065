/// One command of the `rewind` tool: its spec (name, help, parameters, subcommands) and
/// the function that runs it.
///
/// The spec and the implementation live together, usually in one file per command:
///
/// ```swift
/// extension Command {
///   static let state = Command(
///     name: "state",
///     abstract: "Print the state at a point in a session.",
///     parameters: [
///       .argument("journal", help: "The journal to read."),
///       .option("at", value: "point", help: "The point in the session.", default: "end"),
///       .flag("json", help: "Print JSON."),
///     ],
///     run: runState)
/// }
///
/// private func runState(_ arguments: ParsedArguments, _ context: Context) throws {
///   let journal = arguments.string("journal")
///   ...
///   context.stdout.print(text)
/// }
/// ```
///
/// The help screen, the usage line and every usage error are generated from the spec.
/// A command reports a bad command line by throwing ``UsageError`` (exit 64, with the
/// usage line), a failure while working by throwing any other error (exit 1), and a
/// quiet non-zero exit by throwing an ``ExitCode``.
public struct Command: Sendable {
  /// The signature of a command's implementation.
  public typealias Run = @Sendable (_ arguments: ParsedArguments, _ context: Context) throws -> Void

  /// The word that selects the command (`state`).
  public var name: String
  /// The one-line summary shown in the tool's list of subcommands and as `OVERVIEW:`.
  public var abstract: String
  /// Longer help shown under the overview.
  public var discussion: String
  /// The positional arguments, options and flags, in usage-line order.
  public var parameters: [Parameter]
  /// Nested commands (`rewind <group> <command>`), if this command is a group.
  public var subcommands: [Command]
  /// The implementation; a group without one shows its help when run alone.
  public var run: Run?

  public init(
    name: String, abstract: String, discussion: String = "", parameters: [Parameter] = [],
    subcommands: [Command] = [], run: Run? = nil
  ) {
    self.name = name
    self.abstract = abstract
    self.discussion = discussion
    self.parameters = parameters
    self.subcommands = subcommands
    self.run = run
  }
}

extension Command {
  /// The parameter named `name`; traps when there is none, which is a programming error
  /// (a command reading a parameter its spec does not declare).
  func parameter(named name: String) -> (index: Int, parameter: Parameter) {
    guard let index = parameters.firstIndex(where: { $0.name == name }) else {
      preconditionFailure("command '\(self.name)' declares no parameter named '\(name)'")
    }
    return (index, parameters[index])
  }

  /// The mistakes in this command's spec (and its subcommands'), as sentences; empty
  /// when the spec is sound. The parser traps on them, and a test over the real command
  /// list should expect none.
  ///
  /// - Parameter reservedNames: Long and short names the tool itself handles here
  ///   (`help`, `h`, and `version` at the root).
  package func specProblems(reservedNames: Set<String> = ["help", "h"]) -> [String] {
    var problems = ownSpecProblems(reservedNames: reservedNames)
    for subcommand in subcommands {
      problems += subcommand.specProblems()
    }
    return problems
  }

  /// The mistakes in this command's own spec, not looking into its subcommands.
  func ownSpecProblems(reservedNames: Set<String>) -> [String] {
    var problems: [String] = []
    var seen = reservedNames
    var positionalsEnded = false  // after an optional or repeated positional
    var repeatedSeen = false
    for parameter in parameters {
      let what = "'\(name)': \(parameter.unadornedSynopsis)"
      if parameter.name.isEmpty || parameter.name.hasPrefix("-")
        || parameter.name.contains(where: { $0 == " " || $0 == "=" })
      {
        problems.append("\(what): name must be a non-empty word without dashes, spaces or '='")
      }
      if !seen.insert(parameter.name).inserted {
        problems.append("\(what): name '\(parameter.name)' is used twice or is reserved")
      }
      if let short = parameter.shortName {
        if short.isNumber || short == "-" || short == "=" || short == " " {
          problems.append("\(what): short name '-\(short)' must be a letter")
        }
        if !seen.insert(String(short)).inserted {
          problems.append("\(what): short name '-\(short)' is used twice or is reserved")
        }
      }
      switch parameter.kind {
      case .argument(let arity):
        if repeatedSeen {
          problems.append("\(what): no positional argument may follow a repeated one")
        }
        if positionalsEnded && (arity == .required || arity == .oneOrMore) {
          problems.append("\(what): a required argument may not follow an optional one")
        }
        if arity != .required { positionalsEnded = true }
        if parameter.isRepeatable { repeatedSeen = true }
        if parameter.defaultValue != nil && arity != .optional {
          problems.append("\(what): only an optional argument may have a default")
        }
      case .option:
        if parameter.isRequired && parameter.defaultValue != nil {
          problems.append("\(what): a required option cannot have a default")
        }
        if parameter.valueName.isEmpty {
          problems.append("\(what): an option needs a value name")
        }
      case .flag:
        break
      }
    }
    if run == nil && subcommands.isEmpty {
      problems.append("'\(name)': a command needs an implementation or subcommands")
    }
    var subcommandNames: Set<String> = ["help"]
    for subcommand in subcommands {
      if !subcommandNames.insert(subcommand.name).inserted {
        problems.append(
          "'\(name)': subcommand name '\(subcommand.name)' is used twice or is reserved")
      }
    }
    return problems
  }
}
