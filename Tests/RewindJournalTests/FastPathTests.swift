import JournalFixtures
import TestSupport
import Testing

@testable import RewindJournal

/// The unsafe fast paths of the codec and the reader: each checked against the plain
/// path it must agree with.
@Suite("Fast paths: varints, the byte writer's storage, payload iteration")
struct FastPathTests {
  @Test(
    "varints of every length decode the same far from and near the end of the data",
    arguments: [
      UInt64(0), 5, 127, 128, 300, 16_383, 16_384, 16_667, 2_097_151, 2_097_152, 1 << 35,
      .max,
    ])
  func varintPaths(value: UInt64) throws {
    var writer = ByteWriter()
    writer.writeVarint(value)
    let encoded = writer.bytes
    // Alone (near the end), then followed by ten bytes of padding (the unchecked path).
    for padding in [0, 1, 10] {
      try decode(encoded + Array(repeating: 0xAA, count: padding)) { reader throws in
        #expect(try reader.readVarint() == value, "padding \(padding)")
        #expect(reader.offset == encoded.count)
      }
    }
  }

  @Test("redundant zero bytes and truncation are errors on every path")
  func varintErrors() {
    let padded = Array(repeating: UInt8(0x01), count: 10)
    let cases: [([UInt8], CodecError.Code)] = [
      ([0x85, 0x00], .malformedVarint),
      ([0x85, 0x00] + padded, .malformedVarint),
      ([0x85, 0x85, 0x00], .malformedVarint),
      ([0x85, 0x85, 0x00] + padded, .malformedVarint),
      ([0x85, 0x85], .truncated),
      ([0x85], .truncated),
    ]
    for (bytes, code) in cases {
      let error = #expect(throws: CodecError.self) {
        try decode(bytes) { reader in try reader.readVarint() }
      }
      #expect(error?.code == code, "\(bytes)")
    }
  }

  @Test("a copied writer keeps its bytes when the original writes on (copy on write)")
  func writerCopyOnWrite() {
    var original = ByteWriter(capacity: 4)
    original.write(contentsOf: [1, 2, 3] as [UInt8])
    let copy = original
    original.removeAll()
    original.write(9)
    original.writeVarint(300)
    #expect(copy.bytes == [1, 2, 3])
    #expect(original.bytes == [9, 0xAC, 0x02])
    var grown = copy
    for byte in 0..<100 { grown.write(UInt8(byte)) }
    #expect(copy.bytes == [1, 2, 3])
    #expect(grown.count == 103)
    #expect(grown.withUnsafeBytes { Array($0.suffix(2)) } == [98, 99])
  }

  @Test("every write of the writer appends exactly its encoding")
  func writerEncodings() {
    var writer = ByteWriter(capacity: 1)
    writer.write(contentsOf: [0xAB] as [UInt8])
    writer.write(contentsOf: (1...3).lazy.map { UInt8($0) })
    writer.writeLittleEndian(UInt16(0x0102))
    writer.writeZigZag(-2)
    writer.writeString("hé")
    #expect(writer.bytes == [0xAB, 1, 2, 3, 0x02, 0x01, 0x03, 0x03, 0x68, 0xC3, 0xA9])
  }

  @Test(
    "payload iteration gives the records next() gives, and the two can be mixed",
    arguments: [1, 9, 250, 3_000] as [UInt64])
  func forEachPayload(count: UInt64) throws {
    let directory = TemporaryDirectory()
    let path = directory.file("fast.journal")
    try makeJournal(at: path, count: count, interval: 7, frameSize: 1024)
    let reader = try JournalReader(path: path)
    var seen: [(UInt64, [UInt8])] = []
    var stride: UInt64 = 1
    for index in reader.frames.indices {
      var cursor = try reader.loadFrame(index).records()
      var exhausted = false
      while !exhausted {
        // Alternate: a few records the fast way, then one the plain way.
        exhausted = try cursor.forEachPayload(through: cursor.sequence + stride - 1) {
          sequence, payload in
          seen.append((sequence, Array(payload)))
        }
        stride = stride % 5 + 1
        if !exhausted, let record = try cursor.next() {
          seen.append((record.sequence, Array(record.payload)))
        }
      }
      #expect(try cursor.next().map(\.sequence) == nil)
    }
    #expect(seen.map(\.0) == Array(1...count))
    for (sequence, bytes) in seen { #expect(bytes == payload(for: sequence)) }
  }

  @Test(
    "verify's walk of a frame a run at a time accepts what the record-by-record walk accepts, snapshots misplaced or not"
  )
  func verifyWalks() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("walk.journal")
    try makeJournal(at: path, count: 400, interval: 7, frameSize: 1024)
    let reader = try JournalReader(path: path)
    var random = SplitMix64(seed: testSeed("verifyWalks"))
    var (accepted, refused) = (0, 0)
    for index in reader.frames.indices {
      let frame = try reader.loadFrame(index)
      var variants = [frame.snapshots]
      for _ in 0..<12 where !frame.snapshots.isEmpty {
        var snapshots = frame.snapshots
        let which = Int(random.next() % UInt64(snapshots.count))
        switch random.next() % 6 {
        case 0: snapshots[which].recordOffset &+= 1
        case 1: snapshots[which].recordOffset = 0
        case 2: snapshots[which].time &+= 1
        case 3: snapshots[which].snapshot.sequence &+= 1
        case 4: snapshots[which].snapshot.sequence = frame.info.lastSequence &+ 2
        default: snapshots.swapAt(which, snapshots.count - 1)
        }
        variants.append(snapshots)
      }
      for snapshots in variants {
        let view = FrameView(
          info: frame.info, snapshots: snapshots, storage: frame.storage, headers: frame.headers)
        let quick = Journal.intactRecords(of: view)
        let slow = try? Journal.verifyRecords(of: view, loader: reader.loader)
        #expect(quick == slow?.records, "frame \(index), \(snapshots.map(\.recordOffset))")
        if quick == nil { refused += 1 } else { accepted += 1 }
      }
    }
    #expect(accepted >= reader.frames.count)
    #expect(refused > 0)
  }
}
