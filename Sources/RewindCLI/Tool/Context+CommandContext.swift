public import RewindArguments

/// The runner of the argument parser writes help and errors through the tool's context:
/// `Error:` in bold red on a colour terminal, after erasing a progress bar.
extension Context: CommandContext {
  public func writeOutput(_ text: String) {
    stdout.write(text)
  }

  public func writeError(_ text: String) {
    stdout.flush()
    stderr.write(text)
  }

  public var errorLabel: String {
    stderr.style.bold(stderr.style.red("Error:"))
  }

  public func finish() {
    stderr.eraseTransientLine()
    stdout.flush()
    stderr.flush()
  }
}
