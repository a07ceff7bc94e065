import Foundation
import RewindCore
import RewindJournal
import TestSupport
import Testing

/// A tag: hashable, but not comparable, as an app's own types often are.
private struct Tag: Hashable, Codable {
  var name: String
}

/// A colour that names an object's member (`CodingKeyRepresentable`) but is not comparable.
private enum Colour: String, Hashable, Codable, CodingKeyRepresentable {
  case red, blue, green
}

/// A size that names an object's member and is comparable: a dictionary keyed by it is
/// written in key order, as an object.
private enum Size: String, Comparable, Codable, CodingKeyRepresentable {
  case small, large
  static func < (left: Size, right: Size) -> Bool { left.rawValue < right.rawValue }
}

/// A state with unordered collections of values that are not comparable.
private struct Tagged: Codable, Equatable {
  var tags: Set<Tag>
  var counts: [Tag: Int]
  var colours: [Colour: Int]
}

@Suite("Sets and dictionaries of values that are not comparable encode in one order")
struct UnorderedCollectionTests {
  let encoder = CompactBinaryEncoder()
  let decoder = CompactBinaryDecoder()
  let jsonEncoder = JSONValueEncoder()
  let jsonDecoder = JSONValueDecoder()

  /// The same 40 tags, as sets built in different orders and with different capacities,
  /// so that their iteration orders differ although the sets are equal.
  private func equalSets(seed: UInt64) -> [Set<Tag>] {
    let tags = (0..<40).map { Tag(name: "tag-\($0)") }
    var random = SplitMix64(seed: seed)
    var sets: [Set<Tag>] = [Set(tags), Set(tags.reversed()), Set(tags.shuffled(using: &random))]
    for capacity in [40, 64, 300, 5_000] {
      var set = Set<Tag>(minimumCapacity: capacity)
      for tag in tags.shuffled(using: &random) { set.insert(tag) }
      sets.append(set)
    }
    // A set that grew past the size of its final contents and shrank again.
    var grown = Set(tags + (0..<500).map { Tag(name: "gone-\($0)") })
    for index in 0..<500 { grown.remove(Tag(name: "gone-\(index)")) }
    sets.append(grown)
    return sets
  }

  private func tagged(_ tags: Set<Tag>) -> Tagged {
    var counts: [Tag: Int] = Dictionary(minimumCapacity: tags.count)
    var colours: [Colour: Int] = Dictionary(minimumCapacity: tags.count)
    for (index, tag) in tags.enumerated() {
      counts[tag] = tag.name.count
      colours[[Colour.red, .blue, .green][index % 3], default: 0] += 1
    }
    return Tagged(tags: tags, counts: counts, colours: colours)
  }

  @Test("equal sets and dictionaries iterated in different orders give the same bytes and JSON")
  func sameBytes() throws {
    let seed = testSeed("unorderedSameBytes")
    let sets = equalSets(seed: seed)
    // The test can fail: the sets do iterate in different orders.
    let orders = Set(sets.map { $0.map(\.name) })
    #expect(orders.count > 1, "seed \(seed): every set iterates in one order")
    let counts = sets.map { tagged($0).counts }
    #expect(Set(counts.map { $0.keys.map(\.name) }).count > 1, "seed \(seed)")

    let values = sets.map(tagged)
    let bytes = try values.map { try encoder.encode($0) }
    let json = try values.map { try jsonEncoder.encode($0).compactText }
    for index in values.indices.dropFirst() {
      #expect(values[index] == values[0])
      #expect(bytes[index] == bytes[0], "seed \(seed): set \(index) encodes to other bytes")
      #expect(json[index] == json[0], "seed \(seed): set \(index) has other JSON")
    }
    #expect(try decoder.decode(Tagged.self, from: bytes[0]) == values[0])
    #expect(try jsonDecoder.decode(Tagged.self, from: JSONValue(parsing: json[0])) == values[0])
  }

