/// One node of a tool's command tree: a command (a ``ParsableCommand`` type) or a group
/// of subcommands, with its name and help.
///
/// ```swift
/// let tool = CommandLineTool<StandardStreams>(
///   name: "rewind", version: "0.1.0", abstract: "Replay recorded sessions.",
///   commands: [
///     .command { State() },
///     .group(
///       "jetstream", abstract: "Ship sessions to a JetStream cluster.",
///       subcommands: [.command { Push() }, .command { Pull() }]),
///   ])
/// ```
///
/// The help screen, the usage line and every usage error are generated from the
/// command's declared properties.
public struct Command<Context>: Sendable {
  /// Parses the words after the command's name into a fresh command value and runs it.
  typealias Execute = @Sendable (_ words: ArraySlice<String>, _ context: Context) throws -> Void

  /// The word that selects the command (`state`).
  let name: String
  /// The one-line summary shown in the tool's list of subcommands and as `OVERVIEW:`.
  let abstract: String
  /// Longer help shown under the overview, made when help shows it.
  private let makeDiscussion: @Sendable () -> String
  /// The statuses listed under `EXIT STATUS:`, after the options.
  let exitStatuses: [ExitStatusHelp]
  /// What the errors of options the command does not have say, by spelling
  /// (``CommandConfiguration/unknownOptionHints``).
  let unknownOptionHints: [String: String]
  /// Reads the positional arguments, options and flags from a fresh command value.
  private let declaredParameters: @Sendable () -> [Parameter]
  /// Nested commands (`rewind <group> <command>`), if this is a group.
  let subcommands: [Command]
  /// The implementation; a group has none, and shows its help when run alone.
  let execute: Execute?

  /// A command, made by `make` for every run (and to read its declarations for help and
  /// for the spec checks).
  ///
  /// - Parameters:
  ///   - discussion: Longer help in place of the configuration's, for help that depends
  ///     on what the tool shares (the keys of the default domain's screen, say); made
  ///     only when help shows it, not when the tool starts.
  ///   - make: Makes a command value, its declared properties not yet read: an
  ///     initializer (`{ State() }`), which may hand the command what the tool shares
  ///     (`{ State(registry: registry) }`).
  public static func command<Declaration: ParsableCommand>(
    discussion: @autoclosure @escaping @Sendable () -> String? = nil,
    _ make: @escaping @Sendable () -> Declaration
  ) -> Command where Declaration.Context == Context {
    let configuration = Declaration.configuration
    let execute: Execute = { words, context in
      let (command, declared) = DeclaredParameters.make(make)
      let parsed: ParsedArguments
      do throws(UsageError) {
        parsed = try ParsedArguments(parsing: words, for: declared.parameters)
      } catch {
        throw error.hinted(by: Declaration.unexpectedArgumentsHint(positionals:))
          .hinted(unknownOptions: configuration.unknownOptionHints)
      }
      try declared.fill(from: parsed)
      do {
        try command.run(context)
      } catch let error as UsageError {
        throw error.withHelp(from: declared.parameters)
      }
    }
    return Command(
      name: configuration.name, abstract: configuration.abstract,
      makeDiscussion: { discussion() ?? configuration.discussion },
      exitStatuses: configuration.exitStatuses,
      unknownOptionHints: configuration.unknownOptionHints,
      declaredParameters: { DeclaredParameters.make(make).declared.documentedParameters },
      subcommands: [], execute: execute)
  }

  /// A group of subcommands, `tool <group> <subcommand>`; run alone, it shows its help.
  /// - Parameters:
  ///   - name: The word that selects the group.
  ///   - abstract: The one-line summary.
  ///   - discussion: Longer help shown under the overview.
  ///   - subcommands: The commands of the group, in the order help lists them.
  public static func group(
    _ name: String, abstract: String, discussion: String = "", subcommands: [Command]
  ) -> Command {
    group(
      name, abstract: abstract, discussion: discussion, exitStatuses: [], subcommands: subcommands)
  }

  /// A group with the exit statuses its help lists (a tool's, which its commands share).
  static func group(
    _ name: String, abstract: String, discussion: String, exitStatuses: [ExitStatusHelp],
    subcommands: [Command]
  ) -> Command {
    Command(
      name: name, abstract: abstract, makeDiscussion: { discussion }, exitStatuses: exitStatuses,
      unknownOptionHints: [:], declaredParameters: { [] }, subcommands: subcommands,
      execute: nil)
  }

  /// The positional arguments, options and flags, in usage-line order, with the texts of
  /// their defaults: read when needed (help, checks), so that a tool of many commands
  /// reflects only the one it runs.
  ///
  /// - Complexity: O(*n*) in the number of the command's stored properties.
  var parameters: [Parameter] { declaredParameters() }

  /// Longer help shown under the overview.
  var discussion: String { makeDiscussion() }

  /// The subcommand named `name`, if any.
  ///
  /// A loop over the indices: `first(where:)`, unspecialised in this generic code, looks
  /// up the array's conformance to `Collection` at its first use, a walk through every
  /// conformance record of the binary on every start.
  func subcommand(named name: String) -> Command? {
    for index in subcommands.indices where subcommands[index].name == name {
      return subcommands[index]
    }
    return nil
  }
}

extension Command {
  /// The mistakes in this command's spec (and its subcommands'), as sentences; empty
  /// when the spec is sound. The runner traps on them in a debug build (a release build
  /// does not look), so a test over the real command list should expect none.
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
      if let shown = parameter.defaultValue, !shown.isEmpty, parameter.help.contains("(default:") {
        problems.append("\(what): help says '(default: …)', which help adds from the default")
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
        if parameter.valueName.isEmpty {
          problems.append("\(what): an option needs a value name")
        }
      case .flag:
        break
      }
    }
    // A hint is for an option the command does not have: one it has is never unknown.
    let options = unknownOptionHints.isEmpty ? [] : parameters.filter { !$0.isPositional }
    for spelling in unknownOptionHints.keys.sorted() {
      let name = spelling.hasPrefix("--") ? String(spelling.dropFirst(2)) : nil
      let short = spelling.count == 2 && spelling.hasPrefix("-") ? spelling.last : nil
      if name == nil && short == nil || name?.isEmpty == true {
        problems.append("'\(self.name)': the hint for \(spelling) is not for an option's spelling")
      } else if reservedNames.contains(name ?? short.map(String.init) ?? "")
        || options.contains(where: {
          $0.name == name || ($0.shortName != nil && $0.shortName == short)
        })
      {
        problems.append("'\(self.name)': the hint for \(spelling) is for an option it has")
      }
    }
    if execute == nil && subcommands.isEmpty {
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
