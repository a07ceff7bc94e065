/// A command-line tool: its name, version and commands, and the runner that turns a
/// command line into a command's run and an exit status.
///
/// ```swift
/// let rewind = CommandLineTool<Context>(
///   name: "rewind", version: "0.1.0",
///   abstract: "Replay, inspect and test recorded sessions.",
///   commands: [.command { Record() }, .command { Info() }, .command { State() }])
/// let status = rewind.run(arguments: ["state", "s.journal", "--at", "+12.5s"], context: context)
/// ```
///
/// What the runner does, in the conventions of Swift's argument parser:
/// - `rewind help`, `rewind help <command>`, `rewind <command> -h`/`--help`: the help
///   screen on stdout, status 0. `rewind --version`: the version, status 0.
/// - `rewind` alone (a group without its subcommand): the help screen on stderr, status
///   64, since a command is missing.
/// - A command line that does not fit the command's declarations, or a ``UsageError``
///   thrown by the command: `Error: …` (with `Did you mean '…'?` for a near miss), the
///   usage line and a pointer to `--help` on stderr, status 64.
/// - Any other error thrown by the command: `Error: <description>` on stderr, status 1
///   (or the ``CommandError/exitCode`` of a ``CommandError``); a thrown ``ExitCode``
///   ends with that status silently.
/// - Otherwise status 0.
///
/// Every error message goes through ``CommandContext/escaped(_:)`` before it is written.
///
/// A tool of one command (options but no subcommands) is made with
/// ``init(version:command:)``.
///
/// The tool runs with a ``CommandContext``; the type itself asks nothing of `Context`, so
/// that making its metadata at start looks no conformance up (each first lookup walks
/// every conformance record of the binary).
public struct CommandLineTool<Context>: Sendable {
  /// What `--version` prints; no `--version` option when empty.
  public let version: String
  /// The root of the command tree: a group of the tool's commands, or its one command.
  let root: Command<Context>
  /// Texts `tool help <topic>` prints, beside the commands' help: a language several
  /// commands share, say.
  let topics: [HelpTopic]

  /// A tool of several commands, `tool <command> ...`.
  /// - Parameters:
  ///   - name: The tool's name, as typed (`rewind`).
  ///   - version: What `--version` prints; no `--version` option when empty.
  ///   - abstract: The tool's one-line overview.
  ///   - discussion: Longer help shown under the overview.
  ///   - exitStatuses: The statuses every command exits with, listed under `EXIT STATUS:`
  ///     in the tool's help (a command's help lists its own).
  ///   - commands: The subcommands, in the order help lists them.
  ///   - topics: What `tool help <topic>` prints for names that are not commands.
  public init(
    name: String, version: String, abstract: String, discussion: String = "",
    exitStatuses: [ExitStatusHelp] = [], commands: [Command<Context>], topics: [HelpTopic] = []
  ) {
    self.version = version
    self.root = .group(
      name, abstract: abstract, discussion: discussion, exitStatuses: exitStatuses,
      subcommands: commands)
    self.topics = topics
  }

  /// A tool that is one command, `tool [<options>]`, named and described by the command's
  /// configuration.
  /// - Parameters:
  ///   - version: What `--version` prints; no `--version` option when empty.
  ///   - command: The tool's command, made as for ``Command/command(discussion:_:)``.
  public init<Declaration: ParsableCommand>(
    version: String, command: @escaping @Sendable () -> Declaration
  ) where Declaration.Context == Context {
    self.version = version
    self.root = .command(command)
    self.topics = []
  }

  /// The mistakes in every command's spec; a test over the real tool expects none.
  ///
  /// - Complexity: O(*p*²) in the parameters of the largest command, for the whole tree.
  package func specProblems() -> [String] {
    root.specProblems(reservedNames: rootReservedNames)
  }

  private var rootReservedNames: Set<String> {
    version.isEmpty ? ["help", "h"] : ["help", "h", "version"]
  }
}

extension CommandLineTool where Context: CommandContext {
  /// Runs the command line (without the tool's own name) and returns the exit status.
  /// The context is finished (``CommandContext/finish()``) before it returns.
  ///
  /// - Parameters:
  ///   - arguments: The words after the tool's name.
  ///   - context: What the command runs with, and where help and errors are written.
  /// - Returns: The status to exit with: 0, 1, 64, or a command's own.
  public func run(arguments: [String], context: Context) -> Int32 {
    let status = execute(arguments[...], context: context)
    context.finish()
    return status.rawValue
  }

