/// A command-line tool: its name, version, overview and commands, and the runner that
/// turns a command line into a command's run and an exit status.
///
/// ```swift
/// let rewind = CLI(
///   name: "rewind", version: "0.1.0",
///   abstract: "Replay, inspect and test recorded sessions.",
///   commands: [.record, .info, .state])
/// let status = rewind.run(arguments: ["state", "s.journal", "--at", "+12.5s"], context: context)
/// ```
///
/// What the runner does, in the conventions of Swift's argument parser:
/// - `rewind`, `rewind help`, `rewind help <command>`, `rewind <command> -h`/`--help`:
///   the help screen on stdout, status 0. `rewind --version`: the version, status 0.
/// - A command line that does not fit the command's spec, or a ``UsageError`` thrown by
///   the command: `Error: …` (with `Did you mean '…'?` for a near miss), the usage line
///   and a pointer to `--help` on stderr, status 64.
/// - Any other error thrown by the command: `Error: <description>` on stderr, status 1
///   (or the ``CommandError/exitCode`` of a ``CommandError``); a thrown ``ExitCode``
///   ends with that status silently.
/// - Otherwise status 0.
public struct CLI: Sendable {
  /// The tool's name, as typed (`rewind`).
  public var name: String
  /// What `--version` prints; no `--version` option when empty.
  public var version: String
  /// The tool's one-line overview.
  public var abstract: String
  /// Longer help shown under the overview.
  public var discussion: String
  /// The subcommands, in the order help lists them.
  public var commands: [Command]

  public init(
    name: String, version: String, abstract: String, discussion: String = "",
    commands: [Command]
  ) {
    self.name = name
    self.version = version
    self.abstract = abstract
    self.discussion = discussion
    self.commands = commands
  }

  /// The tool as a command whose subcommands are ``commands``.
  var root: Command {
    Command(name: name, abstract: abstract, discussion: discussion, subcommands: commands)
  }

  /// The mistakes in every command's spec; a test over the real tool expects none.
  package func specProblems() -> [String] {
    root.specProblems(reservedNames: rootReservedNames)
  }

  private var rootReservedNames: Set<String> {
    version.isEmpty ? ["help", "h"] : ["help", "h", "version"]
  }

  /// Runs the command line (without the tool's own name) and returns the exit status.
  /// Both streams are flushed before it returns.
  public func run(arguments: [String], context: Context) -> Int32 {
    let status = execute(arguments[...], context: context)
    context.stderr.eraseTransientLine()
    context.stdout.flush()
    context.stderr.flush()
    return status.rawValue
  }

  private func execute(_ arguments: ArraySlice<String>, context: Context) -> ExitCode {
    var path = [root]
    var words = arguments
    // Descend through subcommands; `help` at the root names the command to describe.
    while let word = words.first, !path[path.count - 1].subcommands.isEmpty {
      if path.count == 1 && word == "help" {
        return help(naming: words.dropFirst(), context: context)
      }
      guard let subcommand = path[path.count - 1].subcommands.first(where: { $0.name == word })
      else { break }
      path.append(subcommand)
      words = words.dropFirst()
    }
    let command = path[path.count - 1]
    let problems = command.ownSpecProblems(
      reservedNames: path.count == 1 ? rootReservedNames : ["help", "h"])
    precondition(problems.isEmpty, "bad command spec: " + problems.joined(separator: "; "))

    let options = words.prefix { $0 != "--" }
    if options.contains("-h") || options.contains("--help") {
      context.stdout.write(HelpFormatter.help(path: path, showsVersion: showsVersion(path)))
      return .success
    }
    if showsVersion(path) && options.contains("--version") {
      context.stdout.print(version)
      return .success
    }

    guard let run = command.run else {
      // A group: a subcommand must follow.
      guard let word = words.first else {
        context.stdout.write(HelpFormatter.help(path: path, showsVersion: showsVersion(path)))
        return .success
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

    let arguments: ParsedArguments
    do {
      arguments = try ParsedArguments(parsing: words, for: command)
    } catch {
      return report(error, path: path, context: context)
    }
    do {
      try run(arguments, context)
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

  /// `rewind help [<command> ...]`: the help of the named command, or of the tool.
  private func help(naming words: ArraySlice<String>, context: Context) -> ExitCode {
    var path = [root]
    for word in words where word != "-h" && word != "--help" {
      let command = path[path.count - 1]
      if let subcommand = command.subcommands.first(where: { $0.name == word }) {
        path.append(subcommand)
      } else if command.subcommands.isEmpty {
        return report(.unexpectedArguments([word]), path: [root], context: context)
      } else {
        let error = UsageError.unknownSubcommand(word, among: command.subcommands.map(\.name))
        return report(error, path: path, context: context)
      }
    }
    context.stdout.write(HelpFormatter.help(path: path, showsVersion: showsVersion(path)))
    return .success
  }

  private func showsVersion(_ path: [Command]) -> Bool {
    path.count == 1 && !version.isEmpty
  }

  private func builtInFlags(_ showsVersion: Bool) -> [Parameter] {
    showsVersion ? [.version, .help] : [.help]
  }

  private func report(_ error: UsageError, path: [Command], context: Context) -> ExitCode {
    context.stdout.flush()
    context.stderr.write(HelpFormatter.report(error, path: path, errorLabel: errorLabel(context)))
    return .usage
  }

  private func reportFailure(_ message: String, context: Context) {
    context.stdout.flush()
    context.stderr.print("\(errorLabel(context)) \(message)")
  }

  /// `Error:`, in bold red on a colour terminal.
  private func errorLabel(_ context: Context) -> String {
    context.stderr.style.bold(context.stderr.style.red("Error:"))
  }
}

extension Parameter {
  /// The `-h`/`--help` every command accepts.
  static let help = Parameter.flag("help", short: "h", help: "Show help information.")
  /// The `--version` of the tool's root.
  static let version = Parameter.flag("version", help: "Show the version.")
}
