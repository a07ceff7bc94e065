import TestSupport
import Testing

/// `--jobs`: `find` and `check` split a journal among threads and print, byte for byte,
/// what one thread prints.
@Suite("Parallel scans of the built rewind")
struct ParallelScanEndToEndTests {
  @Test("find and check print the same bytes with --jobs 1 and --jobs 4 on random journals")
  func jobsDoNotChangeOutput() throws {
    let seed = testSeed("jobsDoNotChangeOutput") % 1_000_000
    let directory = TemporaryDirectory()
    let journal = directory.file("random.journal")
    // Long enough for four parts of at least 65,536 events.
    let generated = try rewind(
      "generate", "-o", journal, "--events", "270000", "--seed", "\(seed)")
    #expect(generated.status == 0, "\(generated.stderr)")
    let runs: [[String]] = [
      ["find", journal, "--where", "changed(split.style)", "--all"],
      ["find", journal, "--where", "split.selectedCategory == grinders", "--all", "--json"],
      ["find", journal, "--where", "menu.selectedIndex != 0"],
      ["check", journal],
      ["check", journal, "--json"],
    ]
    for arguments in runs {
      let one = try rewind(arguments + ["--jobs", "1"])
      let four = try rewind(arguments + ["--jobs", "4"])
      #expect(one.status == 0, "seed \(seed): \(arguments): \(one.stderr)")
      #expect(four.stdout == one.stdout, "seed \(seed): \(arguments)")
      #expect(four.stderr == one.stderr)
      #expect(four.status == one.status)
    }
  }

  @Test("--jobs takes 1 to 256 jobs")
  func jobsRange() throws {
    for value in ["0", "257", "many"] {
      let result = try rewind("check", sample("day-menu.journal"), "--jobs", value)
      #expect(result.status == 64)
      #expect(result.stderr.contains("expected a number of jobs from 1 to 256"))
    }
  }
}
