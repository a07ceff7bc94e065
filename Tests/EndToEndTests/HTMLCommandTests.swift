import Foundation
import TestSupport
import Testing

@Suite("rewind html: the command")
struct HTMLCommandTests {
  @Test("writes the journal's name with .html here by default, and never overwrites silently")
  func output() throws {
    let directory = TemporaryDirectory()
    let environment = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
    let first = try run(
      rewindBinary, ["html", sample("iphone-compact.journal")], environment: environment,
      currentDirectory: directory.path)
    #expect(first.status == 0, "\(first.stderr)")
    #expect(first.stdout.hasPrefix("Wrote iphone-compact.html: 20 events (points 0–20), "))
    #expect(first.stdout.hasSuffix(" bytes/event\n"))
    let page = String(decoding: bytes(of: directory.file("iphone-compact.html")), as: UTF8.self)
    #expect(page.hasPrefix("<!DOCTYPE html>"))
    #expect(page.contains("<title>iphone-compact.journal</title>"))

    let again = try run(
      rewindBinary, ["html", sample("iphone-compact.journal")], environment: environment,
      currentDirectory: directory.path)
    expectFailure(
      again, containing: "iphone-compact.html: the file exists; pass --force to replace it")
    // A wrong range is said first, not after --force was given.
    let wrong = try run(
      rewindBinary, ["html", sample("iphone-compact.journal"), "--from", "10", "--to", "5"],
      environment: environment, currentDirectory: directory.path)
    #expect(wrong.status == 64)
    #expect(wrong.stderr.hasPrefix("Error: --from 10 is after --to 5"), "\(wrong.stderr)")
    let forced = try rewind(
      "html", sample("day-menu.journal"), "-o", directory.file("iphone-compact.html"), "--force",
      "--title", "Menu <days>", "--json")
    #expect(forced.status == 0)
    let json = try parseObject(forced.stdout)
    #expect(json["events"] as? Int == 25)
    #expect(json["from"] as? Int == 0 && json["to"] as? Int == 25)
    let written = bytes(of: directory.file("iphone-compact.html"))
    #expect(json["bytes"] as? Int == written.count)
    #expect(String(decoding: written, as: UTF8.self).contains("<title>Menu &lt;days&gt;</title>"))

    // Never over its input, by any name.
    let journal = directory.file("copy.journal")
    write(bytes(of: sample("day-menu.journal")), to: journal)
    let overInput = try rewind("html", journal, "-o", journal, "--force")
    #expect(overInput.status == 64)
    #expect(bytes(of: journal) == bytes(of: sample("day-menu.journal")))
  }

  @Test("a range gives a page of a part; points are checked as everywhere")
  func range() throws {
    let directory = TemporaryDirectory()
    let page = directory.file("part.html")
    let part = try rewind(
      "html", sample("ipad-three-column.journal"), "--from", "10", "--to", "+40s", "-o", page)
    #expect(part.status == 0, "\(part.stderr)")
    // +40s is after event 17 (+38.0s) and before event 18 (+41.1s).
    #expect(part.stdout.hasPrefix("Wrote \(page): 7 events (points 10–17), "))
    expectUsageError(
      try rewind("html", sample("ipad-three-column.journal"), "--from", "20", "--to", "10"),
      "--from 20 is after --to 10; give the earlier point first", command: "html")
    expectUsageError(
      try rewind("html", sample("ipad-three-column.journal"), "--to", "99"),
      "The value '99' is invalid for '--to <point>': event 99 is beyond the end of the session (points are 0–32)",
      command: "html")
    for blank in ["", "  "] {
      expectUsageError(
        try rewind("html", sample("ipad-three-column.journal"), "--title", blank, "-o", page),
        "The value '\(blank)' is invalid for '--title <text>': a page's title cannot be blank; leave --title out for the journal's name",
        command: "html")
    }
  }

  @Test(
    "a session of more than 200,000 events is refused with its size, as a usage error (64) said before --force is asked for, and a part of it is not"
  )
  func tooLarge() throws {
    let directory = TemporaryDirectory()
    let journal = directory.file("big.journal")
    #expect(try rewind("generate", "-o", journal, "--events", "200010", "--seed", "3").status == 0)
    let page = directory.file("big.html")
    expectUsageError(
      try rewind("html", journal, "-o", page),
      "\(journal): the session has 200,010 events (1–200010); a page holds at most 200,000: choose a part with --from and --to, e.g. --from 0 --to 200000",
      command: "html")
    #expect(!FileManager.default.fileExists(atPath: page))
    expectUsageError(
      try rewind("html", journal, "-o", page, "--from", "5", "--to", "end"),
      "\(journal): the part asked for has 200,005 events (6–200010); a page holds at most 200,000: choose a part with --from and --to, e.g. --from 5 --to 200005",
      command: "html")
    #expect(!FileManager.default.fileExists(atPath: page))
    // A page already there: the part's size is said first, --force only for a part that fits.
    try Data("old".utf8).write(to: URL(fileURLWithPath: page))
    #expect(try rewind("html", journal, "-o", page).status == 64)
    #expect(try String(contentsOfFile: page, encoding: .utf8) == "old")
    try FileManager.default.removeItem(atPath: page)
    let part = try rewind("html", journal, "-o", page, "--from", "199000")
    #expect(part.status == 0, "\(part.stderr)")
    #expect(part.stdout.contains("1,010 events (points 199000–200010)"))
  }

