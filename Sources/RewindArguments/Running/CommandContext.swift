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

  /// A message made safe to show: the runner passes every error message through it
  /// before writing it, since messages quote what came from outside (arguments, paths,
  /// values read from files), which may hold characters a terminal obeys (`ESC`, a
  /// newline). The default returns the message as it is; a tool that shows text from
  /// files escapes control characters here.
  /// - Parameter message: The sentence after `Error: `.
  func escaped(_ message: String) -> String
}

extension CommandContext {
  public func escaped(_ message: String) -> String { message }
}
