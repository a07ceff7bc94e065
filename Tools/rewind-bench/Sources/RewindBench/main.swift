import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// rewind-bench: measures Rewind against its baselines and prints a table or JSON.
// `rewind-bench __child …` is the hidden child of the peak-memory figure.

let arguments = Array(CommandLine.arguments.dropFirst())
do {
  if arguments.first == "__profile" {
    try ProfileMode.run(Array(arguments.dropFirst()))
    exit(0)
  }
  if arguments.first == "__child" {
    try ChildMode.run(Array(arguments.dropFirst()))
    exit(0)
  }
  let options = try Options.parse(arguments)
  let bench = try Bench(options: options)
  let report = try bench.run()
  let encoder = JSONEncoder()
  encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
  let json = try encoder.encode(report)
  if let path = options.jsonFile {
    try json.write(to: URL(fileURLWithPath: path))
  }
  if options.json {
    FileHandle.standardOutput.write(json)
    print()
  } else {
    print(report.table)
  }
} catch let error as BenchError {
  writeError("rewind-bench: \(error.description)\n")
  exit(error.description.hasPrefix("Usage:") ? 0 : 1)
} catch {
  writeError("rewind-bench: \(error)\n")
  exit(1)
}
