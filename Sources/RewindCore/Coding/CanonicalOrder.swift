// The standard library encodes a dictionary or a set in its iteration order, which changes
// from one process to the next (hashing is seeded per process), and even between two equal
// sets of one process built in another order or with another capacity. A state's encodings
// must be the same bytes on every run, so Rewind's coders look through these protocols:
// they write a dictionary with comparable keys and a set of comparable elements sorted by
// value, any other dictionary or set in the order of its entries' compact binary encodings,
// and optionals with an explicit presence mark.

import RewindJournal

/// An `Optional` seen without its type: its wrapped value, if any.
protocol EncodableOptional {
  var wrappedEncodable: (any Encodable)? { get }
}

extension Optional: EncodableOptional where Wrapped: Encodable {
  var wrappedEncodable: (any Encodable)? {
    switch self {
    case .none: nil
    case .some(let wrapped): wrapped
    }
  }
}

/// Any dictionary that can be encoded: its entries in its own (unstable) order. The coders
/// look for this first, then for ``SortedEncodableMap``, so that a value that is no
/// dictionary costs one failed cast.
protocol EncodableMap {
  var unorderedEntries: [(key: any Encodable, value: any Encodable)] { get }
}

extension Dictionary: EncodableMap where Key: Encodable, Value: Encodable {
  var unorderedEntries: [(key: any Encodable, value: any Encodable)] {
    map { ($0.key, $0.value) }
  }
}

/// A dictionary key as text when the standard library writes the dictionary as a keyed
/// container (an object's member in JSON, which it reads only from one): a string, an
/// integer or a `CodingKeyRepresentable` key (an enum of strings); nil for another.
func memberName(of key: any Encodable) -> String? {
  (key as? String) ?? (key as? any BinaryInteger).map { "\($0)" }
    ?? (key as? any CodingKeyRepresentable)?.codingKey.stringValue
}

/// A dictionary whose keys can be sorted: its entries in key order.
protocol SortedEncodableMap {
  /// The entries in ascending key order.
  var sortedEntries: [(key: any Encodable, value: any Encodable)] { get }
}

extension Dictionary: SortedEncodableMap where Key: Comparable & Encodable, Value: Encodable {
  var sortedEntries: [(key: any Encodable, value: any Encodable)] {
    sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
  }
}

/// Any set that can be encoded: its elements in its own (unstable) order. The coders look
/// for this first, then for ``SortedEncodableSet``.
protocol EncodableSet {
  var unorderedElements: [any Encodable] { get }
}

extension Set: EncodableSet where Element: Encodable {
  var unorderedElements: [any Encodable] { map { $0 } }
}

/// A set whose elements can be sorted: its elements in order.
protocol SortedEncodableSet {
  var sortedElements: [any Encodable] { get }
}

extension Set: SortedEncodableSet where Element: Comparable & Encodable {
  var sortedElements: [any Encodable] { sorted() }
}

/// The canonical order of the elements of a set that cannot be sorted by value, or of the
/// entries of a dictionary whose keys cannot: each one's compact binary encoding (a
/// dictionary's entry is its key's encoding followed by its value's), in ascending order
/// of those bytes, compared byte by byte. Equal values encode to equal bytes in every
/// process, so the order is the same in every process whatever the order of insertion.
///
/// - Parameter parts: what is encoded, in order, for each item: the element, or the key
///   and the value.
/// - Returns: the items with their encodings, in the canonical order.
/// - Throws: whatever an element's own `encode(to:)` throws.
/// - Complexity: O(n log n) comparisons of encodings, and one encoding of each item.
func inEncodingOrder<Item>(_ items: [Item], encoding parts: (Item) -> [any Encodable]) throws
  -> [(item: Item, bytes: [UInt8])]
{
  var encoded: [(item: Item, bytes: [UInt8])] = []
  encoded.reserveCapacity(items.count)
  for item in items {
    let encoding = CompactEncoding()
    for part in parts(item) { try encoding.encode(part) }
    var writer = ByteWriter()
    encoding.finish(into: &writer)
    encoded.append((item, writer.bytes))
  }
  encoded.sort { $0.bytes.lexicographicallyPrecedes($1.bytes) }
  return encoded
}
