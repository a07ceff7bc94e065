/// Recomputes every checksum of a journal's bytes, so that a fuzzer's changes reach the
/// parsers behind the checks: the interesting bugs are in files whose checksums are
/// right and whose contents are not (a writer's bug, a crafted file).
///
/// Walking the bytes as `FORMAT.md` lays them out, it recomputes:
/// - the `check32` that ends each Rewind metadata frame (header, header copy, frame
///   header, index, trailer, lost range, tags it does not know);
/// - in a frame header, `compressedChecksum`, the `check32` of the data frame after it;
/// - in that data frame, zstd's content checksum, when the frame's blocks are stored
///   (raw or RLE blocks, whose content is known without decompressing). The inputs of
///   ``FuzzTarget/journalChecksummed`` are journals whose frames are stored so
///   (``UncompressedFrames``).
///
/// Sizes, counts and offsets are left as they are: those are the fuzzer's to change.
package enum JournalChecksums {
  /// The content of one stored data frame that the fixer decodes, at most: the reader's
  /// limit on a frame's uncompressed size.
  static let maximumContentSize = 8 << 20

  /// `bytes` with their checksums recomputed.
  /// - Complexity: O(size of the bytes).
  package static func recomputed(_ input: [UInt8]) -> [UInt8] {
    var bytes = input
    var position = 0
    while position + 12 <= bytes.count {
      guard JournalBytes.u32(bytes, position) == JournalBytes.metadataMagic else {
        position += 1
        continue
      }
      let size = Int(JournalBytes.u32(bytes, position + 4))
      let end = position + 8 + size
      guard size >= 8, end <= bytes.count else {
        position += 1
        continue
      }
      var next = end
      let body = position + 12
      if JournalBytes.u32(bytes, position + 8) == JournalBytes.frameHeaderTag,
        body + JournalBytes.compressedChecksumOffset + 4 <= end - 4
      {
        let dataSize = Int(JournalBytes.u32(bytes, body + JournalBytes.compressedSizeOffset))
        if dataSize <= bytes.count - end {
          let data = end..<(end + dataSize)
          fixContentChecksum(&bytes, data)
          JournalBytes.put(
            JournalBytes.check32(bytes, data), &bytes, body + JournalBytes.compressedChecksumOffset)
          next = data.upperBound
        }
      }
      JournalBytes.sealMetadata(&bytes, from: position, to: end)
      position = next
    }
    return bytes
  }

  /// Recomputes the content checksum of the zstd frame that fills `range`, when its
  /// header asks for one and every block is raw or RLE.
  static func fixContentChecksum(_ bytes: inout [UInt8], _ range: Range<Int>) {
    guard range.count >= 6, JournalBytes.u32(bytes, range.lowerBound) == JournalBytes.zstdMagic
    else { return }
    var position = range.lowerBound + 4
    let descriptor = bytes[position]
    position += 1
    let contentSizeFlag = Int(descriptor >> 6)
    let singleSegment = descriptor & 0x20 != 0
    guard descriptor & 0x04 != 0 else { return }
    if !singleSegment { position += 1 }
    position += [0, 1, 2, 4][Int(descriptor & 0x03)]
    position += contentSizeFlag == 0 ? (singleSegment ? 1 : 0) : [0, 2, 4, 8][contentSizeFlag]
    var content: [UInt8] = []
    while true {
      guard position + 3 <= range.upperBound else { return }
      let header =
        Int(bytes[position]) | Int(bytes[position + 1]) << 8 | Int(bytes[position + 2]) << 16
      position += 3
      let size = header >> 3
      guard content.count + size <= maximumContentSize else { return }
      switch (header >> 1) & 0x3 {
      case 0:
        guard position + size <= range.upperBound else { return }
        content += bytes[position..<(position + size)]
        position += size
      case 1:
        guard position < range.upperBound else { return }
        content += repeatElement(bytes[position], count: size)
        position += 1
      default:
        // A compressed block: its content is not known without decompressing.
        return
      }
      if header & 1 == 1 { break }
    }
    guard position + 4 <= range.upperBound else { return }
    JournalBytes.put(JournalBytes.check32(content, content.indices), &bytes, position)
  }
}
