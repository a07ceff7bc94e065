import Foundation
import Testing

@testable import RewindCLI

/// The process's context holds only the environment variables the tool reads
/// (`CommandContextTests` checks it against the process's own).
struct EnvironmentTests {
  /// Every `environment["NAME"]` in the sources names a variable of
  /// `ProcessCalls.variablesRead`: one read but not listed would never be set.
  @Test func theSourcesReadOnlyTheListedVariables() throws {
    var sources = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { sources.deleteLastPathComponent() }
    sources.appendPathComponent("Sources")
    let files = try #require(FileManager.default.enumerator(atPath: sources.path))
    let pattern = try NSRegularExpression(pattern: #"environment\["([^"]+)"\]"#)
    var read: Set<String> = []
    for case let file as String in files where file.hasSuffix(".swift") {
      let text = try String(contentsOfFile: sources.path + "/" + file, encoding: .utf8)
      let range = NSRange(text.startIndex..., in: text)
      for match in pattern.matches(in: text, range: range) {
        read.insert(String(text[Range(match.range(at: 1), in: text)!]))
      }
    }
    #expect(
      read.isSuperset(of: ["NO_COLOR", "TERM", "COLORTERM", "COLUMNS", "NATS_CREDS", "NATS_CA"]),
      "\(read)")
    #expect(read.subtracting(ProcessCalls.variablesRead).isEmpty, "\(read)")
  }
}
