import Foundation
import TestSupport
import Testing

@Suite("rewind testgen", .timeLimit(.minutes(2)))
struct TestgenTests {
  /// The generated tests of Tests/GeneratedTests, each with the command line of its
  /// first line.
  static let generatedFiles: [String] = {
    let directory = repositoryRoot + "/Tests/GeneratedTests"
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    return names.filter { $0.hasSuffix(".swift") }.sorted().map { directory + "/" + $0 }
  }()

  @Test("the suite holds generated tests")
  func thereAreGeneratedTests() {
    #expect(Self.generatedFiles.count >= 3)
  }

  @Test(
    "regenerating each generated test gives the file as it is: the generator and the reducer have not drifted",
    arguments: generatedFiles)
  func regenerates(file: String) throws {
    let text = try String(contentsOfFile: file, encoding: .utf8)
    let first = try #require(text.split(separator: "\n").first)
    let command = try #require(first.split(separator: "`").dropFirst().first)
    var words = command.split(separator: " ").map(String.init)
    #expect(words.prefix(2) == ["rewind", "testgen"])
    words.removeFirst()
    let result = try run(
      rewindBinary, words, environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"],
      currentDirectory: repositoryRoot)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdout == text,
      "\(file) is out of date: run `\(command) -o \(file) --force` from the repository root and review the difference"
    )
  }

  @Test("a range starts from the state before it, written as assignments")
  func range() throws {
    let result = try rewind("testgen", sample("day-menu.journal"), "--from", "5", "--to", "7")
    #expect(result.status == 0)
    #expect(result.stdout.contains("@Test func dayMenu() throws {"))
    #expect(result.stdout.contains("var start = domain.initialState"))
    #expect(result.stdout.contains("let store = TestStore(domain, state: start)"))
    #expect(result.stdout.contains("// 6: "))
    #expect(!result.stdout.contains("// 5: "))
    #expect(!result.stdout.contains("// 8: "))
  }

  @Test("-o writes the file, refuses to replace it without --force, replaces it with it")
  func output() throws {
    let directory = TemporaryDirectory()
    let path = directory.path + "/Session.swift"
    let first = try rewind("testgen", sample("two-column.journal"), "-o", path)
    #expect(first.status == 0)
    let written = try String(contentsOfFile: path, encoding: .utf8)
    #expect(written.contains("store.send("))
    let again = try rewind("testgen", sample("two-column.journal"), "-o", path)
    #expect(again.status == 1)
    #expect(again.stderr.contains("--force"))
    let forced = try rewind(
      "testgen", sample("two-column.journal"), "--to", "3", "-o", path, "--force")
    #expect(forced.status == 0)
    #expect(try String(contentsOfFile: path, encoding: .utf8).contains("Events 1–3"))
  }

  @Test("a name that is not a Swift identifier is a usage error")
  func badName() throws {
    let result = try rewind("testgen", sample("two-column.journal"), "--name", "1 session")
    #expect(result.status == 64)
    #expect(result.stderr.contains("--name"))
    #expect(result.stdout.isEmpty)
  }

  @Test("a journal named as a Swift keyword gets a test name that is not one")
  func keywordJournalName() throws {
    let directory = TemporaryDirectory()
    let journal = directory.path + "/deinit.journal"
    try FileManager.default.copyItem(atPath: sample("two-column.journal"), toPath: journal)
    let result = try rewind("testgen", journal, "--to", "2")
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("@Test func deinitNode() throws {"))
  }

  @Test("help describes the command")
  func help() throws {
    let result = try rewind("help", "testgen")
    #expect(result.status == 0)
    #expect(result.stdout.contains("TestStore"))
    #expect(result.stdout.contains("--from"))
  }
}
