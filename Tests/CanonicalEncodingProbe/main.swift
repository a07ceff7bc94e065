import RewindCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// The child process of the canonical-order test: encodes a value holding a set and a
// dictionary whose elements and keys are not comparable, built in this process, whose
// hash seed is its own. Prints three lines: the set's iteration order here (which differs
// from one process to the next), then the value's compact binary encoding in hex, then its
// JSON (which must not).
//
// Usage: canonical-encoding-probe

/// A tag: hashable, but not comparable.
struct Tag: Hashable, Codable {
  var name: String
}

/// A state with unordered collections of tags.
struct Tagged: Codable {
  var tags: Set<Tag>
  var counts: [Tag: Int]
}

let names = (0..<24).map { "tag-\($0)" }
let value = Tagged(
  tags: Set(names.map(Tag.init)),
  counts: Dictionary(uniqueKeysWithValues: names.enumerated().map { (Tag(name: $1), $0) }))
do {
  let bytes = try CompactBinaryEncoder().encode(value)
  let hex = "0123456789abcdef".map { $0 }
  print(value.tags.map(\.name).joined(separator: ","))
  print(String(bytes.flatMap { [hex[Int($0 >> 4)], hex[Int($0 & 15)]] }))
  print(try JSONValueEncoder().encode(value).compactText)
} catch {
  print("canonical-encoding-probe: \(error)")
  exit(1)
}
