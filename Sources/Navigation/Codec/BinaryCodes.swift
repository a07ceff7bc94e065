public import RewindJournal

// The one-byte codes of the small enums in the binary encodings. They are part of the
// journal format (see the BinaryEncoding article): never renumber them.

extension ColumnVisibility {
  /// 0 automatic, 1 all, 2 doubleColumn, 3 detailOnly.
  @inlinable var code: UInt8 {
    switch self {
    case .automatic: 0
    case .all: 1
    case .doubleColumn: 2
    case .detailOnly: 3
    }
  }

  @inlinable init?(code: UInt8) {
    switch code {
    case 0: self = .automatic
    case 1: self = .all
    case 2: self = .doubleColumn
    case 3: self = .detailOnly
    default: return nil
    }
  }
}

extension SplitStyle {
  /// 0 automatic, 1 balanced, 2 prominentDetail.
  @inlinable var code: UInt8 {
    switch self {
    case .automatic: 0
    case .balanced: 1
    case .prominentDetail: 2
    }
  }

  @inlinable init?(code: UInt8) {
    switch code {
    case 0: self = .automatic
    case 1: self = .balanced
    case 2: self = .prominentDetail
    default: return nil
    }
  }
}

extension SizeClass {
  /// 0 regular, 1 compact.
  @inlinable var code: UInt8 { self == .regular ? 0 : 1 }

  @inlinable init?(code: UInt8) {
    switch code {
    case 0: self = .regular
    case 1: self = .compact
    default: return nil
    }
  }
}

extension Orientation {
  /// 0 landscape, 1 portrait.
  @inlinable var code: UInt8 { self == .landscape ? 0 : 1 }

  @inlinable init?(code: UInt8) {
    switch code {
    case 0: self = .landscape
    case 1: self = .portrait
    default: return nil
    }
  }
}

extension Column {
  /// 0 sidebar, 1 content, 2 detail.
  @inlinable var code: UInt8 {
    switch self {
    case .sidebar: 0
    case .content: 1
    case .detail: 2
    }
  }

  @inlinable init?(code: UInt8) {
    switch code {
    case 0: self = .sidebar
    case 1: self = .content
    case 2: self = .detail
    default: return nil
    }
  }
}

/// Scroll offsets and viewport widths in sixths of a point: the pixel grid of both 2x and
/// 3x screens, so the offsets UIs produce are small integers in this unit.
@usableFromInline enum ScrollOffsetCoding {
  /// 2^53: every integer below it is exact as a Double.
  @usableFromInline static let sixthsLimit: UInt64 = 1 << 53

  /// `n` such that `Double(n) / 6.0` is bit for bit `offset`, with `n < 2^53`; nil when
  /// there is none (fractions off the grid, negative numbers, `-0.0`, NaN, infinities).
  @inlinable @inline(__always)
  static func sixths(of offset: Double) -> UInt64? {
    let scaled = offset * 6
    guard scaled >= 0, scaled < 9_007_199_254_740_992 else { return nil }
    // Nearest integer by truncating `scaled + 0.5` (one conversion instruction; `rounded()`
    // is a libm call). From 2^52 on every double is an integer and adding 0.5 could round.
    // Signed conversions: one instruction each way, where unsigned ones take several.
    let sixths = scaled < 4_503_599_627_370_496 ? Int64(scaled + 0.5) : Int64(scaled)
    guard (Double(sixths) / 6).bitPattern == offset.bitPattern else { return nil }
    return UInt64(bitPattern: sixths)
  }

  /// The offset `sixths / 6`.
  /// - Precondition: `sixths < 2^53`, which decoders check first.
  @inlinable static func offset(sixths: UInt64) -> Double {
    Double(Int64(bitPattern: sixths)) / 6
  }
}

/// Builds the codec errors of this module, out of line so the inlined decoders stay small.
@usableFromInline enum NavigationCodecErrors {
  @usableFromInline static func unknownTag(_ tag: UInt8, at offset: Int) -> CodecError {
    CodecError(.invalidValue, "unknown navigation event tag 0x\(hex(tag))", at: offset)
  }

  @usableFromInline static func notInSchema1(_ tag: UInt8, at offset: Int) -> CodecError {
    CodecError(
      .invalidValue,
      "navigation event tag 0x\(hex(tag)) is an event of schema 2, in a journal of schema 1",
      at: offset)
  }

  @usableFromInline static func badEnumByte(_ byte: UInt8, _ what: String, at offset: Int)
    -> CodecError
  {
    CodecError(.invalidValue, "byte 0x\(hex(byte)) is not a \(what)", at: offset)
  }

  @usableFromInline static func refOutOfRange(_ value: UInt64, nodeCount: Int, at offset: Int)
    -> CodecError
  {
    CodecError(
      .invalidValue,
      "node ref \(value) is beyond the catalog's \(nodeCount) nodes (refs are index + 1)",
      at: offset)
  }

  @usableFromInline static func sixthsTooLarge(_ value: UInt64, at offset: Int) -> CodecError {
    CodecError(.invalidValue, "scroll offset \(value)/6 is not below 2^53 sixths", at: offset)
  }

  @usableFromInline static func indexTooLarge(_ value: Int64, at offset: Int) -> CodecError {
    CodecError(.invalidValue, "tab index \(value) does not fit this platform's Int", at: offset)
  }

  private static func hex(_ byte: UInt8) -> String {
    let digits = String(byte, radix: 16, uppercase: true)
    return byte < 16 ? "0" + digits : digits
  }
}
