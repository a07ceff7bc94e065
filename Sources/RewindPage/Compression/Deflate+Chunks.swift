/// The page's data compressed in chunks of a fixed size on several threads, as pigz does:
/// one DEFLATE stream, the same bytes whatever the number of threads.
extension Deflate {
  /// The input bytes of one chunk: each chunk is compressed on its own (on any thread)
  /// with the window before it as its dictionary. On the page of 200,000 events (3.7 MB of
  /// data, 15 chunks) 256 KiB chunks cost 3 % more instructions than one pass (each
  /// chunk's dictionary put in its matcher) and write 0.2 % fewer bytes (a chunk's last
  /// block, cut short, gets codes of its own); 512 KiB chunks share the work of two
  /// threads less evenly, 128 KiB ones cost twice the instructions (BENCHMARKS.md).
  package static let chunkSize = 1 << 18

  /// Compresses `input` as one raw DEFLATE stream (no zlib or gzip wrapper), in chunks of
  /// `chunkSize` bytes compressed on up to `jobs` threads.
  ///
  /// The stream is the same bytes for any `jobs`: the chunks are cut by size, and each
  /// chunk's matcher starts from the window before it (its preset dictionary), so matches
  /// reach back across a chunk's start as in one pass. A chunk other than the last ends
  /// with an empty stored block (on a whole byte, as zlib's sync flush does), so the
  /// chunks' bytes are joined as they are; only the last chunk's last block is final. An
  /// input of at most `chunkSize` bytes is one chunk: the stream one pass writes.
  ///
  /// ```swift
  /// let compressed = Deflate.compress(payload, jobs: 2)
  /// ```
  /// - Parameters:
  ///   - chunkSize: the input bytes of a chunk, at least one.
  ///   - jobs: the threads that compress chunks at once; the calling thread is one of
  ///     them.
  /// - Complexity: O(n · ``maximumChain``) at worst, about O(n) for text, divided among
  ///   the jobs; each chunk's dictionary adds a window's insertions. Memory: the input,
  ///   the output, and a matcher (256 KiB) and a chunk's output a job.
  package static func compress(_ input: [UInt8], chunkSize: Int = chunkSize, jobs: Int = 1)
    -> [UInt8]
  {
    input.withUnsafeBytes { compress($0, chunkSize: chunkSize, jobs: jobs) }
  }

  /// ``compress(_:chunkSize:jobs:)-([UInt8],_,_)`` of the bytes `input`, which stay valid
  /// and unchanged until it returns (the threads it starts end before).
  package static func compress(
    _ input: UnsafeRawBufferPointer, chunkSize: Int = chunkSize, jobs: Int = 1
  ) -> [UInt8] {
    precondition(chunkSize > 0, "a chunk holds at least one byte")
    let chunks = input.isEmpty ? 1 : (input.count - 1) / chunkSize + 1
    let shared = SharedBytes(input.assumingMemoryBound(to: UInt8.self))
    let compressed = ChunkThreads.map(chunks, jobs: jobs) { chunk in
      let start = chunk * chunkSize
      let end = min(start + chunkSize, shared.bytes.count)
      let dictionary = max(start - windowSize, 0)
      return compressChunk(
        UnsafeBufferPointer(rebasing: shared.bytes[dictionary..<end]), from: start - dictionary,
        last: chunk == chunks - 1)
    }
    guard compressed.count > 1 else { return compressed[0] }
    var stream: [UInt8] = []
    stream.reserveCapacity(compressed.reduce(0) { $0 + $1.count })
    for chunk in compressed { stream += chunk }
    return stream
  }
}

/// Bytes that the threads of ``Deflate/compress(_:chunkSize:jobs:)-(UnsafeRawBufferPointer,_,_)``
/// read, which stay valid and unchanged while they run.
private struct SharedBytes: @unchecked Sendable {
  let bytes: UnsafeBufferPointer<UInt8>

  init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }
}
