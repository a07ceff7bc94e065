import RewindArguments
import RewindCore

/// The runner of the argument parser writes help and errors through the tool's context:
/// `Error:` in bold red on a colour terminal, after erasing a progress bar.
extension Context: CommandContext {
  package func writeOutput(_ text: String) {
    stdout.write(text)
  }

  package func writeError(_ text: String) {
    stdout.flush()
    stderr.write(text)
  }

  package var errorLabel: String {
    stderr.style.bold(stderr.style.red("Error:"))
  }

  /// Error messages quote ids, paths and values from files: their control characters
  /// are shown escaped (`\u{1B}`), on one line.
  package func escaped(_ message: String) -> String {
    TerminalText.escaped(message)
  }

  package func finish() {
    stderr.eraseTransientLine()
    stdout.flush()
    stderr.flush()
  }
}