  private func execute(_ arguments: ArraySlice<String>, context: Context) -> ExitCode {
    var path: [Command<Context>] = [root]
    var words = arguments
    // Descend through subcommands; `help` at the root names the command to describe.
    while let word = words.first, !path[path.count - 1].subcommands.isEmpty {
      if path.count == 1 && word == "help" {
        return help(naming: words.dropFirst(), context: context)
      }
      guard let subcommand = path[path.count - 1].subcommand(named: word) else { break }
      path.append(subcommand)
      words = words.dropFirst()
    }
    let command = path[path.count - 1]
    #if DEBUG
      // A release build starts without checking (the check makes a second command value
      // and reads its declarations again): the tool's tests check every command's
      // (`specProblems()`).
      let problems = command.ownSpecProblems(
        reservedNames: path.count == 1 ? rootReservedNames : ["help", "h"])
      precondition(problems.isEmpty, "bad command spec: " + problems.joined(separator: "; "))
    #endif

    let options = words.prefix { $0 != "--" }
    if options.contains("-h") || options.contains("--help") {
      context.writeOutput(helpText(path))
      return .success
    }
    if showsVersion(path) && options.contains("--version") {
      context.writeOutput(version + "\n")
      return .success
    }

    guard let execute = command.execute else {
      // A group: a subcommand must follow. Without one, the help goes where errors go.
      guard let word = words.first else {
        context.writeError(helpText(path))
        return .usage
      }
      let error: UsageError
      if isOptionLike(word) {
        let spelling = String(word.prefix { $0 != "=" })
        let flags = builtInFlags(showsVersion(path))
        if spelling.count < word.count, flags.contains(where: { "--" + $0.name == spelling }) {
          error = .unexpectedValue(String(word.dropFirst(spelling.count + 1)), forFlag: spelling)
        } else {
          error = .unknownOption(spelling, among: flags)
        }
      } else {
        error = .unknownSubcommand(word, among: command.subcommands.map(\.name))
      }
      return report(error, path: path, context: context)
    }

    do {
      try execute(words, context)
      return .success
    } catch let error as UsageError {
      return report(error, path: path, context: context)
    } catch let exitCode as ExitCode {
      return exitCode
    } catch let error as CommandError {
      reportFailure(error.description, context: context)
      return error.exitCode
    } catch {
      reportFailure(String(describing: error), context: context)
      return .failure
    }
  }

  /// `rewind help [<command> ...]`: the help of the named command, or of the tool;
  /// `rewind help <topic>`: the topic's text. `help` itself is described by the tool's
  /// help (`rewind help help`).
  private func help(naming words: ArraySlice<String>, context: Context) -> ExitCode {
    let words = words.filter { $0 != "-h" && $0 != "--help" }.drop { $0 == "help" }
    if let topic = topics.first(where: {
      $0.name == words.first || $0.aliases.contains(words.first ?? "")
    }) {
      // A topic has no subcommands: a word after it is one too many, not an unknown command.
      guard words.count == 1 else {
        return report(
          .unexpectedArguments(Array(words.dropFirst())), path: [root], context: context)
      }
      context.writeOutput(topic.text.hasSuffix("\n") ? topic.text : topic.text + "\n")
      return .success
    }
    var path: [Command<Context>] = [root]
    for word in words {
      let command = path[path.count - 1]
      if let subcommand = command.subcommands.first(where: { $0.name == word }) {
        path.append(subcommand)
      } else if command.subcommands.isEmpty {
        return report(.unexpectedArguments([word]), path: [root], context: context)
      } else {
        let namesTopics = path.count == 1 && !topics.isEmpty
        let names =
          command.subcommands.map(\.name)
          + (namesTopics ? topics.flatMap { [$0.name] + $0.aliases } : [])
        let error = UsageError.unknownSubcommand(
          word, among: names, what: namesTopics ? "subcommand or help topic" : "subcommand")
        return report(error, path: path, context: context)
      }
    }
    context.writeOutput(helpText(path))
    return .success
  }

  /// The help of the last command of `path`; the tool's, with its topics.
  private func helpText(_ path: [Command<Context>]) -> String {
    HelpFormatter.help(
      path: path, showsVersion: showsVersion(path), topics: path.count == 1 ? topics : [])
  }

  private func showsVersion(_ path: [Command<Context>]) -> Bool {
    path.count == 1 && !version.isEmpty
  }

  private func builtInFlags(_ showsVersion: Bool) -> [Parameter] {
    showsVersion ? [.version, .help] : [.help]
  }

  private func report(_ error: UsageError, path: [Command<Context>], context: Context)
    -> ExitCode
  {
    var shown = error
    shown.message = context.escaped(error.message)
    context.writeError(HelpFormatter.report(shown, path: path, errorLabel: context.errorLabel))
    return .usage
  }

  private func reportFailure(_ message: String, context: Context) {
    context.writeError("\(context.errorLabel) \(context.escaped(message))\n")
  }
}

extension Parameter {
  /// The `-h`/`--help` every command accepts.
  static let help = Parameter.flag("help", short: "h", help: "Show help information.")
  /// The `--version` of the tool's root.
  static let version = Parameter.flag("version", help: "Show the version.")
}

/// A text `tool help <name>` prints: a language or a convention several commands share,
/// documented once.
public struct HelpTopic: Sendable {
  /// The word after `help`, as the tool's help lists it.
  public let name: String
  /// Other words after `help` that print it, not listed: the names a user may guess
  /// (`scripts` for `scenario`).
  public let aliases: [String]
  /// What the topic is about, in a line: the tool's help lists the topics with it.
  public let abstract: String
  /// The text, printed as it is.
  public let text: String

  /// - Parameters:
  ///   - name: The word after `help`, listed.
  ///   - aliases: Other words that print it, not listed.
  ///   - abstract: What the topic is about, in a line.
  ///   - text: The text, printed as it is.
  public init(_ name: String, aliases: [String] = [], abstract: String, text: String) {
    self.name = name
    self.aliases = aliases
    self.abstract = abstract
    self.text = text
  }
}
