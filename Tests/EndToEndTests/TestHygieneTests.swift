import Foundation
import TestSupport
import Testing

/// The tests' own habits that a test run would otherwise pay for outside the repository.
@Suite("The tests leave nothing behind")
struct TestHygieneTests {
  /// Foundation's calls that write through a temporary file or folder, which a fixture
  /// does not need (and which were blamed for the empty `TemporaryDirectory.*` folders in
  /// the system's temporary directory; see `TestSupport.write(_:to:)`). Fixtures are
  /// written with `TestSupport`'s `write(_:to:)` and `String.writeFixture(to:)` instead.
  static let atomicWrites = [
    "atomically: true", "options: .atomic", ".atomicWrite", "createFile(atPath:",
  ]

  @Test("no test writes a file through Foundation's atomic writes")
  func noAtomicWrites() throws {
    let tests = repositoryRoot + "/Tests"
    let paths = try #require(FileManager.default.subpaths(atPath: tests))
    let own = URL(fileURLWithPath: #filePath).standardizedFileURL.path
    var found: [String] = []
    var files = 0
    for path in paths.sorted() where path.hasSuffix(".swift") {
      let full = tests + "/" + path
      guard URL(fileURLWithPath: full).standardizedFileURL.path != own else { continue }
      files += 1
      let text = try String(contentsOfFile: full, encoding: .utf8)
      for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false)
        .enumerated()
      {
        let code = line.drop { $0 == " " }
        guard !code.hasPrefix("//") else { continue }
        for call in Self.atomicWrites where code.contains(call) {
          found.append("Tests/\(path):\(number + 1): \(call)")
        }
      }
    }
    #expect(files > 50, "the tests were not found at \(tests)")
    #expect(
      found.isEmpty,
      "write fixtures with write(_:to:) or String.writeFixture(to:) (TestSupport): \(found)")
  }
}
