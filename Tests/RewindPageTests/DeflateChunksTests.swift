import Foundation
import Synchronization
import TestSupport
import Testing

@testable import RewindPage

/// Page-like text: JSON Lines words and now and then a random byte, `count` bytes.
private func pageText(_ count: Int, _ random: inout SplitMix64) -> [UInt8] {
  let words = [
    #"{"seq":"#, #","time_us":"#, #","event":"menuScrolled","offset":"#, "6.333333333333333",
    #","outcome":"applied"}"#, "\n", "[2,", "]", "grinders/vulcano", "0.1", "é",
  ].map { Array($0.utf8) }
  var text: [UInt8] = []
  text.reserveCapacity(count + 64)
  while text.count < count {
    if random.next() % 16 == 0 {
      text.append(UInt8(truncatingIfNeeded: random.next()))
    } else {
      text += words[Int(random.next() % UInt64(words.count))]
    }
  }
  return Array(text.prefix(count))
}

private func noise(_ count: Int, _ random: inout SplitMix64) -> [UInt8] {
  (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
}

@Suite("Deflate in chunks: one stream, the same bytes on any number of threads")
struct DeflateChunksTests {
  @Test(
    "inputs of 0, 1, a chunk less one, a chunk, a chunk and one and several chunks: gzip inflates them, and 1, 2 and 3 jobs write the same bytes"
  )
  func chunkSizes() throws {
    let directory = TemporaryDirectory()
    let seed = testSeed("DeflateChunksTests.chunkSizes")
    var random = SplitMix64(seed: seed)
    let chunk = Deflate.chunkSize
    for size in [0, 1, chunk - 1, chunk, chunk + 1, 3 * chunk + 12_345] {
      let kinds: [(String, [UInt8])] = [
        ("text", pageText(size, &random)), ("noise", noise(size, &random)),
        ("zeros", [UInt8](repeating: 0, count: size)),
      ]
      for (kind, input) in kinds {
        let one = Deflate.compress(input, jobs: 1)
        for jobs in [2, 3] {
          let same = Deflate.compress(input, jobs: jobs) == one
          #expect(same, "seed \(seed): \(kind) of \(size) bytes, \(jobs) jobs")
        }
        #expect(try gunzip(one, original: input, in: directory) == input, "seed \(seed): \(kind)")
        if size <= chunk {
          // One chunk: the stream one pass writes.
          let onePass = ReferenceDeflate.compress(input, rule: .module)
          #expect(one == onePass, "seed \(seed): \(kind) of \(size) bytes")
        }
      }
    }
  }

  @Test("small chunks, down to one byte: gzip inflates them, whatever the jobs")
  func smallChunks() throws {
    let directory = TemporaryDirectory()
    let seed = testSeed("DeflateChunksTests.smallChunks")
    var random = SplitMix64(seed: seed)
    let inputs = [
      pageText(300, &random), pageText(100_000, &random), noise(5_000, &random),
      pageText(40_000, &random) + noise(30_000, &random) + pageText(50_000, &random),
    ]
    for input in inputs {
      for chunkSize in [1, 7, 1_000, 32_767, 32_768, 40_000] where input.count / chunkSize < 500 {
        let one = Deflate.compress(input, chunkSize: chunkSize, jobs: 1)
        #expect(
          try gunzip(one, original: input, in: directory) == input,
          "seed \(seed): \(input.count) bytes in chunks of \(chunkSize)")
        for jobs in [2, 3] {
          let same = Deflate.compress(input, chunkSize: chunkSize, jobs: jobs) == one
          #expect(same, "seed \(seed): \(input.count) bytes, chunks of \(chunkSize), \(jobs) jobs")
        }
      }
    }
  }

  @Test("a chunk's matches reach back into the chunk before it: a repeated block costs once")
  func matchesAcrossChunks() throws {
    let directory = TemporaryDirectory()
    let seed = testSeed("DeflateChunksTests.matchesAcrossChunks")
    var random = SplitMix64(seed: seed)
    // Each chunk repeats the one before it (20,000 bytes back), or the one before that
    // (30,000 back, across a whole chunk and into the one before), and noise does not
    // compress: every chunk after the first is a few long matches into its dictionary.
    for (block, chunkSize) in [(20_000, 20_000), (30_000, 15_000)] {
      let pattern = noise(block, &random)
      let input = Array([[UInt8]](repeating: pattern, count: 6).joined())
      let deflated = Deflate.compress(input, chunkSize: chunkSize, jobs: 2)
      #expect(try gunzip(deflated, original: input, in: directory) == input, "seed \(seed)")
      #expect(
        deflated.count < block + block / 10,
        "seed \(seed): \(input.count) bytes of a \(block)-byte block in \(deflated.count)")
    }
  }

  @Test(
    "every chunk but the last ends on a whole byte with an empty stored block; only the last block of the last chunk is final"
  )
  func chunkEnds() throws {
    let directory = TemporaryDirectory()
    var random = SplitMix64(seed: testSeed("DeflateChunksTests.chunkEnds"))
    let input = pageText(90_000, &random)
    let chunkSize = 40_000
    let stream = Deflate.compress(input, chunkSize: chunkSize)
    var joined: [UInt8] = []
    input.withUnsafeBufferPointer { bytes in
      for (start, end) in [(0, 40_000), (40_000, 80_000), (80_000, 90_000)] {
        let dictionary = max(start - Deflate.windowSize, 0)
        let chunk = Deflate.compressChunk(
          UnsafeBufferPointer(rebasing: bytes[dictionary..<end]), from: start - dictionary,
          last: end == input.count)
        if end < input.count {
          #expect(Array(chunk.suffix(4)) == [0, 0, 0xFF, 0xFF])
        }
        joined += chunk
      }
    }
    #expect(joined == stream)
    // Each non-final chunk alone, with a final empty stored block after it, inflates to
    // its bytes: its blocks are not final, and it ends on a whole byte.
    let firstChunk = input.withUnsafeBufferPointer { bytes in
      Deflate.compressChunk(
        UnsafeBufferPointer(rebasing: bytes[0..<chunkSize]), from: 0, last: false)
    }
    let closed = firstChunk + [1, 0, 0, 0xFF, 0xFF]
    #expect(
      try gunzip(closed, original: Array(input.prefix(chunkSize)), in: directory)
        == Array(input.prefix(chunkSize)))
  }

  /// Bounded, for a chunk size of 0 that looped instead of trapping; with room for a
  /// full suite's load, when the child starts late and its end is heard late (one minute
  /// ran out at a load of 9).
  @Test("a chunk size below one byte traps", .timeLimit(.minutes(3)))
  func chunkSizeTraps() async {
    await #expect(processExitsWith: .failure) {
      _ = Deflate.compress([1, 2, 3], chunkSize: 0)
    }
  }
}

