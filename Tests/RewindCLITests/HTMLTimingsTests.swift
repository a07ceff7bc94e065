import Navigation
import TestSupport
import Testing

@testable import RewindCLI

@Suite("rewind html --timings")
struct HTMLTimingsTests {
  @Test("each step is a line: its name, milliseconds to the microsecond, and what it did")
  func lines() {
    let timings = HTMLTimings(
      events: 200_000, precomputationJobs: 1, compressionJobs: 2, opening: 412_345,
      precomputation: 27_134_499, compression: 40_300_500, assembling: 2_120_000,
      writing: 999_499, dataBytes: 22_334_455, compressedBytes: 1_234_567, pageBytes: 1_650_000)
    #expect(timings.total == 70_966_843)
    #expect(
      timings.lines() == [
        "timing: opening 0.412 ms (the journal's header and index)",
        "timing: precomputation 27.134 ms (200,000 events, 7.4 M events/s, on 1 thread: replaying the journal and writing the page's data, 21.3 MiB)",
        "timing: compression 40.301 ms (21.3 MiB to 1.2 MiB, on up to 2 threads)",
        "timing: assembling 2.120 ms (the page, 1.6 MiB)",
        "timing: writing 0.999 ms (the file written, synced and renamed)",
        "timing: total 70.967 ms (from the command's start, the process's start and exit aside)",
      ])
  }

  @Test("no events, no time: no rate to divide, and whole seconds keep their three decimals")
  func edges() {
    let timings = HTMLTimings(
      events: 0, precomputationJobs: 3, compressionJobs: 1, precomputation: 0,
      compression: 2_000_000_000)
    let lines = timings.lines(label: "T")
    #expect(
      lines[1]
        == "T precomputation 0.000 ms (0 events, 0 events/s, on up to 3 threads: replaying the journal and writing the page's data, 0 bytes)"
    )
    #expect(lines[2] == "T compression 2000.000 ms (0 bytes to 0 bytes, on 1 thread)")
  }

  @Test("in-process, each step timed by the command's clock; without the flag, nothing on stderr")
  func steps() throws {
    let tool = RewindTool.cli(domains: [NavigationDomain.self])
    let directory = TemporaryDirectory()
    let journal = journalsDirectory + "/iphone-compact.journal"
    let page = directory.file("page.html")
    // Every reading of the clock is a millisecond after the one before: a step between two
    // readings of the command's is one (the precomputation holds the progress bar's too).
    let clock = SteppingClock(step: 1_000_000)
    let timed = Context.capture(clock: clock.read)
    #expect(
      tool.run(arguments: ["html", journal, "-o", page, "--timings"], context: timed) == 0)
    let lines = timed.stderr.text.split(separator: "\n").map(String.init)
    #expect(lines.count == 6, "\(timed.stderr.text)")
    let precomputation = clock.readings - 5
    #expect(precomputation >= 1)
    let expected = [
      "opening 1.000", "precomputation \(precomputation).000", "compression 1.000",
      "assembling 1.000", "writing 1.000", "total \(precomputation + 4).000",
    ]
    for (line, step) in zip(lines, expected) {
      #expect(line.hasPrefix("timing: \(step) ms ("), "\(line)")
    }
    // Below a million a second, the number itself (it read `0.0 M events/s`).
    let rate = Int((20_000 / Double(precomputation)).rounded())
    let grouped =
      rate >= 1_000 ? "\(rate / 1_000),\(String(rate % 1_000 + 1_000).dropFirst())" : "\(rate)"
    #expect(lines[1].contains("(20 events, \(grouped) events/s, on 1 thread: "), "\(lines[1])")

    let plain = Context.capture(clock: clock.read)
    #expect(
      tool.run(arguments: ["html", journal, "-o", page, "--force"], context: plain) == 0)
    #expect(plain.stderr.text.isEmpty)
    #expect(plain.stdout.text == timed.stdout.text)
  }
}
