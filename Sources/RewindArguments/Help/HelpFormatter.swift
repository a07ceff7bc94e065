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
/// the label is too long); help text wraps at 80 columns. A command with subcommands
/// lists them under `SUBCOMMANDS:` and ends with "See 'rewind help <subcommand>' for
/// detailed help."
package enum HelpFormatter {
  static let screenWidth = 80
  static let labelIndent = 2
  static let labelColumnWidth = 26
  /// Beyond this many parameters the usage line shows `[<options>]` instead of the
  /// optional ones.
  static let maximumUsageParameters = 12

  /// `rewind state <journal> [--at <point>] [--json]`: the command's synopsis.
  package static func usage<Context>(path: [Command<Context>]) -> String {
    let toolName = path.map(\.name).joined(separator: " ")
    let command = path[path.count - 1]
    var synopsis: String
    let parameters = command.parameters
    if parameters.isEmpty {
      synopsis = toolName
    } else if parameters.count > maximumUsageParameters {
      let kept = parameters.filter { $0.isPositional || $0.isRequired }
      synopsis =
        kept.isEmpty || kept.count > maximumUsageParameters
        ? "\(toolName) <options>"
        : "\(toolName) [<options>] " + kept.map(\.usageSynopsis).joined(separator: " ")
    } else {
      synopsis = toolName + " " + parameters.map(\.usageSynopsis).joined(separator: " ")
    }
    if !command.subcommands.isEmpty { synopsis += " <subcommand>" }
    return synopsis
  }

  /// The whole help screen of the last command of `path`, ending with a newline.
  /// - Parameter showsVersion: Whether to list `--version` (the root of a tool that has a
  ///   version).
  package static func help<Context>(path: [Command<Context>], showsVersion: Bool) -> String {
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
    text += "USAGE: " + usage(path: path) + "\n\n"
    text += [("ARGUMENTS", arguments), ("OPTIONS", options), ("SUBCOMMANDS", subcommands)]
      .filter { !$0.1.isEmpty }
      .map { "\($0.0):\n" + $0.1.joined() }
      .joined(separator: "\n")
    if !subcommands.isEmpty {
      var names = path.map(\.name)
      names.insert("help", at: 1)
      text += "\n  See '\(names.joined(separator: " ")) <subcommand>' for detailed help."
    }
    return text + "\n"
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
    text += "Usage: \(usage(path: path))\n"
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
