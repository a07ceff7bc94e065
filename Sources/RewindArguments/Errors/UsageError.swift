import RewindSpelling

/// A command line the tool cannot accept: an unknown command or option, a missing or
/// malformed value, an extra argument.
///
/// The runner prints it on stderr as `Error: <message>`, then `Help:  <help>` when there
/// is one, then the command's usage line and where to get more help, and exits with 64
/// (`EX_USAGE`), the layout and wording of Swift's argument parser. Commands throw one
/// (``UsageError/init(_:)``) when the command line parses but does not make sense, e.g.
/// `--from` after `--to`.
public struct UsageError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What is wrong with the command line.
  public enum Code: Sendable, Equatable {
    /// A word that is no subcommand where a subcommand was expected.
    case unknownSubcommand
    /// A `-x` or `--name` the command does not declare.
    case unknownOption
    /// A required positional argument or option was not given.
    case missingArgument
    /// An option was given without its value.
    case missingValue
    /// A value the command could not read.
    case invalidValue
    /// More positional arguments than the command takes.
    case unexpectedArgument
    /// `--flag=value` for a flag, which takes no value.
    case unexpectedValue
    /// A non-repeatable option given twice.
    case duplicateOption
    /// The command line parses but does not make sense (thrown by a command).
    case invalidUsage
  }

  /// What kind of mistake it is.
  public var code: Code
  /// The sentence printed after `Error: `.
  public var message: String
  /// The parameter involved and its help (`--at <point>  The point in the session.`),
  /// printed after `Help:  `; empty when there is none.
  public var help: String
  /// Every positional word given, for an error of more than the command takes
  /// (``Code/unexpectedArgument``), so that the command can say what was meant
  /// (``ParsableCommand/unexpectedArgumentsHint(positionals:)``); else empty.
  var positionals: [String] = []
  /// The spelling of an option the command does not have (`--first`), for an error of
  /// one (``Code/unknownOption``), so that the command can say what was meant
  /// (``CommandConfiguration/unknownOptionHints``); else empty.
  var unknownSpelling = ""

  /// A usage error of any kind.
  /// - Parameters:
  ///   - code: What kind of mistake it is.
  ///   - message: The sentence printed after `Error: `.
  ///   - help: The parameter involved and its help, printed after `Help:  `.
  public init(_ code: Code, _ message: String, help: String = "") {
    self.code = code
    self.message = message
    self.help = help
  }

  /// A command line that parses but does not make sense, reported by a command.
  /// - Parameter message: The sentence printed after `Error: `.
  public init(_ message: String) {
    self.init(.invalidUsage, message)
  }

  public var description: String { message }
}

extension UsageError {
  /// Text from the command line quoted for a message: `'--froom'` as it is when short;
  /// when longer than 80 characters, its first 60, `…` and its length,
  /// `'aaaa…' (100,000 characters)`, so that a huge argument does not make a huge error.
  /// The rule of RewindCore's `Format.quoted`, which quotes input in Rewind's own
  /// messages (this module depends on nothing); a test holds the two to one output.
  package static func quoted(_ text: String) -> String {
    var count = 0
    var end = text.startIndex
    for index in text.indices {
      if count == 60 { end = index }
      count += 1
      if count > 80 { break }
    }
    if count <= 80 { return "'" + text + "'" }
    return "'" + String(text[..<end]) + "…' (" + groupedDigits(text.count) + " characters)"
  }

  /// - Parameter what: what `word` was taken for: `help`'s word names a subcommand or a
  ///   help topic.
  static func unknownSubcommand(
    _ word: String, among names: [String], what: String = "subcommand"
  ) -> UsageError {
    var message = "Unknown \(what) \(quoted(word))"
    if let suggestion = closestName(to: word, among: names) {
      message += ". Did you mean '\(suggestion)'?"
    }
    return UsageError(.unknownSubcommand, message)
  }

  static func unknownOption(_ spelling: String, among parameters: [Parameter]) -> UsageError {
    var message = "Unknown option \(quoted(spelling))"
    // Like the argument parser, suggest long names for a long spelling; a one-letter
    // spelling is only matched to a short name in the other case (`-O` for `-o`).
    if spelling.hasPrefix("--") {
      let typed = String(spelling.dropFirst(2))
      let names = parameters.filter { !$0.isPositional && $0.name != typed }.map(\.name)
      if let suggestion = closestName(to: typed, among: names) {
        message += ". Did you mean '--\(suggestion)'?"
      }
    } else if spelling.count == 2, let letter = spelling.last,
      let short = parameters.lazy.compactMap(\.shortName).first(where: {
        $0 != letter && $0.lowercased() == letter.lowercased()
      })
    {
      message += ". Did you mean '-\(short)'?"
    }
    var error = UsageError(.unknownOption, message)
    error.unknownSpelling = spelling
    return error
  }

