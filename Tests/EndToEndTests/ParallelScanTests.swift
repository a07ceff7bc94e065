import Foundation
import TestSupport
import Testing

/// `--jobs`: `find`, `check`, `log --where` and `verify --deep` split a journal among threads
/// and print, byte for byte, what one thread prints.
@Suite("Parallel scans of the built rewind")
struct ParallelScanEndToEndTests {
  @Test(
    "find, check, log --where and verify --deep print the same bytes with --jobs 1, 2, 3 and 4 on random journals"
  )
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
      ["find", journal, "--where", "changed(menu.scrollOffset)", "--count"],
      ["find", journal, "--where", "changed(split.selectedItem)", "--all"],
      ["check", journal],
      ["check", journal, "--json"],
      ["log", journal, "--where", "changed(split.style)"],
      ["log", journal, "--where", "split.selectedCategory == grinders", "--changes", "--json"],
      [
        "log", journal, "--where", "changed(menu.selectedIndex)", "--changes", "--type",
        "menuTabTapped",
      ],
      ["log", journal, "--where", "outcome == rejected", "--from", "1000", "--to", "250000"],
      // Ranges that start and end inside frames (parts cut at frame ends in between).
      [
        "find", journal, "--where", "changed(split.style)", "--all", "--from", "12345", "--to",
        "250001",
      ],
      ["find", journal, "--where", "changed(menu.scrollOffset)", "--count", "--from", "70001"],
      ["find", journal, "--where", "split.selectedCategory == grinders", "--from", "150007"],
      ["verify", journal, "--deep"],
    ]
    for arguments in runs {
      let one = try rewind(arguments + ["--jobs", "1"])
      #expect(one.status == 0, "seed \(seed): \(arguments): \(one.stderr)")
      // Two and three jobs take more parts than they are, four about as many.
      for jobs in ["2", "3", "4"] {
        let many = try rewind(arguments + ["--jobs", jobs])
        #expect(many.stdout == one.stdout, "seed \(seed): \(arguments) --jobs \(jobs)")
        #expect(many.stderr == one.stderr)
        #expect(many.status == one.status)
      }
    }
  }

  @Test(
    "check of several random journals prints the same bytes with --jobs 1, 2 and 4, failures included"
  )
  func severalJournals() throws {
    let seed = testSeed("severalJournals")
    var random = SplitMix64(seed: seed)
    let directory = TemporaryDirectory()
    // Journals of different lengths: one long enough for two parts of 65,536 events,
    // which share the jobs' cores with the other journals' parts.
    var journals: [String] = []
    for (index, events) in [140_000, Int.random(in: 1...40_000, using: &random), 3_000, 20_000]
      .enumerated()
    {
      let journal = directory.file("j\(index).journal")
      let generated = try rewind(
        "generate", "-o", journal, "--events", "\(events)", "--seed",
        "\(random.next() % 1_000_000)")
      #expect(generated.status == 0, "\(generated.stderr)")
      journals.append(journal)
    }
    // Failing ones: an expected state that differs, a journal damaged in its middle, a
    // file that is no journal, one that does not exist.
    "{\"split\": {\"style\": \"no such style\"}}".writeFixture(to: directory.file("j1.state.json"))
    let damaged = directory.file("damaged.journal")
    var bytes = try Data(contentsOf: URL(fileURLWithPath: journals[3]))
    let middle = bytes.count / 2 + Int.random(in: 0..<(bytes.count / 4), using: &random)
    for offset in middle..<(middle + 16) { bytes[offset] ^= 0x5A }
    write(Array(bytes), to: damaged)
    // A journal cut short: a torn tail, which opening it warns of on stderr.
    let cut = directory.file("cut.journal")
    write(Array(bytes.prefix(bytes.count * 2 / 3)), to: cut)
    let text = directory.file("text.journal")
    "not a journal\n".writeFixture(to: text)
    var all = journals + [damaged, cut, text, directory.file("missing.journal")]
    all.shuffle(using: &random)
    let runs: [[String]] = [
      ["check"] + all, ["check", "--json"] + all, ["check", "--require-expected"] + all,
      ["check", "--max-divergences", "1"] + Array(all.prefix(2)),
      ["check", "--json"] + Array(journals.prefix(2)),
    ]
    for arguments in runs {
      let one = try rewind(arguments + ["--jobs", "1"])
      if arguments.contains(text) { #expect(one.status == 1, "seed \(seed): \(arguments)") }
      if arguments.contains(cut) {
        #expect(one.stderr.contains("warning: "), "seed \(seed): \(one.stderr)")
      }
      #expect(!one.stdout.isEmpty)
      for jobs in ["2", "4"] {
        let many = try rewind(arguments + ["--jobs", jobs])
        #expect(many.stdout == one.stdout, "seed \(seed): \(arguments) --jobs \(jobs)")
        #expect(many.stderr == one.stderr, "seed \(seed): \(arguments) --jobs \(jobs)")
        #expect(many.status == one.status)
      }
    }
    // An expected state that is not JSON fails its journal, and the others are checked,
    // with any number of jobs.
    "{".writeFixture(to: directory.file("j2.state.json"))
    let arguments = ["check", cut, journals[0], journals[2], journals[3]]
    let one = try rewind(arguments + ["--jobs", "1"])
    #expect(one.status == 1)
    #expect(one.stderr.hasPrefix("warning: \(cut): the last"), "\(one.stderr)")
    #expect(!one.stderr.contains("Error:"), "\(one.stderr)")
    #expect(
      one.lines.contains {
        $0.hasPrefix(
          "FAIL \(journals[2]): \(directory.file("j2.state.json")): the expected state is not JSON")
      }, "\(one.stdout)")
    #expect(one.lines.filter { $0.hasPrefix("PASS ") || $0.hasPrefix("FAIL ") }.count == 4)
    let four = try rewind(arguments + ["--jobs", "4"])
    #expect(four.stdout == one.stdout)
    #expect(four.status == one.status)
    #expect(four.stderr == one.stderr, "seed \(seed)")
  }

  @Test("--jobs takes 1 to 256 jobs")
  func jobsRange() throws {
    for value in ["0", "257", "many"] {
      let result = try rewind("check", sample("day-menu.journal"), "--jobs", value)
      #expect(result.status == 64)
      #expect(result.stderr.contains("expected a number of jobs from 1 to 256"))
    }
  }

  @Test(
    "--jobs is taken, and checked, where the command does not scan in parts (verify without --deep, log without --where, find --last), so that a wrapper may pass it to every command that has it"
  )
  func jobsWithoutEffect() throws {
    let journal = sample("day-menu.journal")
    for arguments in [
      ["verify", journal], ["verify", journal, "--json"], ["log", journal],
      ["log", journal, "--changes", "--type", "menuTabTapped"],
      ["find", journal, "--where", "menu.selectedIndex == 2", "--last"],
    ] {
      let without = try rewind(arguments)
      for jobs in ["1", "4"] {
        let given = try rewind(arguments + ["--jobs", jobs])
        #expect(given.status == 0, "\(arguments) --jobs \(jobs): \(given.stderr)")
        #expect(given.stdout == without.stdout, "\(arguments) --jobs \(jobs)")
        #expect(given.stderr.isEmpty)
      }
      // Still checked.
      let bad = try rewind(arguments + ["--jobs", "0"])
      #expect(bad.status == 64)
      #expect(bad.stderr.contains("expected a number of jobs from 1 to 256"), "\(bad.stderr)")
    }
    // Where it applies, it is taken.
    #expect(try rewind("verify", journal, "--deep", "--jobs", "4").status == 0)
    #expect(
      try rewind("log", journal, "--where", "changed(menu.selectedIndex)", "--jobs", "4").status
        == 0)
    #expect(
      try rewind("find", journal, "--where", "menu.selectedIndex == 2", "--all", "--jobs", "4")
        .status == 0)
    // A command that never scans has no --jobs.
    let state = try rewind("state", journal, "--jobs", "1")
    #expect(state.status == 64)
    #expect(state.stderr.hasPrefix("Error: Unknown option '--jobs'"), "\(state.stderr)")
  }
}
