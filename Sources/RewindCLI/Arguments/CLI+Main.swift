extension CLI {
  /// Runs the tool as the process: the command line from `CommandLine.arguments`, the
  /// standard streams, environment and working directory; then exits with the status.
  /// This is all `main.swift` of the executable calls.
  public func main() -> Never {
    let context = Context.standard()
    let status = run(arguments: Array(CommandLine.arguments.dropFirst()), context: context)
    ProcessCalls.exitProcess(status)
  }
}
