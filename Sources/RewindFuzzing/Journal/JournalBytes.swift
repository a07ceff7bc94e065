import RewindJournal

/// The constants of `FORMAT.md` the fuzzing tools need to find their way in a journal's
/// bytes, and little-endian access to them.
///
/// Written again from `FORMAT.md` rather than taken from `RewindJournal`, so that the
/// tools read a journal as an independent reader of the format would.
enum JournalBytes {
  /// The magic of every Rewind metadata frame (a zstd skippable frame).
  static let metadataMagic: UInt32 = 0x184D_2A5B
  /// The magic of a zstd data frame.
  static let zstdMagic: UInt32 = 0xFD2F_B528
  /// `RWFH`, `RWIX`, `RWTR`: the tags of a frame header, the index and the trailer.
  static let frameHeaderTag: UInt32 = 0x4846_5752
  static let indexTag: UInt32 = 0x5849_5752
  static let trailerTag: UInt32 = 0x5254_5752
  /// Where `compressedSize` and `compressedChecksum` are in a frame header's body.
  static let compressedSizeOffset = 36
  static let compressedChecksumOffset = 40
  /// The size of the trailer frame, and of an index entry.
  static let trailerSize = 36
  static let indexEntrySize = 48

  static func u32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
    (0..<4).reduce(0) { $0 | UInt32(bytes[offset + $1]) << (8 * $1) }
  }

  static func u64(_ bytes: [UInt8], _ offset: Int) -> UInt64 {
    (0..<8).reduce(0) { $0 | UInt64(bytes[offset + $1]) << (8 * $1) }
  }

  static func put<T: FixedWidthInteger>(_ value: T, _ bytes: inout [UInt8], _ offset: Int) {
    for index in 0..<(T.bitWidth / 8) {
      bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * index))
    }
  }

  /// `check32` of `FORMAT.md`: the low 32 bits of the XXH64 of `range` (also zstd's
  /// content checksum).
  static func check32(_ bytes: [UInt8], _ range: Range<Int>) -> UInt32 {
    bytes[range].withUnsafeBytes { UInt32(truncatingIfNeeded: XXH64.hash($0)) }
  }

  /// Recomputes the `check32` that ends the metadata frame at `start`, whose payload
  /// (tag, body, checksum) ends at `end`.
  static func sealMetadata(_ bytes: inout [UInt8], from start: Int, to end: Int) {
    put(check32(bytes, (start + 8)..<(end - 4)), &bytes, end - 4)
  }
}
