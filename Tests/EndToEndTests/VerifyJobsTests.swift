import Foundation
import RewindJournal
import TestSupport
import Testing

/// `verify --deep --jobs`: the storage check and the content's in one pass, a long
/// journal in parts on threads, printing byte for byte what one thread prints.
@Suite("verify --deep on several threads")
struct VerifyJobsTests {
  @Test(
    "verify --deep prints the same bytes with --jobs 1, 2, 3 and 4, on a random journal and damaged copies"
  )
  func jobsDoNotChangeOutput() throws {
    let seed = testSeed("verifyJobsDoNotChangeOutput") % 1_000_000
    var random = SplitMix64(seed: seed)
    let directory = TemporaryDirectory()
    let journal = directory.file("random.journal")
    // Long enough for four parts of at least 65,536 events.
    let generated = try rewind(
      "generate", "-o", journal, "--events", "270000", "--seed", "\(seed)")
    #expect(generated.status == 0, "\(generated.stderr)")
    let frames = try JournalReader(path: journal).frames
    let original = bytes(of: journal)
    var copies = [journal]
    for index in 0..<6 {
      var damaged = original
      switch index % 3 {
      case 0:
        // A few bits flipped in the frames.
        for _ in 0..<Int.random(in: 1...3, using: &random) {
          let bit = Int.random(
            in: Int(frames[0].offset) * 8..<Int(frames.last!.endOffset) * 8, using: &random)
          damaged[bit / 8] ^= UInt8(1 << (bit % 8))
        }
      case 1:
        // Cut short inside a frame.
        let frame = frames[Int.random(in: 1..<frames.count, using: &random)]
        damaged.removeLast(damaged.count - Int(frame.offset + frame.endOffset) / 2)
      default:
        // Two frames swapped.
        let first = Int.random(in: 0..<(frames.count - 1), using: &random)
        let second = Int.random(in: (first + 1)..<frames.count, using: &random)
        let a = Int(frames[first].offset)..<Int(frames[first].endOffset)
        let b = Int(frames[second].offset)..<Int(frames[second].endOffset)
        damaged =
          Array(original[..<a.lowerBound]) + original[b] + original[a.upperBound..<b.lowerBound]
          + original[a] + original[b.upperBound...]
      }
      let path = directory.file("damaged-\(index).journal")
      write(damaged, to: path)
      copies.append(path)
    }
    for (index, path) in copies.enumerated() {
      for options in [["--deep"], ["--deep", "--json"]] {
        let one = try rewind(["verify", path] + options + ["--jobs", "1"])
        #expect(one.status == (index == 0 ? 0 : 1), "seed \(seed): \(path): \(one.stdout)")
        for jobs in ["2", "3", "4"] {
          let many = try rewind(["verify", path] + options + ["--jobs", jobs])
          #expect(many.stdout == one.stdout, "seed \(seed): \(path) \(options) --jobs \(jobs)")
          #expect(many.stderr == one.stderr)
          #expect(many.status == one.status)
        }
      }
    }
  }

  @Test("verify --jobs takes 1 to 256 jobs")
  func jobsRange() throws {
    for value in ["0", "257", "many"] {
      let result = try rewind("verify", sample("day-menu.journal"), "--deep", "--jobs", value)
      #expect(result.status == 64)
      #expect(result.stderr.contains("expected a number of jobs from 1 to 256"))
    }
  }
}