@Suite("ChunkThreads: work on a few threads, results in order")
struct ChunkThreadsTests {
  @Test("the results come in the items' order, for any count and jobs")
  func order() {
    for count in [0, 1, 2, 5, 100] {
      for jobs in 1...4 {
        let results = ChunkThreads.map(count, jobs: jobs) { $0 * $0 }
        #expect(results == (0..<count).map { $0 * $0 }, "\(count) items, \(jobs) jobs")
      }
    }
  }

  @Test("with two jobs two items run at once; with one, one at a time on the calling thread")
  func concurrency() {
    // Item 0 waits (at most 10 s) for item 1 to start: only a second thread starts it.
    func run(jobs: Int) -> [Bool] {
      let started = Atomic<Int>(0)
      return ChunkThreads.map(2, jobs: jobs) { index in
        started.add(1, ordering: .relaxed)
        guard index == 0 else { return true }
        for _ in 0..<1_000 {
          if started.load(ordering: .relaxed) == 2 { return true }
          usleep(10_000)
        }
        return false
      }
    }
    #expect(run(jobs: 2) == [true, true])
    let caller = pthread_self()
    let threads = ChunkThreads.map(3, jobs: 1) { _ in pthread_self() }
    #expect(threads == [caller, caller, caller])
  }
}
