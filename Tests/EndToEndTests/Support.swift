import Foundation
import TestSupport
import Testing

/// The built `rewind` binary.
let rewindBinary = productsDirectory + "/rewind"

/// A sample journal of `Journals/`.
func sample(_ name: String) -> String { repositoryRoot + "/Journals/" + name }

/// Runs `rewind` with a plain environment (no colour settings, no terminal).
func rewind(_ arguments: String..., environment: [String: String] = [:]) throws -> ProcessResult {
  try rewind(arguments, environment: environment)
}

func rewind(_ arguments: [String], environment: [String: String] = [:]) throws -> ProcessResult {
  var base = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
  base.merge(environment) { $1 }
  let result = try run(rewindBinary, arguments, environment: base)
  #expect(!result.signalled, "rewind \(arguments) ended with a signal: \(result.stderr)")
  // 2 only from `diff --exit-code`: states that could not be compared.
  let statuses: [Int32] = arguments.contains("--exit-code") ? [0, 1, 2, 64] : [0, 1, 64]
  #expect(statuses.contains(result.status), "rewind \(arguments) exited \(result.status)")
  return result
}

/// Parses JSON text with Foundation, as a user's script would.
func parseJSON(_ text: String) throws -> Any {
  try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
}

/// Parses a JSON object.
func parseObject(_ text: String) throws -> [String: Any] {
  try #require(try parseJSON(text) as? [String: Any], "not a JSON object: \(text)")
}

/// The reports of `verify --json`, one a journal: its output is one object whatever their
/// number, the reports in its "journals".
func verifyReports(_ text: String) throws -> [[String: Any]] {
  try #require(try parseObject(text)["journals"] as? [[String: Any]], "no journals: \(text)")
}

/// The report of the one journal given to `verify --json`.
func verifyReport(_ text: String) throws -> [String: Any] {
  let reports = try verifyReports(text)
  try #require(reports.count == 1, "not one report: \(text)")
  return reports[0]
}

extension ProcessResult {
  /// The lines of standard output.
  var lines: [String] {
    stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter {
      !$0.isEmpty
    }
  }
}

/// Checks the three-part usage error layout: `Error: …`, `Usage: …`, the help pointer.
func expectUsageError(
  _ result: ProcessResult, _ message: String, command: String?,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  #expect(result.status == 64, sourceLocation: sourceLocation)
  #expect(result.stdout.isEmpty, sourceLocation: sourceLocation)
  let lines = result.stderr.split(separator: "\n").map(String.init)
  #expect(lines.first == "Error: \(message)", "\(result.stderr)", sourceLocation: sourceLocation)
  #expect(lines.contains { $0.hasPrefix("Usage: rewind") }, sourceLocation: sourceLocation)
  let help = command.map { "rewind \($0) --help" } ?? "rewind --help"
  #expect(lines.last == "  See '\(help)' for more information.", sourceLocation: sourceLocation)
}

/// Checks a runtime failure: `Error: …` on stderr, exit 1.
func expectFailure(
  _ result: ProcessResult, containing text: String,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  #expect(result.status == 1, "\(result.stderr)", sourceLocation: sourceLocation)
  #expect(result.stderr.hasPrefix("Error: "), "\(result.stderr)", sourceLocation: sourceLocation)
  #expect(result.stderr.contains(text), "\(result.stderr)", sourceLocation: sourceLocation)
}

/// Writes at `path` a copy of the sample journal `name` with `count` bytes that are no
/// frame after its end (a torn tail: written after its trailer, they are read as a crash's
/// unfinished frame is, and not read); returns the journal's own size, where the tail
/// starts.
@discardableResult
func writeTornCopy(of name: String, to path: String, count: Int = 40) throws -> Int {
  var bytes = try Data(contentsOf: URL(fileURLWithPath: sample(name)))
  let size = bytes.count
  bytes.append(contentsOf: [UInt8](repeating: 0x78, count: count))
  try bytes.write(to: URL(fileURLWithPath: path))
  return size
}
