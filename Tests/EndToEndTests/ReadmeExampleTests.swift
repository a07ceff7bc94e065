import Foundation
import TestSupport
import Testing

/// The README's examples: every `$ rewind …` line of its code blocks is run, in a directory
/// holding a copy of `Journals/`, and prints what the README shows under it (its standard
/// output, then its standard error; a line `…` stands for any lines). The few the README cannot
/// show as they run here are listed in ``ReadmeExampleTests/notRun`` with the reason.
@Suite("The README's examples")
struct ReadmeExampleTests {
  /// An example: the command after `$ ` (continued lines joined) and the lines under it.
  struct Example: Sendable {
    var command: String
    var output: [String]
    var line: Int
    var testDescription: String { "README.md:\(line): \(command)" }
  }

  /// The examples not run, by their command, and why.
  static let notRun: [String: String] = [
    "rewind live -o tour.journal": "a terminal app (LiveTests drive it in tmux)",
    "rewind play Journals/ipad-three-column.journal":
      "a terminal app (PlayTerminalTests drive it in tmux)",
    "rewind state session.journal --at 256 --json > /dev/null":
      "session.journal's snapshot was damaged by hand (SnapshotHashTests)",
    "rewind verify --deep session.journal":
      "session.journal's snapshot was damaged by hand (SnapshotHashTests)",
    "rewind verify live.journal": "live.journal's writer was killed (CrashTests)",
    "rewind html session.journal --timings --jobs 1": "times measured once",
    "rewind push Journals/day-menu.journal Journals/generated-200k.journal --server nats://127.0.0.1:4222":
      "a NATS server on port 4222 (StreamCommandTests start their own)",
    "rewind push Journals/day-menu.journal --server nats://127.0.0.1:4222":
      "a NATS server on port 4222",
    "rewind sessions --server nats://127.0.0.1:4222": "a NATS server on port 4222",
    "rewind pull b15eee87 --server nats://127.0.0.1:4222 -o copy.journal":
      "a NATS server on port 4222",
    "rewind verify copy.journal": "copy.journal is pulled from a NATS server",
  ]

  /// The README's examples, in its order.
  static let examples: [Example] = {
    guard
      let text = try? String(contentsOfFile: repositoryRoot + "/README.md", encoding: .utf8)
    else { return [] }
    return parse(text)
  }()

  /// The examples of a Markdown text: in each fenced code block, a line `$ rewind …`
  /// (lines ending in `\` continued by the next), and the lines under it up to the next
  /// `$ ` line or the fence, less trailing blank lines.
  static func parse(_ text: String) -> [Example] {
    var examples: [Example] = []
    var inBlock = false
    var current: Example?
    var pending = ""
    var pendingLine = 0
    func close() {
      guard var example = current else { return }
      while example.output.last == "" { example.output.removeLast() }
      examples.append(example)
      current = nil
    }
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false)
      .enumerated()
    {
      let line = String(line)
      if line.hasPrefix("```") {
        close()
        inBlock.toggle()
        continue
      }
      guard inBlock else { continue }
      if !pending.isEmpty || line.hasPrefix("$ ") {
        if pending.isEmpty {
          close()
          pendingLine = index + 1
        }
        let part =
          pending.isEmpty ? String(line.dropFirst(2)) : String(line.drop(while: { $0 == " " }))
        if part.hasSuffix("\\") {
          pending += part.dropLast()
          continue
        }
        let command = pending + part
        pending = ""
        current =
          command.hasPrefix("rewind ")
          ? Example(command: command, output: [], line: pendingLine) : nil
        continue
      }
      current?.output.append(line)
    }
    return examples
  }

  /// Whether `lines` are `expected`, where a line `…` of it stands for any lines.
  static func matches(_ lines: ArraySlice<String>, _ expected: ArraySlice<String>) -> Bool {
    guard let first = expected.first else { return lines.isEmpty }
    if first == "…" {
      return lines.indices.reversed().contains { matches(lines[$0...], expected.dropFirst()) }
        || matches([], expected.dropFirst())
    }
    guard lines.first == first else { return false }
    return matches(lines.dropFirst(), expected.dropFirst())
  }

  /// Runs `command` with `sh` in `directory`, the built `rewind` first on the path.
  static func run(_ command: String, in directory: String) throws -> ProcessResult {
    try TestSupport.run(
      "/bin/sh", ["-c", command],
      environment: ["PATH": productsDirectory + ":/usr/bin:/bin", "LANG": "C.UTF-8"],
      currentDirectory: directory)
  }

  @Test("the README has examples, and each one not run is one of them")
  func found() {
    #expect(Self.examples.count >= 25)
    let commands = Set(Self.examples.map(\.command))
    for command in Self.notRun.keys {
      #expect(commands.contains(command), "not an example of the README: \(command)")
    }
  }

  /// In a directory holding a copy of `Journals/`, those that write a file (`-o`) first,
  /// so that the others may read what they wrote.
  @Test("each prints what the README shows")
  func everyExample() throws {
    let directory = TemporaryDirectory()
    try FileManager.default.copyItem(
      atPath: repositoryRoot + "/Journals", toPath: directory.file("Journals"))
    let run = Self.examples.filter { Self.notRun[$0.command] == nil }
    let writing = run.filter { $0.command.contains(" -o ") }
    for example in writing + run.filter({ !$0.command.contains(" -o ") }) {
      let result = try Self.run(example.command, in: directory.path)
      #expect(!result.signalled, "\(example.testDescription)")
      var printed = (result.stdout + result.stderr).split(
        separator: "\n", omittingEmptySubsequences: false
      )
      .map(String.init)[...]
      while printed.last == "" { printed.removeLast() }
      #expect(
        Self.matches(printed, example.output[...]),
        "\(example.testDescription) printed:\n\(printed.joined(separator: "\n"))\nwhere the README shows:\n\(example.output.joined(separator: "\n"))"
      )
    }
  }

  @Test("a line … stands for any lines")
  func ellipsis() {
    #expect(Self.matches(["a", "b", "c"], ["a", "…", "c"]))
    #expect(Self.matches(["a", "c"], ["a", "…", "c"]))
    #expect(Self.matches(["a", "b", "c"], ["…"]))
    #expect(!Self.matches(["a", "b", "d"], ["a", "…", "c"]))
    #expect(!Self.matches(["a", "b"], ["a"]))
  }

  @Test("examples are read from fenced blocks, with continued lines joined")
  func parsing() {
    let text = """
      $ rewind outside a block
      ```
      $ rewind info a.journal \\
          --json
      {"a": 1}

      $ rewind log a.journal
        1  x

      $ ls
      ```
      """
    let examples = Self.parse(text)
    #expect(examples.map(\.command) == ["rewind info a.journal --json", "rewind log a.journal"])
    #expect(examples.map(\.output) == [["{\"a\": 1}"], ["  1  x"]])
    #expect(examples.map(\.line) == [3, 7])
  }
}
