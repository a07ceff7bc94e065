#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

extension CommandLineTool where Context: CommandContext {
  /// Runs the tool as the process: the command line from `CommandLine.arguments`, then
  /// exits with the status (`exit`). This is all a tool's `main.swift` calls.
  /// - Parameter context: What the command runs with: the process's streams.
  public func main(context: Context) -> Never {
    let status = run(arguments: Array(CommandLine.arguments.dropFirst()), context: context)
    exit(status)
  }
}
