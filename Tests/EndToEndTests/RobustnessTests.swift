import Foundation
import TestSupport
import Testing

@Suite("Bad input never crashes the tool")
struct RobustnessTests {
  /// A damaged frame stops `log` and `export`: to a pipe (or a file), every event before
  /// it is written first, as on a terminal (the batch of lines being filled was lost:
  /// up to 38 KB of readable events, none at all from a point near the damage).
  @Test func theEventsBeforeADamagedFrameReachAPipe() throws {
    let directory = TemporaryDirectory()
    let intact = directory.file("intact.journal")
    #expect(
      try rewind("generate", "--events", "100000", "--seed", "11", "-o", intact).status == 0)
    var content = bytes(of: intact)
    content[45_000] ^= 0x40
    let damaged = directory.file("damaged.journal")
    write(content, to: damaged)
    let refused = try rewind("log", damaged)
    #expect(refused.status == 1)
    // `frame N (events FIRST–LAST) at byte …: checksum mismatch …`: the last event read is
    // the one before FIRST.
    let named = try #require(
      refused.stderr.firstMatch(of: /\(events ([0-9]+)–/), "\(refused.stderr)")
    let last = try #require(Int(named.1)) - 1
    #expect(last > 1_000)
    // The text's columns are as wide as the session's last number: the intact journal's
    // lines, up to the last read.
    let lines = try rewind("log", intact).stdout.split(
      separator: "\n", omittingEmptySubsequences: false)
    #expect(refused.stdout == lines.prefix(last).joined(separator: "\n") + "\n")
    let json = try rewind("log", damaged, "--json")
    #expect(json.status == 1)
    #expect(json.stdout == (try rewind("log", intact, "--json", "--to", "\(last)")).stdout)
    for from in [last - 100, 1_000] {
      let exported = try rewind("export", damaged, "--from", "\(from)")
      #expect(exported.status == 1)
      let whole = try rewind("export", intact, "--from", "\(from)", "--to", "\(last)")
      #expect(exported.stdout == whole.stdout, "export --from \(from)")
      let logged = try rewind("log", damaged, "--from", "\(from)")
      let text = try rewind("log", intact, "--from", "\(from)").stdout
      // Events from + 1 ... last.
      #expect(
        logged.stdout
          == text.split(separator: "\n").prefix(last - from).joined(separator: "\n") + "\n")
    }
  }

  @Test("every command on garbage files ends with an error, never a trap")
  func garbage() throws {
    let directory = TemporaryDirectory()
    var random = SplitMix64(seed: testSeed("garbage"))
    var inputs: [String] = []
    let valid = bytes(of: sample("ipad-three-column.journal"))
    for index in 0..<12 {
      let path = directory.file("garbage-\(index).journal")
      var content: [UInt8]
      switch index % 3 {
      case 0:
        content = (0..<Int.random(in: 0...4_000, using: &random)).map { _ in
          UInt8.random(in: 0...255, using: &random)
        }
      case 1:
        content = valid
        for _ in 0..<8 {
          content[Int.random(in: 0..<content.count, using: &random)] = UInt8.random(
            in: 0...255, using: &random)
        }
      default: content = Array(valid[..<Int.random(in: 0..<valid.count, using: &random)])
      }
      write(content, to: path)
      inputs.append(path)
    }
    for path in inputs {
      for arguments in [
        ["info", path], ["log", path], ["state", path], ["verify", path], ["check", path],
        ["export", path], ["find", path, "--where", "changed(split.selectedItem)"],
        ["blame", path, "split.selectedItem"], ["diff", path, "--from", "start", "--to", "end"],
        ["import", path, "-o", directory.file("imported.journal")],
        ["record", path, "-o", directory.file("recorded.journal")],
      ] {
        let result = try rewind(arguments)
        let lines = result.stderr.split(separator: "\n")
        let errors = lines.filter { $0.hasPrefix("Error: ") }
        // Warnings (a header read from its copy, a torn tail) may come first; the rest of
        // standard error is an error, its continuation lines, or a usage line.
        #expect(
          lines.allSatisfy {
            $0.hasPrefix("Error: ") || $0.hasPrefix("warning: ") || $0.hasPrefix("  ")
              || $0.hasPrefix("Usage:")
          }, "\(arguments): \(result.stderr)")
        switch result.status {
        case 0:
          // A run that succeeds on damaged input says what it found: its report on
          // stdout, only warnings on stderr.
          #expect(errors.isEmpty && !result.stdout.isEmpty, "\(arguments): \(result.stderr)")
          switch arguments[0] {
          case "verify": #expect(result.stdout.hasPrefix("OK "), "\(result.stdout)")
          case "check": #expect(result.stdout.hasPrefix("PASS "), "\(result.stdout)")
          case "import", "record":
            // Only an empty file can be read as an empty session.
            #expect(bytes(of: arguments[1]).isEmpty, "\(arguments): \(result.stdout)")
            #expect(result.stdout.contains("0 events"), "\(arguments): \(result.stdout)")
            try FileManager.default.removeItem(atPath: arguments[3])
          default: break
          }
        case 1 where errors.isEmpty:
          // check and verify report what they found on stdout and exit 1.
          #expect(["check", "verify"].contains(arguments[0]), "\(arguments): \(result.stderr)")
          #expect(
            result.stdout.contains("FAIL") || result.stdout.contains("DAMAGED")
              || result.stdout.hasPrefix("UNREADABLE "))
        default:
          #expect(errors.count == 1, "\(arguments): \(result.stderr)")
        }
        #expect(!result.stderr.contains("Fatal error"), "\(arguments)")
        #expect([0, 1, 64].contains(result.status), "\(arguments): \(result.status)")
      }
    }
  }
}