  @Test("the order is that of the encodings, byte by byte, in binary and JSON alike")
  func encodingOrder() throws {
    // A string encodes as its length, then its bytes: shorter ones first.
    let tags: Set<Tag> = [Tag(name: "bb"), Tag(name: "c"), Tag(name: "a")]
    #expect(try encoder.encode(tags) == [3, 1, 0x61, 1, 0x63, 2, 0x62, 0x62])
    #expect(
      try jsonEncoder.encode(tags).compactText == #"[{"name":"a"},{"name":"c"},{"name":"bb"}]"#)
    // A dictionary keeps the standard library's form, keys and values in turn, counted
    // together; its entries in the order of their keys' encodings.
    let counts: [Tag: Int] = [Tag(name: "b"): 1, Tag(name: "a"): 2]
    #expect(try encoder.encode(counts) == [4, 1, 0x61, 4, 1, 0x62, 2])
    #expect(try jsonEncoder.encode(counts).compactText == #"[{"name":"a"},2,{"name":"b"},1]"#)
    // Keys that name an object's members make an object, in the same order.
    let colours: [Colour: Int] = [.blue: 1, .red: 2, .green: 3]
    #expect(try jsonEncoder.encode(colours).compactText == #"{"red":2,"blue":1,"green":3}"#)
    #expect(
      try encoder.encode(colours) == [6, 3] + Array("red".utf8) + [4, 4] + Array("blue".utf8) + [
        2, 5,
      ] + Array("green".utf8) + [6])
    #expect(try decoder.decode([Colour: Int].self, from: encoder.encode(colours)) == colours)
    #expect(
      try jsonDecoder.decode([Colour: Int].self, from: jsonEncoder.encode(colours)) == colours)
    let empty: [Colour: Int] = [:]
    #expect(try jsonEncoder.encode(empty).compactText == "{}")
    #expect(try jsonDecoder.decode([Colour: Int].self, from: jsonEncoder.encode(empty)) == empty)
  }

  @Test("bytes in another order, as written before the order was canonical, still decode")
  func earlierBytes() throws {
    let counts: [Tag: Int] = [Tag(name: "b"): 1, Tag(name: "a"): 2]
    #expect(try decoder.decode([Tag: Int].self, from: [4, 1, 0x62, 2, 1, 0x61, 4]) == counts)
    let tags: Set<Tag> = [Tag(name: "b"), Tag(name: "a")]
    #expect(try decoder.decode(Set<Tag>.self, from: [2, 1, 0x62, 1, 0x61]) == tags)
    #expect(
      throws: CodecError(
        .invalidValue,
        "a dictionary whose keys are not comparable holds its keys and values in turn, an even count of them, not 3",
        at: 0)
    ) {
      try decoder.decode([Tag: Int].self, from: [3, 1, 0x62, 2, 1, 0x61])
    }
    // An element that is not comparable, twice: taken once, as the standard library's
    // decoding took it (unequal elements may encode alike), where a comparable one is
    // refused.
    #expect(try decoder.decode(Set<Tag>.self, from: [2, 1, 0x62, 1, 0x62]) == [Tag(name: "b")])
    #expect(throws: CodecError(.invalidValue, "a set element appears twice", at: 3)) {
      try decoder.decode(Set<String>.self, from: [2, 1, 0x62, 1, 0x62])
    }
  }

  @Test("a dictionary keyed by a comparable enum of strings is an object in JSON, and reads back")
  func comparableCodingKeys() throws {
    let sizes: [Size: Int] = [.small: 1, .large: 2]
    let json = try jsonEncoder.encode(sizes)
    // As the standard library writes it (a keyed container), and reads it only from one.
    #expect(json.compactText == #"{"large":2,"small":1}"#)
    #expect(try jsonDecoder.decode([Size: Int].self, from: json) == sizes)
    #expect(try decoder.decode([Size: Int].self, from: encoder.encode(sizes)) == sizes)
  }

  @Test("processes with different hash seeds write the same bytes and JSON")
  func acrossProcesses() throws {
    let probe = productsDirectory + "/CanonicalEncodingProbe"
    var environment = ProcessInfo.processInfo.environment
    environment["SWIFT_DETERMINISTIC_HASHING"] = nil
    let runs = try (0..<4).map { _ in try run(probe, [], environment: environment) }
    for result in runs { #expect(result.status == 0, "\(result.stdout)\(result.stderr)") }
    let lines = runs.map { $0.stdout.split(separator: "\n").map(String.init) }
    try #require(lines.allSatisfy { $0.count == 3 })
    // The test can fail: the processes do iterate the set in different orders.
    #expect(Set(lines.map { $0[0] }).count > 1, "every process iterates the set in one order")
    #expect(Set(lines.map { $0[1] }).count == 1, "the bytes differ between processes")
    #expect(Set(lines.map { $0[2] }).count == 1, "the JSON differs between processes")
  }
}
