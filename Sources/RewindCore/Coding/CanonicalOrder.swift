// The standard library encodes a dictionary or a set in its iteration order, which changes
// from one process to the next (hashing is seeded per process). A state's encodings must
// be the same bytes on every run, so Rewind's coders look through these protocols and
// write dictionaries with comparable keys and sets of comparable elements sorted, and
// optionals with an explicit presence mark.

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

/// A dictionary whose keys can be sorted: its entries in key order.
protocol SortedEncodableMap {
  /// The entries in ascending key order; `name` is the key as text when the key is a
  /// string or an integer (what JSON can use as an object key).
  var sortedEntries: [(key: any Encodable, name: String?, value: any Encodable)] { get }
}

extension Dictionary: SortedEncodableMap where Key: Comparable & Encodable, Value: Encodable {
  var sortedEntries: [(key: any Encodable, name: String?, value: any Encodable)] {
    sorted { $0.key < $1.key }.map { key, value in
      let name = (key as? String) ?? (key as? any BinaryInteger).map { "\($0)" }
      return (key, name, value)
    }
  }
}

/// A set whose elements can be sorted: its elements in order.
protocol SortedEncodableSet {
  var sortedElements: [any Encodable] { get }
}

extension Set: SortedEncodableSet where Element: Comparable & Encodable {
  var sortedElements: [any Encodable] { sorted() }
}
