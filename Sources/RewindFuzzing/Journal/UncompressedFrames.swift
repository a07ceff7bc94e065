import RewindJournal

/// Rewrites a journal with its data frames stored without compression: each zstd frame
/// becomes a frame of raw blocks holding the same records, with its content size and
/// checksum, which every zstd decoder reads.
///
/// Such a journal is the seed of ``FuzzTarget/journalChecksummed``: a fuzzer that
/// changes its bytes changes records, payloads and snapshots directly, and
/// ``JournalChecksums`` makes the checksums agree again. The frame headers' sizes and
/// checksums, the index's entries and the trailer's offset are rewritten to match, so
/// that the journal reads exactly as before. Frames the reader cannot load (damage) and
/// every other byte are kept as they are; bytes that are no journal come back unchanged.
package enum UncompressedFrames {
  /// The largest block of a zstd frame.
  static let maximumBlockSize = 128 << 10

  package static func rewrite(_ input: [UInt8]) -> [UInt8] {
    let path = "seed.journal"
    var options = JournalReader.Options()
    options.system = .memory(input, at: path)
    guard let reader = try? JournalReader(path: path, options: options) else { return input }
    var output: [UInt8] = []
    var copied = 0
    // For each frame rewritten: its old offset, and its new offset and data size.
    var moved: [UInt64: (offset: Int, compressedSize: Int)] = [:]
    var shifts: [(from: Int, by: Int)] = []
    for (index, info) in reader.frames.enumerated() {
      // What the frame decompresses to: its records as rows or as columns (format 2).
      guard let content = try? reader.decompressedContent(ofFrame: index) else { continue }
      let stored = storedFrame(content)
      output += input[copied..<Int(info.dataOffset)]
      let headerStart = output.count - Int(info.headerSize)
      let headerEnd = output.count
      output += stored
      copied = Int(info.endOffset)
      let body = headerStart + 12
      JournalBytes.put(
        UInt32(stored.count), &output, body + JournalBytes.compressedSizeOffset)
      JournalBytes.put(
        JournalBytes.check32(output, headerEnd..<output.count), &output,
        body + JournalBytes.compressedChecksumOffset)
      JournalBytes.sealMetadata(&output, from: headerStart, to: headerEnd)
      moved[info.offset] = (headerStart, stored.count)
      shifts.append((Int(info.endOffset), stored.count - Int(info.compressedSize)))
    }
    output += input[copied...]
    if reader.condition.openedFromIndex {
      rewriteIndex(&output, moved: moved) { old in
        old + shifts.filter { $0.from <= old }.reduce(0) { $0 + $1.by }
      }
    }
    return output
  }

  /// A zstd frame of raw blocks holding `content`, with its content size and checksum.
  static func storedFrame(_ content: [UInt8]) -> [UInt8] {
    var frame: [UInt8] = []
    let count = content.count
    let start = frame.count
    frame += [0, 0, 0, 0]
    JournalBytes.put(JournalBytes.zstdMagic, &frame, start)
    // Single segment, content checksum; the content size in 1, 2 or 4 bytes.
    if count < 256 {
      frame += [0x24, UInt8(count)]
    } else if count < 65536 + 256 {
      frame += [0x64, 0, 0]
      JournalBytes.put(UInt16(count - 256), &frame, frame.count - 2)
    } else {
      frame += [0xA4, 0, 0, 0, 0]
      JournalBytes.put(UInt32(count), &frame, frame.count - 4)
    }
    var position = 0
    repeat {
      let size = min(maximumBlockSize, count - position)
      let last = position + size == count
      let header = UInt32(size) << 3 | (last ? 1 : 0)
      frame += [UInt8(header & 0xFF), UInt8(header >> 8 & 0xFF), UInt8(header >> 16)]
      frame += content[position..<(position + size)]
      position += size
    } while position < count
    frame += [0, 0, 0, 0]
    JournalBytes.put(
      JournalBytes.check32(content, content.indices), &frame, frame.count - 4)
    return frame
  }

  /// Points the index's entries and the trailer at the rewritten frames, and seals both
  /// again.
  static func rewriteIndex(
    _ bytes: inout [UInt8], moved: [UInt64: (offset: Int, compressedSize: Int)],
    newOffset: (Int) -> Int
  ) {
    let trailer = bytes.count - JournalBytes.trailerSize
    guard trailer >= 0, JournalBytes.u32(bytes, trailer) == JournalBytes.metadataMagic,
      JournalBytes.u32(bytes, trailer + 8) == JournalBytes.trailerTag
    else { return }
    let oldIndex = JournalBytes.u64(bytes, trailer + 12)
    guard oldIndex <= UInt64(Int.max) else { return }
    let index = newOffset(Int(oldIndex))
    guard index + 16 <= trailer, JournalBytes.u32(bytes, index) == JournalBytes.metadataMagic,
      JournalBytes.u32(bytes, index + 8) == JournalBytes.indexTag
    else { return }
    let end = index + 8 + Int(JournalBytes.u32(bytes, index + 4))
    let count = Int(JournalBytes.u32(bytes, index + 12))
    guard end <= trailer, index + 16 + count * JournalBytes.indexEntrySize <= end - 4 else {
      return
    }
    for entry in 0..<count {
      let at = index + 16 + entry * JournalBytes.indexEntrySize
      guard let frame = moved[JournalBytes.u64(bytes, at)] else { continue }
      JournalBytes.put(UInt64(frame.offset), &bytes, at)
      JournalBytes.put(UInt32(frame.compressedSize), &bytes, at + 12)
    }
    JournalBytes.sealMetadata(&bytes, from: index, to: end)
    JournalBytes.put(UInt64(index), &bytes, trailer + 12)
    JournalBytes.sealMetadata(&bytes, from: trailer, to: bytes.count)
  }
}
