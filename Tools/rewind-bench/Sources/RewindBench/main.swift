import RewindArguments

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// rewind-bench: measures Rewind against its baselines and prints a table or JSON.
// `rewind-bench __child …` is the hidden child of the peak-memory figure.

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "__profile" || arguments.first == "__child" {
  do {
    if arguments.first == "__profile" {
      try ProfileMode.run(Array(arguments.dropFirst()))
    } else {
      try ChildMode.run(Array(arguments.dropFirst()))
    }
    exit(0)
  } catch {
    writeError("rewind-bench: \(error)\n")
    exit(1)
  }
}
CommandLineTool(version: "") { BenchCommand() }.main(context: StandardStreams())
