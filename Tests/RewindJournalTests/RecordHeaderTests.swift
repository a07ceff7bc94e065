import TestSupport
import Testing

@testable import RewindJournal

/// `ByteReader.readRecordHeader()` reads a record's time delta and payload length (two
/// varints) with one load when the delta has three bytes and the length one; these tests
/// hold it to the general varint loop (`readVarintSlowly()`) on headers of every shape,
/// well formed or not, at every distance from the end of the data, and hold the record
/// cursor's walks to a reference walk over frames whose records are damaged.
@Suite("Record header fast path")
struct RecordHeaderTests {
  /// What a read gives: the two values and the offset after them, or the error.
  enum Outcome: Equatable {
    case header(delta: UInt64, length: UInt64, end: Int)
    case error(CodecError)
  }

  /// `bytes` read from `start` by `readRecordHeader()`.
  static func fast(_ bytes: [UInt8], from start: Int) -> Outcome {
    bytes.withUnsafeBytes { buffer in
      var reader = ByteReader(buffer)
      try? reader.seek(to: start)
      do throws(CodecError) {
        let (delta, length) = try reader.readRecordHeader()
        return .header(delta: delta, length: length, end: reader.offset)
      } catch {
        return .error(error)
      }
    }
  }

  /// `bytes` read from `start` as two varints by the general loop.
  static func general(_ bytes: [UInt8], from start: Int) -> Outcome {
    bytes.withUnsafeBytes { buffer in
      var reader = ByteReader(buffer)
      try? reader.seek(to: start)
      do throws(CodecError) {
        let (delta, afterDelta) = try reader.readVarintSlowly()
        try reader.seek(to: afterDelta)
        let (length, end) = try reader.readVarintSlowly()
        return .header(delta: delta, length: length, end: end)
      } catch {
        return .error(error)
      }
    }
  }

  static func varint(_ value: UInt64) -> [UInt8] {
    var writer = ByteWriter()
    writer.writeVarint(value)
    return writer.bytes
  }

