/// A set of catalog nodes as a bitset: the expanded items of the split view.
///
/// The first 64 nodes live in one inline word, so a set over a small catalog (the sample
/// has 28 nodes) never allocates; larger catalogs add one heap word per further 64 nodes,
/// sized once and then mutated in place. Membership tests and updates are O(1).
public struct NodeSet: Hashable, Sendable {
  /// Nodes 0..<64.
  @usableFromInline var low: UInt64
  /// Nodes from 64 on, 64 a word; nil for catalogs of at most 64 nodes, so that copying
  /// such a set touches no reference count.
  @usableFromInline var high: [UInt64]?

  /// An empty set able to hold nodes `0..<nodeCount`.
  public init(nodeCount: Int) {
    low = 0
    high = nodeCount > 64 ? [UInt64](repeating: 0, count: (nodeCount - 64 + 63) / 64) : nil
  }

  /// Whether two sets hold the same nodes (and have the same capacity). The inline word
  /// is compared first, so sets over small catalogs compare in one instruction.
  @inlinable @inline(__always)
  public static func == (lhs: NodeSet, rhs: NodeSet) -> Bool {
    guard lhs.low == rhs.low else { return false }
    if lhs.high == nil && rhs.high == nil { return true }
    return lhs.high == rhs.high
  }

  /// The number of nodes the set can hold.
  @inlinable public var capacity: Int { 64 + (high?.count ?? 0) * 64 }

  /// Whether `ref` is in the set; false for refs beyond the capacity.
  @inlinable public func contains(_ ref: NodeRef) -> Bool {
    let index = Int(ref.index)
    if index < 64 { return low & (1 << UInt64(index)) != 0 }
    let word = (index - 64) >> 6
    guard let high, word < high.count else { return false }
    return high[word] & (1 << UInt64(index & 63)) != 0
  }

  /// Adds `ref`.
  /// - Returns: whether it was not in the set before.
  /// - Precondition: `ref.index < capacity`.
  @inlinable @discardableResult public mutating func insert(_ ref: NodeRef) -> Bool {
    let index = Int(ref.index)
    if index < 64 {
      let bit: UInt64 = 1 << UInt64(index)
      defer { low |= bit }
      return low & bit == 0
    }
    let word = (index - 64) >> 6
    precondition(
      word < (high?.count ?? 0), "node \(index) is beyond the set's capacity \(capacity)")
    let bit: UInt64 = 1 << UInt64(index & 63)
    defer { high![word] |= bit }
    return high![word] & bit == 0
  }

  /// Removes `ref`.
  /// - Returns: whether it was in the set.
  @inlinable @discardableResult public mutating func remove(_ ref: NodeRef) -> Bool {
    let index = Int(ref.index)
    if index < 64 {
      let bit: UInt64 = 1 << UInt64(index)
      defer { low &= ~bit }
      return low & bit != 0
    }
    let word = (index - 64) >> 6
    guard word < (high?.count ?? 0) else { return false }
    let bit: UInt64 = 1 << UInt64(index & 63)
    defer { high![word] &= ~bit }
    return high![word] & bit != 0
  }

  /// Whether every node in the set is below `count` (a catalog's nodes).
  public func isWithin(_ count: Int) -> Bool {
    if count < 64, low >> UInt64(max(count, 0)) != 0 { return false }
    for (position, word) in (high ?? []).enumerated() where word != 0 {
      let base = 64 + position * 64
      // The bits of nodes `count` and up in this word.
      if base + 64 > count, word >> UInt64(max(count - base, 0)) != 0 { return false }
    }
    return true
  }

  /// The number of nodes in the set.
  public var count: Int {
    (high ?? []).reduce(low.nonzeroBitCount) { $0 + $1.nonzeroBitCount }
  }

  /// Whether the set is empty.
  public var isEmpty: Bool { low == 0 && (high ?? []).allSatisfy { $0 == 0 } }

  /// The nodes in the set, in ascending (catalog) order.
  public var refs: [NodeRef] {
    var result: [NodeRef] = []
    Self.appendBits(of: low, base: 0, to: &result)
    for (position, word) in (high ?? []).enumerated() {
      Self.appendBits(of: word, base: 64 + position * 64, to: &result)
    }
    return result
  }

  private static func appendBits(of word: UInt64, base: Int, to result: inout [NodeRef]) {
    var word = word
    while word != 0 {
      result.append(NodeRef(index: UInt32(base + word.trailingZeroBitCount)))
      word &= word - 1
    }
  }
}
