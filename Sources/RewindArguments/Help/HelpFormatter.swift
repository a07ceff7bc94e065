/// Writes help screens, usage lines and usage-error reports in the layout of Swift's
/// argument parser.
///
/// A command is named by its path from the root, `[rewind, state]`. The help screen:
///
/// ```
/// OVERVIEW: <abstract>
///
/// <discussion>
///
/// USAGE: rewind state <journal> [--at <point>] [--json]
///
/// ARGUMENTS:
///   <journal>               The journal to read.
///
/// OPTIONS:
///   --at <point>            The point in the session. (default: end)
///   -h, --help              Show help information.
///
/// ```
///
/// Labels are indented by 2 and their help starts at column 26 (on the next line when
/// the label is too long); help text and the usage wrap at 80 columns. A command with subcommands
/// lists them under `SUBCOMMANDS:` and ends with "See 'rewind help <subcommand>' for
/// detailed help." A command or tool that declares exit statuses lists them last, under
/// `EXIT STATUS:`, each meaning from column 10.
package enum HelpFormatter {
  static let screenWidth = 80
  static let labelIndent = 2
  static let labelColumnWidth = 26
  /// Where the meaning of an exit status starts: statuses are short (`64`, `128+N`).
  static let statusColumnWidth = 10
  /// Beyond this many parameters the usage line shows `[<options>]` instead of the
  /// optional ones.
  static let maximumUsageParameters = 12

  /// `rewind state <journal> [--at <point>] [--json]`: the command's synopsis.
  package static func usage<Context>(path: [Command<Context>]) -> String {
    let (name, parts) = usageParts(path: path)
    return ([name] + parts).joined(separator: " ")
  }

  /// The synopsis after `label` (`USAGE: `, `Usage: `), laid out in 80 columns: the
  /// parameters that do not fit on a line go on the next, under the first one (under the
  /// label's end when the command's name is long), none of them broken.
  ///
  /// ```
  /// USAGE: rewind log <journal> [--from <point>] [--to <point>] [--type <kind> ...]
  ///                   [--outcome <outcome> ...] [--where <condition>] [--changes]
  /// ```
  static func usage<Context>(after label: String, path: [Command<Context>]) -> String {
    let (name, parts) = usageParts(path: path)
    var lines = [label + name]
    let indent = String(
      repeating: " ", count: lines[0].count < screenWidth / 2 ? lines[0].count + 1 : label.count)
    // Whether the last line holds a parameter yet: one too long for any line goes alone.
    var holdsOne = false
    for part in parts {
      let line = lines[lines.count - 1]
      if !holdsOne || line.count + 1 + part.count <= screenWidth {
        lines[lines.count - 1] = line + (line == indent ? "" : " ") + part
      } else {
        lines.append(indent + part)
      }
      holdsOne = true
    }
    return lines.joined(separator: "\n")
  }

  /// The command's name from the root (`rewind state`) and the synopses of its
  /// parameters (`<journal>`, `[--at <point>]`, …, `<subcommand>`).
  private static func usageParts<Context>(path: [Command<Context>]) -> (String, [String]) {
    let toolName = path.map(\.name).joined(separator: " ")
    let command = path[path.count - 1]
    var parts: [String]
    let parameters = command.parameters
    if parameters.count > maximumUsageParameters {
      let kept = parameters.filter { $0.isPositional || $0.isRequired }
      parts =
        kept.isEmpty || kept.count > maximumUsageParameters
        ? ["<options>"] : ["[<options>]"] + kept.map(\.usageSynopsis)
    } else {
      parts = parameters.map(\.usageSynopsis)
    }
    if !command.subcommands.isEmpty { parts.append("<subcommand>") }
    return (toolName, parts)
  }

  /// The whole help screen of the last command of `path`, ending with a newline.
  /// - Parameters:
  ///   - showsVersion: Whether to list `--version` (the root of a tool that has a
  ///     version).
  ///   - topics: The tool's help topics, listed after the subcommands (the root's help).
  package static func help<Context>(
    path: [Command<Context>], showsVersion: Bool, topics: [HelpTopic] = []
  ) -> String {
    let command = path[path.count - 1]
    var overview = command.abstract
    if !command.discussion.isEmpty {
      if !overview.isEmpty { overview += "\n" }
      overview += "\n" + command.discussion
    }

    var arguments: [String] = []
    var options: [String] = []
    for parameter in command.parameters {
      let element = renderElement(
        label: parameter.helpLabel, abstract: parameter.helpText,
        discussion: parameter.discussion)
      if parameter.isPositional { arguments.append(element) } else { options.append(element) }
    }
    if showsVersion {
      options.append(renderElement(label: "--version", abstract: "Show the version."))
    }
    options.append(renderElement(label: "-h, --help", abstract: "Show help information."))
    let subcommands = command.subcommands.map {
      renderElement(label: $0.name, abstract: $0.abstract)
    }

    var text = ""
    if !overview.isEmpty { text += wrap("OVERVIEW: " + overview, width: screenWidth) + "\n\n" }
    text += usage(after: "USAGE: ", path: path) + "\n\n"
    text += [("ARGUMENTS", arguments), ("OPTIONS", options), ("SUBCOMMANDS", subcommands)]
      .filter { !$0.1.isEmpty }
      .map { "\($0.0):\n" + $0.1.joined() }
      .joined(separator: "\n")
    if !subcommands.isEmpty {
      var names = path.map(\.name)
      names.insert("help", at: 1)
      text += "\n  See '\(names.joined(separator: " ")) <subcommand>' for detailed help.\n"
    }
    if !topics.isEmpty {
      text +=
        "\nHELP TOPICS:\n"
        + topics.map { renderElement(label: $0.name, abstract: $0.abstract) }.joined()
        + "\n  See '\(path[0].name) help <topic>'.\n"
    }
    if !command.exitStatuses.isEmpty {
      text += "\nEXIT STATUS:\n" + command.exitStatuses.map(renderStatus).joined()
    }
    // A command's screen ends with an empty line, as the argument parser's does; a group's
    // ends with its pointer to the subcommands' help, unless its statuses follow.
    return subcommands.isEmpty || !command.exitStatuses.isEmpty ? text + "\n" : text
  }

  /// One line of `EXIT STATUS:`: the status indented by 2, its meaning from column
  /// ``statusColumnWidth``; a note (no status) indented by 2.
  private static func renderStatus(_ entry: ExitStatusHelp) -> String {
    guard !entry.status.isEmpty else {
      return wrap(entry.meaning, width: screenWidth, indent: labelIndent) + "\n"
    }
    let label = String(repeating: " ", count: labelIndent) + entry.status
    let wrapped = wrap(entry.meaning, width: screenWidth, indent: statusColumnWidth)
    guard label.count < statusColumnWidth else { return label + "\n" + wrapped + "\n" }
    return label + wrapped.dropFirst(label.count) + "\n"
  }

  /// The report of a usage error, ending with a newline:
  ///
  /// ```
  /// Error: Missing value for '--at <point>'
  /// Help:  --at <point>  The point in the session.
  /// Usage: rewind state <journal> [--at <point>] [--json]
  ///   See 'rewind state --help' for more information.
  /// ```
  ///
  /// - Parameter errorLabel: `Error:`, possibly styled.
  package static func report<Context>(
    _ error: UsageError, path: [Command<Context>], errorLabel: String = "Error:"
  ) -> String {
    var text = "\(errorLabel) \(error.message)\n"
    if !error.help.isEmpty { text += "Help:  \(error.help)\n" }
    text += usage(after: "Usage: ", path: path) + "\n"
    text += "  See '\(path.map(\.name).joined(separator: " ")) --help' for more information.\n"
    return text
  }

  /// One entry of a section: the label indented by 2, its help from column 26 (on the
  /// next line when the label reaches that column), then its discussion indented by 8.
  private static func renderElement(label: String, abstract: String, discussion: String = "")
    -> String
  {
    let paddedLabel = String(repeating: " ", count: labelIndent) + label
    var element = paddedLabel
    if !abstract.isEmpty {
      let wrapped = wrap(abstract, width: screenWidth, indent: labelColumnWidth)
      if paddedLabel.count < labelColumnWidth {
        element += wrapped.dropFirst(paddedLabel.count)
      } else {
        element += "\n" + wrapped
      }
    }
    element += "\n"
    if !discussion.isEmpty {
      element += wrap(discussion, width: screenWidth, indent: labelIndent * 4) + "\n"
    }
    return element
  }
}
