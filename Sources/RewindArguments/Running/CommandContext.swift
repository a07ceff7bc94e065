/// What a tool's commands run with, and where the runner writes help, versions and
/// errors: a tool's standard output and standard error, and whatever else its commands
/// share.
///
/// ``StandardStreams`` is the plain one; a tool with coloured output, progress bars or
/// captured streams for its tests brings its own.
public protocol CommandContext {
  /// Writes text, as it is, to standard output (help screens, the version).
  /// - Parameter text: The text, its lines ended by newlines.
  func writeOutput(_ text: String)

  /// Writes text, as it is, to standard error (usage errors, failures), after sending
  /// what standard output holds so that the error follows the output before it.
  /// - Parameter text: The text, its lines ended by newlines.
  func writeError(_ text: String)

  /// `Error:` as standard error shows it (in bold red on a colour terminal, say).
  var errorLabel: String { get }

  /// Sends what both streams hold; the runner calls it once the command is done.
  func finish()
}