  @Test(
    "every delta and length at the edges of their lengths read the same at every distance from the end"
  )
  func everyShape() {
    var deltas: [UInt64] = [0, 1, UInt64.max]
    for bits in stride(from: 7, through: 63, by: 7) {
      deltas += [(1 << UInt64(bits)) - 1, 1 << UInt64(bits), (1 << UInt64(bits)) + 1]
    }
    let lengths: [UInt64] = [0, 1, 5, 127, 128, 300, 16_383, 16_384, 1 << 20, UInt64.max]
    var fastShapes = 0
    for delta in deltas {
      for length in lengths {
        let header = Self.varint(delta) + Self.varint(length)
        for lead in [0, 1, 3] {
          for trail in 0...9 {
            let bytes =
              Array(repeating: 0x80, count: lead) + header + Array(repeating: 0xFF, count: trail)
            let fast = Self.fast(bytes, from: lead)
            #expect(
              fast == Self.general(bytes, from: lead),
              "\(delta), \(length) after \(lead), \(trail) after")
            #expect(fast == .header(delta: delta, length: length, end: lead + header.count))
          }
        }
        if header.count == 4 && Self.varint(delta).count == 3 { fastShapes += 1 }
      }
    }
    // The shape the fast path takes is among them: three-byte deltas, one-byte lengths.
    #expect(fastShapes == 3 * 4)
  }

  @Test("three-byte deltas with one-byte lengths in the last bytes of the data, whole or cut short")
  func atTheEnd() {
    let continuing: [UInt8] = [0x80, 0x81, 0xC0, 0xFF]
    let ending: [UInt8] = [0x00, 0x01, 0x40, 0x7F, 0x80, 0xFF]
    let lengths: [UInt8] = [0x00, 0x01, 0x7F, 0x80, 0xFF]
    for b0 in continuing {
      for b1 in continuing {
        for b2 in ending {
          for b3 in lengths {
            let header = [b0, b1, b2, b3]
            for cut in 0...4 {
              for lead in 0...2 {
                for trail in 0...5 where cut == 4 || trail == 0 {
                  let bytes =
                    Array(repeating: 0x05, count: lead) + header.prefix(cut)
                    + Array(repeating: 0x03, count: trail)
                  #expect(
                    Self.fast(bytes, from: lead) == Self.general(bytes, from: lead),
                    "\(bytes) from \(lead)")
                }
              }
            }
          }
        }
      }
    }
  }

  @Test("malformed, truncated and random bytes fail or read the same")
  func malformedAndRandom() {
    var cases: [[UInt8]] = [[], [0x80, 0x80, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00]]
    for length in 1...11 {
      cases.append(Array(repeating: 0x80, count: length) + [0x00, 0x01, 0x00, 0x00])
      cases.append([0x85] + Array(repeating: 0x80, count: length) + [0x00])
      cases.append(Array(repeating: 0xFF, count: length))
      cases.append(Array(repeating: 0xFF, count: length) + [0x01, 0x01])
      cases.append([0x01] + Array(repeating: 0xFF, count: length) + [0x02])
    }
    var random = SplitMix64(seed: testSeed("recordHeaderRandom"))
    for _ in 0..<40_000 {
      let count = Int(random.next() % 16)
      cases.append(
        (0..<count).map { _ in
          // Continuation bits most of the time, zeros and small bytes often.
          let roll = random.next() % 8
          return roll < 4
            ? UInt8(0x80 | random.next() % 128) : roll == 4 ? 0 : UInt8(random.next() % 128)
        })
    }
    for bytes in cases {
      for start in 0...min(bytes.count, 3) {
        #expect(
          Self.fast(bytes, from: start) == Self.general(bytes, from: start),
          "\(bytes) from \(start)")
      }
    }
  }

  // MARK: - Frames

  /// A frame of records as columns (`headers`, each record's two varints, then
  /// `payloads`) starting at event 1, time `firstTime`, with the header's record count
  /// and last time.
  static func frame(
    headers: [UInt8], payloads: [UInt8], records: UInt32, firstTime: UInt64, lastTime: UInt64,
    snapshots: [StoredSnapshot] = []
  ) -> FrameView {
    let bytes = headers + payloads
    let storage = FrameStorage(capacity: max(bytes.count, 1))
    bytes.withUnsafeBytes { buffer in
      if let base = buffer.baseAddress {
        storage.bytes.copyMemory(from: base, byteCount: bytes.count)
      }
    }
    storage.count = bytes.count
    let info = FrameInfo(
      number: 3, offset: 4096, headerSize: 64, compressedSize: 100, firstSequence: 1,
      recordCount: records, firstTime: firstTime, lastTime: lastTime,
      snapshotCount: UInt32(snapshots.count))
    return FrameView(info: info, snapshots: snapshots, storage: storage, headers: 0..<headers.count)
  }

  /// What a walk of a frame gives: each record's sequence, time and payload, then the
  /// end or the error's message.
  struct Walk: Equatable {
    var records: [[UInt64]] = []
    var error: String?
  }

  /// The frame's records read one varint at a time by the general loop, a header from
  /// the headers and a payload from the payloads, with the cursor's checks and
  /// messages: what the cursor's walks must give.
  static func reference(_ frame: FrameView) -> Walk {
    var walk = Walk()
    let all = UnsafeRawBufferPointer(start: frame.storage.bytes, count: frame.storage.count)
    var reader = ByteReader(UnsafeRawBufferPointer(rebasing: all[frame.headers]))
    var payload = frame.headers.upperBound
    var sequence = frame.info.firstSequence
    var time = frame.info.firstTime
    while !reader.isAtEnd {
      guard sequence <= frame.info.lastSequence else {
        walk.error =
          "the records go on past event \(frame.info.lastSequence), where the header says they end"
        return walk
      }
      let delta: UInt64
      let length: UInt64
      do throws(CodecError) {
        let (value, end) = try reader.readVarintSlowly()
        try reader.seek(to: end)
        delta = value
        let (second, afterLength) = try reader.readVarintSlowly()
        try reader.seek(to: afterLength)
        length = second
      } catch {
        walk.error = "a record is malformed: \(error.message)"
        return walk
      }
      guard length <= UInt64(all.count - payload) else {
        walk.error =
          "record length \(length) runs past the frame at byte \(payload) (its header at byte \(reader.offset))"
        return walk
      }
      let (newTime, overflow) = time.addingReportingOverflow(delta)
      guard !overflow, newTime <= frame.info.lastTime else {
        walk.error = "record \(sequence) lies outside the frame"
        return walk
      }
      let bytes = all[payload..<(payload + Int(length))]
      walk.records.append([sequence, newTime] + bytes.map(UInt64.init))
      payload += Int(length)
      time = newTime
      sequence += 1
    }
    if sequence != frame.info.lastSequence + 1 || time != frame.info.lastTime {
      walk.error = "the records end at event \(sequence - 1), not where the header says"
    } else if payload != all.count {
      walk.error =
        "the records' payloads end at byte \(payload), not at the frame's end (byte \(all.count))"
    }
    return walk
  }

  /// The frame's records read by `RecordCursor.forEachRecord(through:_:)`.
  static func runs(_ frame: FrameView) -> Walk {
    var walk = Walk()
    var cursor = frame.records()
    do {
      _ = try cursor.forEachRecord(through: .max) { sequence, time, payload in
        walk.records.append([sequence, time] + payload.map(UInt64.init))
        return true
      }
    } catch let error as JournalError {
      #expect(error.code == .corruptFrame)
      #expect(error.frame == 3)
      walk.error = error.message
    } catch {
      Issue.record("unexpected \(error)")
    }
    return walk
  }

  /// The frame's records read by `RecordCursor.forEachRecord(through:fast:slow:)`, whose
  /// `fast` takes the records `takes` says of their sequence and declines the others
  /// (which `slow` is then called with), stopping after event `last`: each record once,
  /// by one of the two, in order.
  static func twoLoops(
    _ frame: FrameView, through last: UInt64 = .max, takes: (UInt64) -> Bool
  ) -> Walk {
    var walk = Walk()
    var cursor = frame.records()
    do {
      _ = try cursor.forEachRecord(
        through: last,
        fast: { sequence, time, payload in
          guard takes(sequence) else { return false }
          walk.records.append([sequence, time] + payload.map(UInt64.init))
          return true
        },
        slow: { sequence, time, payload in
          walk.records.append([sequence, time] + payload.map(UInt64.init))
          return true
        })
      // The cursor goes on after the last record read.
      while let record = try cursor.next() {
        walk.records.append([record.sequence, record.time] + record.payload.map(UInt64.init))
      }
    } catch let error as JournalError {
      #expect(error.code == .corruptFrame)
      #expect(error.frame == 3)
      walk.error = error.message
    } catch {
      Issue.record("unexpected \(error)")
    }
    return walk
  }

  /// The frame's records read by `RecordCursor.next()`.
  static func oneByOne(_ frame: FrameView) -> Walk {
    var walk = Walk()
    var cursor = frame.records()
    do throws(JournalError) {
      while let record = try cursor.next() {
        walk.records.append([record.sequence, record.time] + record.payload.map(UInt64.init))
      }
    } catch {
      #expect(error.code == .corruptFrame)
      walk.error = error.message
    }
    return walk
  }

  @Test("a frame's walks read its records and name its damage as the general loop does")
  func frames() {
    var random = SplitMix64(seed: testSeed("recordHeaderFrames"))
    var (intact, damaged) = (0, 0)
    var messages: Set<String> = []
    for round in 0..<3_000 {
      // Records with mostly three-byte deltas and short payloads, as recordings have.
      var headers: [UInt8] = []
      var payloads: [UInt8] = []
      var time: UInt64 = 1_000
      let count = 1 + Int(random.next() % 12)
      for _ in 0..<count {
        let delta: UInt64 =
          switch random.next() % 6 {
          case 0: random.next() % 128
          case 1: random.next() % 16_384
          case 2: random.next() % (1 << 30)
          default: 16_384 + random.next() % (2_097_152 - 16_384)
          }
        // Now and then a payload of 120 to 299 bytes: a length of one or two bytes.
        let length = random.next() % 16 == 0 ? 120 + random.next() % 180 : random.next() % 9
        let payload = (0..<length).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        headers += Self.varint(delta) + Self.varint(UInt64(payload.count))
        payloads += payload
        time += delta
      }
      var records = UInt32(count)
      var lastTime = time
      // Most frames damaged: header bytes flipped, zeroed or cut, headers or payloads
      // added or cut, or the header's counts off.
      switch round % 10 {
      case 0, 1: break
      case 2: headers[Int(random.next() % UInt64(headers.count))] ^= UInt8(1 << (random.next() % 8))
      case 3: headers[Int(random.next() % UInt64(headers.count))] = 0
      case 4: headers.removeLast(1 + Int(random.next() % UInt64(min(headers.count, 4))))
      case 5: headers += [0x80, 0x80][..<(1 + Int(random.next() % 2))]
      case 6: records += 1
      case 7: lastTime -= 1 + random.next() % 3
      case 8: payloads += [0x80][..<(payloads.isEmpty || random.next() % 2 == 0 ? 1 : 0)]
      default: if !payloads.isEmpty { payloads.removeLast() } else { headers.removeLast() }
      }
      let frame = Self.frame(
        headers: headers, payloads: payloads, records: records, firstTime: 1_000,
        lastTime: lastTime)
      let expected = Self.reference(frame)
      let described = "\(headers) \(payloads)"
      #expect(Self.runs(frame) == expected, "\(described)")
      // The two loops, `fast` taking every record, none, or some; the same records and
      // damage, also when stopped early and read on one by one.
      let mask = random.next()
      #expect(Self.twoLoops(frame) { _ in true } == expected, "\(described)")
      #expect(Self.twoLoops(frame) { _ in false } == expected, "\(described)")
      #expect(Self.twoLoops(frame) { mask &>> ($0 % 64) & 1 == 1 } == expected, "\(described)")
      if expected.error == nil {
        let stop = 1 + random.next() % UInt64(count)
        #expect(
          Self.twoLoops(frame, through: stop) { mask &>> ($0 % 64) & 1 == 1 } == expected,
          "\(described)")
      }
      #expect(Self.oneByOne(frame) == expected, "\(described)")
      if expected.error == nil {
        intact += 1
      } else {
        damaged += 1
        messages.insert(String(expected.error!.prefix(24)))
      }
    }
    #expect(intact > 300)
    #expect(damaged > 1_000)
    // Every kind of damage met: malformed varints, lengths, times, counts and payloads.
    #expect(messages.count >= 6, "\(messages)")
  }

  @Test("a three-byte delta with a redundant zero is malformed, not read as a shorter one")
  func redundantZero() {
    // First record fine (delta 16,384: 80 80 01, length 1), the second's delta 80 80 00.
    let frame = Self.frame(
      headers: [0x80, 0x80, 0x01, 0x01, 0x80, 0x80, 0x00, 0x01], payloads: [0xAA, 0xBB],
      records: 2, firstTime: 0, lastTime: 16_384)
    let message = "a record is malformed: varint has a redundant trailing zero byte"
    #expect(Self.runs(frame) == Walk(records: [[1, 16_384, 0xAA]], error: message))
    #expect(Self.oneByOne(frame) == Walk(records: [[1, 16_384, 0xAA]], error: message))
  }

  @Test("a cursor after a snapshot starts at its record, found by adding up the headers before it")
  func afterSnapshot() throws {
    // Three records: (delta 1, payload AA BB), (delta 2, CC), (delta 3, none); as rows the
    // second starts at byte 4 and the third at byte 7.
    func frame(snapshotAt offset: UInt32, after event: UInt64) -> FrameView {
      let snapshot = StoredSnapshot(
        snapshot: Snapshot(sequence: event, stateHash: 0, state: []), time: 1 + 2 * (event - 1),
        recordOffset: offset)
      return Self.frame(
        headers: [1, 2, 2, 1, 3, 0], payloads: [0xAA, 0xBB, 0xCC], records: 3, firstTime: 0,
        lastTime: 6, snapshots: [snapshot])
    }
    for (event, offset) in [(1, 4), (2, 7)] as [(UInt64, UInt32)] {
      let view = frame(snapshotAt: offset, after: event)
      var cursor = try view.records(after: view.snapshots[0])
      #expect(cursor.offset == Int(offset))
      let next = try #require(try cursor.next())
      #expect(next.sequence == event + 1)
      #expect(Array(next.payload) == (event == 1 ? [0xCC] : []))
    }
    for (event, offset) in [(1, 3), (1, 5), (2, 4), (2, 9)] as [(UInt64, UInt32)] {
      let view = frame(snapshotAt: offset, after: event)
      #expect {
        try view.records(after: view.snapshots[0])
      } throws: { error in
        (error as? JournalError)?.message
          == "the snapshot after event \(event) does not point at the start of event \(event + 1)"
      }
    }
  }
}