  /// This error, or for an option the command does not have, what `hints` says of its
  /// spelling in place of a near miss (`Unknown option '--first': find shows the first
  /// match by default; …`), when it says something.
  func hinted(unknownOptions hints: [String: String]) -> UsageError {
    guard code == .unknownOption, let hint = hints[unknownSpelling] else { return self }
    var error = self
    error.message = "Unknown option \(Self.quoted(unknownSpelling)): \(hint)"
    return error
  }

  static func missingArgument(_ parameter: Parameter) -> UsageError {
    UsageError(
      .missingArgument, "Missing expected argument '\(parameter.requiredSynopsis)'",
      help: helpLine(
        parameter, spelling: parameter.isPositional ? nil : parameter.preferredSpelling))
  }

  static func missingValue(_ parameter: Parameter, spelling: String) -> UsageError {
    UsageError(
      .missingValue, "Missing value for '\(spelling) <\(parameter.valueName)>'",
      help: helpLine(parameter, spelling: spelling))
  }

  static func invalidValue(
    _ value: String, for parameter: Parameter, spelling: String?, reason: String?
  ) -> UsageError {
    let target = spelling.map { "\($0) <\(parameter.valueName)>" } ?? "<\(parameter.valueName)>"
    var message = "The value \(quoted(value)) is invalid for '\(target)'"
    if let reason, !reason.isEmpty { message += ": \(reason)" }
    return UsageError(.invalidValue, message, help: helpLine(parameter, spelling: spelling))
  }

  /// More positional words than the command takes: `values`, the ones left over, of
  /// `positionals`, all that were given.
  static func unexpectedArguments(_ values: [String], of positionals: [String] = [])
    -> UsageError
  {
    var error: UsageError
    if values.count == 1 {
      error = UsageError(.unexpectedArgument, "Unexpected argument \(quoted(values[0]))")
    } else {
      let list = values.map(quoted).joined(separator: ", ")
      error = UsageError(.unexpectedArgument, "\(values.count) unexpected arguments: \(list)")
    }
    error.positionals = positionals
    return error
  }

  /// This error, or for more positional words than the command takes, with what `hint`
  /// says of them added (when it says something).
  func hinted(by hint: (_ positionals: [String]) -> String?) -> UsageError {
    guard code == .unexpectedArgument, let text = hint(positionals) else { return self }
    var error = self
    error.message += "; " + text
    return error
  }

  static func unexpectedValue(_ value: String, forFlag spelling: String) -> UsageError {
    UsageError(
      .unexpectedValue,
      "The option '\(spelling)' does not take any value, but \(quoted(value)) was specified.")
  }

  static func duplicateOption(_ parameter: Parameter, spelling: String) -> UsageError {
    UsageError(
      .duplicateOption, "The option '\(spelling) <\(parameter.valueName)>' can be given only once",
      help: helpLine(parameter, spelling: spelling))
  }

  /// This error with the help of the parameter it names, when it has none: a command's
  /// error of a value it checks once the command line is read (against the session:
  /// `The value '40' is invalid for '--from <point>': event 40 is beyond the end…`) shows
  /// the `Help:` line the parser's errors of the same parameter show.
  func withHelp(from parameters: [Parameter]) -> UsageError {
    let marker = " is invalid for '"
    guard code == .invalidValue, help.isEmpty,
      let start = message.firstRange(of: marker)?.upperBound,
      let end = message[start...].firstIndex(of: "'")
    else { return self }
    let target = message[start..<end]
    for parameter in parameters where !parameter.help.isEmpty {
      let spellings =
        parameter.isPositional
        ? [nil] : [parameter.preferredSpelling] + (parameter.shortName.map { ["-\($0)"] } ?? [])
      for spelling in spellings
      where target == spelling.map({ "\($0) <\(parameter.valueName)>" })
        ?? "<\(parameter.valueName)>"
      {
        var error = self
        error.help = Self.helpLine(parameter, spelling: spelling)
        return error
      }
    }
    return self
  }

  /// `--at <point>  The point in the session.` or `<journal>  The journal to read.`;
  /// empty when the parameter has no help.
  private static func helpLine(_ parameter: Parameter, spelling: String?) -> String {
    guard !parameter.help.isEmpty else { return "" }
    let label = spelling.map { "\($0) <\(parameter.valueName)>" } ?? "<\(parameter.valueName)>"
    return "\(label)  \(parameter.help)"
  }
}