  @Test("rewind help html says what the page holds, how to open it at a point and script it")
  func help() throws {
    let viaHelp = try rewind("help", "html")
    let viaFlag = try rewind("html", "--help")
    #expect(viaHelp.status == 0 && viaHelp.stdout == viaFlag.stdout)
    let help = viaHelp.stdout
    #expect(help.hasPrefix("OVERVIEW: Write a session as one self-contained web page."))
    #expect(
      help.contains(
        """
        USAGE: rewind html <journal> [--output <page.html>] [--from <point>]
                           [--to <point>] [--title <text>] [--force] [--json]
                           [--jobs <n>] [--timings]
        """), "\(help)")
    for text in [
      "200,000 events", "#at=POINT", "window.rewind", "shownState()", "--jobs N", "--timings",
    ] {
      #expect(help.contains(text), "\(text)")
    }
    let root = try rewind("help")
    #expect(root.stdout.contains("\n  html "))
  }

  @Test(
    "--jobs 2, 3 and 4 and the default write the page --jobs 1 writes, of a session and of a part of it"
  )
  func jobs() throws {
    let seed = testSeed("HTMLCommandTests.jobs") % 1_000_000
    let directory = TemporaryDirectory()
    let journal = directory.file("long.journal")
    // Long enough to build in parts: at least eight of 8,192 events.
    let generated = try rewind(
      "generate", "-o", journal, "--events", "90000", "--seed", "\(seed)")
    #expect(generated.status == 0, "\(generated.stderr)")
    for range in [[], ["--from", "1234", "--to", "88888"]] {
      let one = try rewind(
        ["html", journal, "-o", directory.file("one.html"), "--jobs", "1", "--force"] + range)
      #expect(one.status == 0, "seed \(seed): \(one.stderr)")
      // The page's data is compressed in several chunks (of 256 KiB): 90,000 events of about
      // 8.5 bytes.
      let html = String(decoding: bytes(of: directory.file("one.html")), as: UTF8.self)
      let length =
        html.components(separatedBy: #"data-length=""#).dropFirst().first
        .flatMap { Int($0.prefix { $0 != "\"" }) } ?? 0
      #expect(length > 2 * 262_144, "seed \(seed): \(length) bytes of data")
      for jobs in ["2", "3", "4", "default"] {
        let page = directory.file("jobs\(jobs).html")
        let many = try rewind(
          ["html", journal, "-o", page, "--force"] + (jobs == "default" ? [] : ["--jobs", jobs])
            + range)
        #expect(many.status == 0, "seed \(seed): \(many.stderr)")
        #expect(
          many.stdout == one.stdout.replacingOccurrences(of: "one.html", with: "jobs\(jobs).html"))
        // Compared here: a failed #expect of two pages would print their every byte.
        let same = bytes(of: page) == bytes(of: directory.file("one.html"))
        #expect(same, "seed \(seed): \(range) --jobs \(jobs)")
      }
    }
    expectUsageError(
      try rewind("html", journal, "--jobs", "0"),
      "The value '0' is invalid for '--jobs <n>': expected a number of jobs from 1 to 256",
      command: "html")
  }

  @Test("--timings says how long each step took on stderr; stdout and the page are the same")
  func timings() throws {
    let directory = TemporaryDirectory()
    let journal = directory.file("session.journal")
    let generated = try rewind("generate", "-o", journal, "--events", "30000", "--seed", "8")
    #expect(generated.status == 0, "\(generated.stderr)")
    for mode in [[], ["--json"], ["--jobs", "2"]] {
      let plain = try rewind(["html", journal, "-o", directory.file("plain.html")] + mode)
      let timed = try rewind(
        ["html", journal, "-o", directory.file("timed.html"), "--timings"] + mode)
      #expect(plain.status == 0 && timed.status == 0, "\(timed.stderr)")
      #expect(plain.stderr.isEmpty)
      #expect(
        timed.stdout == plain.stdout.replacingOccurrences(of: "plain.html", with: "timed.html"))
      let same = bytes(of: directory.file("timed.html")) == bytes(of: directory.file("plain.html"))
      #expect(same, "\(mode)")
      let lines = timed.stderr.split(separator: "\n").map(String.init)
      let steps = ["opening", "precomputation", "compression", "assembling", "writing", "total"]
      #expect(lines.count == steps.count, "\(timed.stderr)")
      var milliseconds: [Double] = []
      for (line, step) in zip(lines, steps) {
        let match = line.wholeMatch(of: /timing: ([a-z]+) ([0-9]+\.[0-9]{3}) ms \((.+)\)/)
        #expect(match?.output.1 == Substring(step), "\(line)")
        milliseconds.append(match.flatMap { Double($0.output.2) } ?? -1)
      }
      #expect(milliseconds.allSatisfy { $0 >= 0 }, "\(lines)")
      // The total is the steps' sum, each rounded to the microsecond.
      let sum = milliseconds.dropLast().reduce(0, +)
      #expect(abs((milliseconds.last ?? 0) - sum) <= 0.003, "\(lines)")
      let threads = mode == ["--jobs", "2"] ? "on up to 2 threads" : "on 1 thread"
      #expect(lines[1].contains("(30,000 events, "), "\(lines[1])")
      // Millions a second, or fewer (a debug build) said as the number itself.
      #expect(lines[1].contains(" events/s, \(threads): "), "\(lines[1])")
      try FileManager.default.removeItem(atPath: directory.file("plain.html"))
      try FileManager.default.removeItem(atPath: directory.file("timed.html"))
    }
  }
}
