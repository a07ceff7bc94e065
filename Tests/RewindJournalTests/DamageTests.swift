import Foundation
import JournalFixtures
import TestSupport
import Testing

@testable import RewindJournal

/// What reading a damaged file gave.
enum ReadOutcome {
  /// Opening or reading threw.
  case error(JournalError)
  /// Reading succeeded; the reader noticed something (walk instead of index, tail, damage).
  case noticed([(UInt64, UInt64, [UInt8])])
  /// Reading succeeded and nothing seemed wrong.
  case clean([(UInt64, UInt64, [UInt8])])
}

func readOutcome(_ path: String, salvage: Bool = false) -> ReadOutcome {
  do {
    let reader = try JournalReader(path: path, options: .init(salvage: salvage))
    let records = try readAll(reader)
    let condition = reader.condition
    let noticed =
      !condition.isIntact
      || (condition.walkReason.map { $0 != "no index (the journal was not closed)" } ?? false)
    return noticed ? .noticed(records) : .clean(records)
  } catch let error as JournalError {
    return .error(error)
  } catch {
    fatalError("a non-journal error escaped: \(error)")
  }
}

@Suite("Damaged and hostile journals")
struct DamageTests {
  @Test("truncation at every byte offset yields exactly a prefix of the records, and recovers")
  func everyTruncation() throws {
    let directory = TemporaryDirectory()
    let original = directory.file("original.journal")
    try makeJournal(at: original, count: 300, interval: 25)
    let full = bytes(of: original)
    let frames = try JournalReader(path: original).frames
    let cut = directory.file("cut.journal")
    var previousCount = 0
    for length in 0...full.count {
      write(Array(full[..<length]), to: cut)
      let reader: JournalReader
      do {
        reader = try JournalReader(path: cut)
      } catch {
        // Only a file too short to hold the header may fail to open.
        #expect(length < frames[0].offset, "length \(length): \(error)")
        #expect(error.code == .notAJournal || error.code == .corruptHeader)
        continue
      }
      let records = try readAll(reader)
      #expect(isExpected(records, 1...UInt64(max(records.count, 1))) || records.isEmpty)
      #expect(records.count >= previousCount, "a longer prefix never reads fewer records")
      previousCount = records.count
      let whole = frames.filter { $0.endOffset <= UInt64(length) }
      #expect(records.count == whole.reduce(0) { $0 + Int($1.recordCount) }, "length \(length)")
      if length < full.count && length > Int(frames.last!.endOffset) {
        // Cut inside the index or trailer: the data is whole.
        #expect(records.count == 300)
      }
      if length % 37 == 0 || length == full.count - 1 {
        let before = bytes(of: cut)
        let report = try Journal.recover(path: cut)
        #expect(report.keptRecords == UInt64(records.count))
        if report.changed {
          // The damaged original is kept beside the repaired journal, byte for byte.
          #expect(report.originalKeptAt == cut + ".damaged")
          #expect(bytes(of: cut + ".damaged") == before)
          try FileManager.default.removeItem(atPath: cut + ".damaged")
        }
        #expect(try Journal.verify(path: cut).isClean)
        #expect(
          isExpected(try readAll(JournalReader(path: cut)), 1...max(report.lastSequence, 1))
            || report.lastSequence == 0)
      }
    }
  }

  @Test(
    "random bit flips and byte overwrites (1,000; Tools/soak 10,000) are each detected or harmless")
  func randomCorruption() throws {
    let seed = testSeed("randomCorruption")
    let directory = TemporaryDirectory()
    let original = directory.file("original.journal")
    try makeJournal(at: original, count: 600, interval: 25)
    let pristine = bytes(of: original)
    let expected = try readAll(JournalReader(path: original))
    let damaged = directory.file("damaged.journal")
    var random = SplitMix64(seed: seed)
    var detected = 0
    var harmless = 0
    let trials = soakCount("CORRUPTIONS", standard: 1_000)
    for trial in 0..<trials {
      var copy = pristine
      let position = Int(random.next() % UInt64(copy.count))
      if trial % 2 == 0 {
        copy[position] ^= UInt8(1 << (random.next() % 8))
      } else {
        var replacement = UInt8(truncatingIfNeeded: random.next())
        if replacement == copy[position] { replacement &+= 1 }
        copy[position] = replacement
      }
      write(copy, to: damaged)
      switch readOutcome(damaged) {
      case .error(let error):
        detected += 1
        #expect(!error.description.isEmpty)
      case .noticed(let records):
        detected += 1
        #expect(isExpected(records, 1...UInt64(max(records.count, 1))) || records.isEmpty)
      case .clean(let records):
        // Not noticed by the reader: then the records must be exactly the originals.
        #expect(
          records.elementsEqual(expected, by: { $0 == $1 }),
          "trial \(trial) at \(position), seed \(seed)")
        harmless += 1
      }
      // Verification sees every change: every byte is covered by a checksum.
      let report = try? Journal.verify(path: damaged)
      #expect(
        report.map { !$0.isClean } ?? true,
        "trial \(trial): byte \(position) went unnoticed, seed \(seed)")
      // Salvage reads around the damage and never returns altered records.
      if case .noticed(let records) = readOutcome(damaged, salvage: true) {
        let originals = Dictionary(uniqueKeysWithValues: expected.map { ($0.0, $0) })
        #expect(
          records.allSatisfy { record in originals[record.0].map { $0 == record } ?? false })
      }
    }
    #expect(detected + harmless == trials)
    print(
      "corruptions: \(trials) single-byte changes of a 600-event journal: \(detected) detected by reading, \(harmless) harmless (the records read exactly the same), every one seen by verify"
    )
  }

  @Test("damage in the middle stops reading with its frame and events; salvage skips it")
  func middleDamage() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("a.journal")
    try makeJournal(at: path, count: 1_000, interval: 25)
    let reader = try JournalReader(path: path)
    let victim = reader.frames[3]
    var damaged = bytes(of: path)
    damaged[Int(victim.dataOffset) + 20] ^= 0x10
    write(damaged, to: path)

    let strict = try JournalReader(path: path)
    #expect {
      _ = try readAll(strict)
    } throws: { error in
      let error = error as! JournalError
      return error.code == .corruptFrame && error.frame == 3
        && error.sequenceRange == victim.sequenceRange
        && error.description.contains(
          "frame 3 (events \(victim.firstSequence)–\(victim.lastSequence)) at byte \(victim.offset): checksum mismatch in the compressed data"
        )
    }
    let salvaging = try JournalReader(path: path, options: .init(salvage: true))
    var iterator = salvaging.records()
    var sequences: [UInt64] = []
    while let record = try iterator.next() { sequences.append(record.sequence) }
    #expect(sequences == Array(1..<victim.firstSequence) + Array((victim.lastSequence + 1)...1_000))
    #expect(iterator.skipped.map(\.frame) == [3])

    let verification = try Journal.verify(path: path)
    #expect(verification.problems.first?.frame == 3)

    // Recovery refuses to drop good events unless told to salvage.
    #expect {
      try Journal.recover(path: path)
    } throws: { error in
      "\(error)".contains("good frames follow it: recover with salvage")
    }
    let salvaged = directory.file("salvaged.journal")
    let report = try Journal.recover(path: path, output: salvaged, salvage: true)
    #expect(report.lostRanges == [victim.sequenceRange])
    #expect(report.keptRecords == 1_000 - UInt64(victim.recordCount))
    let check = try Journal.verify(path: salvaged)
    #expect(check.isClean, "\(check.problems)")
    let result = try JournalReader(path: salvaged)
    #expect(result.condition.lostRanges == [victim.sequenceRange])
    #expect(result.lastSequence == 1_000)
    #expect(result.lostRange(containing: victim.firstSequence) == victim.sequenceRange)
    #expect(try readAll(result).map(\.0) == sequences)
    // A salvaged journal can be continued.
    let writer = try JournalWriter.open(at: salvaged, domain: "test", schemaVersion: 1)
    try appendEvents(writer, 1_001...1_010)
    try writer.close()
    #expect(try JournalReader(path: salvaged).lastSequence == 1_010)
    #expect(try Journal.verify(path: salvaged).isClean)
  }

  @Test("a damaged frame header in the middle: the frames after it stay readable and are kept")
  func middleHeaderDamage() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("a.journal")
    try makeJournal(at: path, count: 1_000, interval: 25, close: false)
    let frames = try JournalReader(path: path).frames
    let victim = frames[2]
    var damaged = bytes(of: path)
    damaged[Int(victim.offset) + 14] ^= 0x40  // inside the header: its checksum fails
    write(damaged, to: path)

    let reader = try JournalReader(path: path, options: .init(salvage: true))
    #expect(reader.frames.count == frames.count - 1)
    #expect(reader.frames.map(\.number) == frames.map(\.number).filter { $0 != 2 })
    #expect(reader.condition.damage.count == 1, "\(reader.condition.damage)")
    #expect(reader.condition.damage.first?.sequenceRange == victim.sequenceRange)
    var iterator = reader.records()
    var sequences: [UInt64] = []
    while let record = try iterator.next() { sequences.append(record.sequence) }
    #expect(sequences == Array(1..<victim.firstSequence) + Array((victim.lastSequence + 1)...1_000))
    #expect(iterator.skipped.isEmpty)
    // Reading on without salvage stops where the events are missing.
    #expect(try JournalReader(path: path).frames.count == frames.count - 1)

    #expect {
      try Journal.recover(path: path)
    } throws: { error in
      "\(error)".contains("good frames after them: recover with salvage")
    }
    #expect(bytes(of: path) == damaged, "a refused recovery changes nothing")
    let report = try Journal.recover(path: path, salvage: true)
    #expect(report.lostRanges == [victim.sequenceRange])
    #expect(report.keptRecords == 1_000 - UInt64(victim.recordCount))
    #expect(try Journal.verify(path: path).isClean)
    #expect(try JournalReader(path: path).lastSequence == 1_000)
  }

  @Test("a resynchronisation over many false frame headers stays linear")
  func falseHeaders() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("a.journal")
    try makeJournal(at: path, count: 0, close: false)
    // 100,000 candidates that look like frame headers at first glance.
    var hostile = bytes(of: path) + [0x00]
    for _ in 0..<100_000 {
      hostile += [0x5B, 0x2A, 0x4D, 0x18, 0x00, 0x00, 0x10, 0x00, 0x52, 0x57, 0x46, 0x48]
    }
    write(hostile, to: path)
    let start = ContinuousClock.now
    let reader = try JournalReader(path: path)
    #expect(reader.condition.tornTail != nil)
    #expect(ContinuousClock.now - start < .seconds(20), "took \(ContinuousClock.now - start)")
  }

  @Test("garbage after the last frame is a torn tail that recovery cuts")
  func garbageTail() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("a.journal")
    try makeJournal(at: path, count: 200, close: false)
    write(bytes(of: path) + Array("not a frame at all".utf8), to: path)
    let reader = try JournalReader(path: path)
    #expect(reader.condition.tornTail?.reason == "the bytes here are not a frame")
    #expect(reader.condition.tornTail?.length == 18)
    #expect(reader.condition.tornTail?.isDamagedEnd == false)
    #expect(
      reader.condition.tornTail?.described
        == "the last 18 bytes (from byte \(bytes(of: path).count - 18)) are not a whole frame (the bytes here are not a frame)"
    )
    #expect {
      try JournalWriter.open(at: path, domain: "test", schemaVersion: 1)
    } throws: { error in
      (error as! JournalError).code == .tornTail && "\(error)".contains("run `rewind recover`")
    }
    let report = try Journal.recover(path: path)
    #expect(report.cutTail?.length == 18)
    #expect(report.keptRecords == 200)
    #expect(report.droppedRecords == 0, "garbage holds no events")
    #expect(try Journal.verify(path: path).isClean)
    let again = try Journal.recover(path: path)
    #expect(!again.changed)
    #expect(again.originalKeptAt == nil)
  }

  @Test(
    "bytes written after a closed journal's trailer: the journal is closed and whole, the bytes a tail that recovery cuts, giving back the journal as it was closed"
  )
  func bytesAfterTrailer() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("a.journal")
    try makeJournal(at: path, count: 200)
    let closed = bytes(of: path)
    for appended in [Array("some junk appended here\n".utf8), [0x00], closed] {
      write(closed + appended, to: path)
      let reader = try JournalReader(path: path)
      let condition = reader.condition
      #expect(condition.isClosed, "\(appended.count) bytes")
      #expect(condition.tornTail?.offset == UInt64(closed.count))
      #expect(condition.tornTail?.length == UInt64(appended.count))
      // What the walk found there, when it is more than bytes that are not a frame.
      let written = "written to the file after its trailer, once it was closed"
      let found = [
        24: "", 1: ": 1 byte is too few for a frame", closed.count: ": a second journal header",
      ]
      #expect(condition.tornTail?.reason == written + (found[appended.count] ?? "?"))
      #expect(isExpected(try readAll(reader), 1...200))
      // verify: one problem, the bytes; the index is the journal's, and it is closed.
      let report = try Journal.verify(path: path)
      #expect(report.isClosed && report.hasIndex)
      #expect(report.problems.map(\.kind) == [.tornTail], "\(report.problems)")
      #expect(report.problems.first?.message.contains("not durable") == false)
      #expect(report.damagedRecordCount == 0)
      let recovered = try Journal.recover(path: path)
      #expect(recovered.cutTail?.length == UInt64(appended.count))
      #expect(recovered.keptRecords == 200 && recovered.droppedRecords == 0)
      #expect(bytes(of: path) == closed)
      try FileManager.default.removeItem(atPath: path + ".damaged")
    }
  }

  @Test("recovering to another file never overwrites and leaves the source untouched")
  func recoverToOutput() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("a.journal")
    try makeJournal(at: path, count: 200, close: false)
    let torn = bytes(of: path) + [0x5B, 0x2A, 0x4D, 0x18, 0xFF]
    write(torn, to: path)
    let output = directory.file("b.journal")
    let report = try Journal.recover(path: path, output: output)
    #expect(report.keptRecords == 200)
    #expect(bytes(of: path) == torn)
    #expect(try Journal.verify(path: output).isClean)
    #expect {
      try Journal.recover(path: path, output: output)
    } throws: { error in
      (error as! JournalError).code == .alreadyExists
    }
  }

  @Test(
    "files that are not journals give errors that say so",
    arguments: [
      ([], "the file is empty, not a Rewind journal"),
      (
        Array("{\"seq\": 1}\n".utf8),
        "not a Rewind journal (it does not start with a journal header)"
      ),
      (
        [0x28, 0xB5, 0x2F, 0xFD, 0, 0, 0, 0, 0],
        "not a Rewind journal (it does not start with a journal header)"
      ),
    ] as [([UInt8], String)])
  func notJournals(content: [UInt8], message: String) throws {
    let directory = TemporaryDirectory()
    let path = directory.file("x.journal")
    write(content, to: path)
    #expect {
      try JournalReader(path: path)
    } throws: { error in
      let error = error as! JournalError
      return error.code == .notAJournal && error.description == "\(path): \(message)"
    }
  }

  @Test("a damaged header, a damaged index and a damaged trailer are each named")
  func damagedMetadata() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("a.journal")
    try makeJournal(at: path, count: 500)
    let pristine = bytes(of: path)

    // A damaged header is read from its copy, with a warning.
    var header = pristine
    header[20] ^= 0x01
    write(header, to: path)
    let fromCopy = try JournalReader(path: path)
    #expect(fromCopy.condition.headerDamage?.offset == 20)
    #expect(isExpected(try readAll(fromCopy), 1...500))

    // The index sits before the 36-byte trailer; damage there makes readers walk.
    var index = pristine
    index[pristine.count - 40] ^= 0x01
    write(index, to: path)
    let walked = try JournalReader(path: path)
    #expect(
      walked.condition.walkReason?.hasPrefix("the index is damaged: checksum mismatch") == true)
    #expect(isExpected(try readAll(walked), 1...500))
    let walkedReport = try Journal.verify(path: path)
    #expect(!walkedReport.isClean)
    // The end of a closed journal, damaged: no frame cut short, no event in it.
    #expect(walked.condition.tornTail?.isDamagedEnd == true)
    #expect(walkedReport.endIsDamaged)

    var trailer = pristine
    trailer[pristine.count - 10] ^= 0x01
    write(trailer, to: path)
    let noTrailer = try JournalReader(path: path)
    #expect(!noTrailer.condition.openedFromIndex)
    #expect(noTrailer.condition.tornTail?.reason.hasPrefix("the trailer is damaged") == true)
    #expect(noTrailer.condition.tornTail?.isDamagedEnd == true)
    #expect(
      noTrailer.condition.tornTail?.described.contains(
        " are its index or trailer, damaged or cut short (the trailer is damaged") == true)
    #expect(isExpected(try readAll(noTrailer), 1...500))
    let report = try Journal.recover(path: path)
    #expect(report.keptRecords == 500)
    #expect(try JournalReader(path: path).condition.openedFromIndex)

    // A writer stopped while closing the journal: its index cut short, no trailer.
    write(Array(pristine[..<(pristine.count - 50)]), to: path)
    let closing = try JournalReader(path: path)
    #expect(closing.condition.tornTail?.isDamagedEnd == true)
    #expect(
      closing.condition.tornTail?.reason.hasPrefix("the index of ") == true,
      "\(String(describing: closing.condition.tornTail))")
    #expect(isExpected(try readAll(closing), 1...500))

    // A trailer whose magic became another program's skippable frame (0x184D2A5A): the
    // walk steps over it as it may, and verification names the orphaned index.
    var foreign = pristine
    foreign[pristine.count - 36] ^= 0x01
    write(foreign, to: path)
    let verification = try Journal.verify(path: path)
    #expect(verification.problems.map(\.kind) == [.index], "\(verification.problems)")
    #expect(
      verification.problems.first?.message
        == "the index is not followed by a valid trailer, so readers walk the frames")
  }

  @Test("a pipe or a device is refused as no journal, not read as an empty one")
  func notARegularFile() throws {
    // A FIFO nobody writes to, which opening used to wait on forever, is tested end to end
    // (FileSafetyTests), where a hang can be killed.
    var ends: [Int32] = [0, 0]
    try #require(pipe(&ends) == 0)
    defer { for end in ends { close(end) } }
    for path in ["/dev/fd/\(ends[0])", "/dev/zero"] {
      #expect {
        try JournalReader(path: path)
      } throws: { error in
        "\(error)"
          == "\(path): is not a regular file (a device, pipe or socket), not a journal file"
      }
    }
  }

  @Test("a missing file and a directory are named in the error")
  func missing() throws {
    let directory = TemporaryDirectory()
    #expect {
      try JournalReader(path: directory.file("nope.journal"))
    } throws: { error in
      let error = error as! JournalError
      return error.code == .notFound
        && error.description.hasPrefix("\(directory.path)/nope.journal: no such file")
    }
    #expect {
      try JournalReader(path: directory.path)
    } throws: { error in
      "\(error)" == "\(directory.path): is a directory, not a journal file"
    }
    // One that holds journals says how many, and how to give them.
    write([UInt8](), to: directory.file("a.journal"))
    write([UInt8](), to: directory.file("b.journal"))
    write([UInt8](), to: directory.file("b.state.json"))
    #expect {
      try JournalReader(path: directory.path)
    } throws: { error in
      "\(error)"
        == "\(directory.path): is a directory, not a journal file; it holds 2 journals (\(directory.path)/*.journal)"
    }
  }

  @Test("a newer major format version is refused with an upgrade hint")
  func newerFormat() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("future.journal")
    var future = header()
    future.formatVersion = FormatVersion(major: 3, minor: 0)
    write(future.encoded(), to: path)
    #expect {
      try JournalReader(path: path)
    } throws: { error in
      let error = error as! JournalError
      return error.code == .unsupportedVersion
        && error.description.contains(
          "journal format 3.0 is not supported by this version of Rewind (it reads 1.x to 2.x)")
    }
    // A newer minor version with fields appended is read.
    var minor = header()
    minor.formatVersion = FormatVersion(major: 1, minor: 7)
    let bytes = MetadataFrame.encode(.header) { writer in
      writer.writeLittleEndian(UInt16(1))
      writer.writeLittleEndian(UInt16(7))
      writer.writeLittleEndian(minor.schemaVersion)
      writer.writeLittleEndian(minor.snapshotInterval)
      writer.writeLittleEndian(minor.startTime)
      writer.write(contentsOf: minor.sessionID.bytes)
      writer.writeString(minor.domain)
      writer.writeString(minor.device)
      writer.writeVarint(UInt64(minor.settings.count))
      writer.write(contentsOf: minor.settings)
      writer.write(0)  // 1.2: no parent session
      writer.write(contentsOf: [1, 2, 3, 4])  // a field this version does not know
    }
    write(bytes, to: path)
    #expect(try JournalReader(path: path).header == minor)
  }

  @Test("declared sizes beyond the limits are refused before anything is allocated")
  func hostileSizes() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("hostile.journal")
    // A header that declares 4 GiB.
    write([0x5B, 0x2A, 0x4D, 0x18, 0xFF, 0xFF, 0xFF, 0xFF, 1, 2, 3], to: path)
    #expect {
      try JournalReader(path: path)
    } throws: { error in
      "\(error)".contains("the journal header declares 4294967295 bytes, beyond the limit")
    }
    // A frame header that declares an 8 GiB metadata frame, then a huge zstd frame.
    let empty = directory.file("empty.journal")
    try makeJournal(at: empty, count: 0, close: false)
    let headerBytes = bytes(of: empty)
    write(headerBytes + [0x5B, 0x2A, 0x4D, 0x18, 0xFF, 0xFF, 0xFF, 0xFF], to: path)
    #expect(
      try JournalReader(path: path).condition.tornTail?.reason
        == "a metadata frame declares 4294967295 bytes, beyond the limit")
    // A well-formed frame header whose counts and sizes are absurd.
    let absurd = MetadataFrame.encode(.frame) { writer in
      writer.writeLittleEndian(UInt32(0))
      writer.writeLittleEndian(UInt64(1))
      writer.writeLittleEndian(UInt32.max)  // records
      writer.writeLittleEndian(UInt64(0))
      writer.writeLittleEndian(UInt64(10))
      writer.writeLittleEndian(UInt32.max)  // raw size
      writer.writeLittleEndian(UInt32.max)  // compressed size
      writer.writeLittleEndian(UInt32(0))
      writer.writeLittleEndian(UInt32.max)  // snapshots
    }
    write(headerBytes + absurd, to: path)
    #expect(
      try JournalReader(path: path).condition.tornTail?.reason.hasPrefix(
        "a frame header is invalid")
        == true)
  }

  @Test("sequence numbers and times at the top of their range are refused, not overflowed")
  func extremeValues() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("extreme.journal")
    let empty = directory.file("empty.journal")
    try makeJournal(at: empty, count: 0, close: false)
    let headerBytes = bytes(of: empty)
    // A lost-range marker reaching the largest UInt64, checksummed like a real one.
    write(headerBytes + LostRangeMarker.encoded(1...UInt64.max), to: path)
    let reader = try JournalReader(path: path)
    #expect(
      reader.condition.tornTail?.reason
        == "a lost-range marker does not follow the events before it")
    #expect(try !Journal.verify(path: path).isClean)
    // A frame whose snapshot claims the largest sequence number.
    try makeJournal(at: directory.file("small.journal"), count: 20, close: false)
    let small = try JournalReader(path: directory.file("small.journal"))
    let frame = small.frames[0]
    let header = try small.frameHeader(0)
    var hostile = FrameHeader(
      info: header.info, rawSize: 0, compressedChecksum: 0,
      snapshots: [
        StoredSnapshot(
          snapshot: Snapshot(sequence: .max, stateHash: 0, state: []), time: 0, recordOffset: 1)
      ])
    let original = bytes(of: directory.file("small.journal"))
    let data = Array(original[Int(frame.dataOffset)..<Int(frame.endOffset)])
    hostile.rawSize = UInt32(try small.decompressedContent(ofFrame: 0).count)
    hostile.compressedChecksum = data.withUnsafeBytes { XXH64.checksum32($0) }
    hostile.info.snapshotCount = 1
    write(Array(original[..<Int(frame.offset)]) + hostile.encoded() + data, to: path)
    let opened = try JournalReader(path: path)
    #expect {
      _ = try opened.loadFrame(0)
    } throws: { error in
      (error as! JournalError).code == .corruptFrame
        && "\(error)".contains("does not belong to a frame of events 1+20")
    }
  }

  @Test("a zstd frame that declares another size or window than its header is refused")
  func mismatchedZstdFrame() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("a.journal")
    try makeJournal(at: path, count: 50, close: false)
    let reader = try JournalReader(path: path)
    let frame = reader.frames[0]
    // Replace the frame's data with a valid zstd frame of other content, fixing the
    // compressed checksum so only the content size is wrong.
    var file = bytes(of: path)
    let compressor = try ZstdCompressor(level: 1)
    let other = [UInt8](repeating: 7, count: 100_000)
    var output = [UInt8](repeating: 0, count: ZstdCompressor.bound(other.count))
    let size = try other.withBytes { source throws(JournalError) in
      try output.withMutableBytes { destination throws(JournalError) in
        try compressor.compress(source, into: destination)
      }
    }
    output.removeLast(output.count - size)
    let header = try reader.frameHeader(0)
    var frameHeader = FrameHeader(
      info: header.info, rawSize: 0, compressedChecksum: 0, snapshots: header.snapshots)
    frameHeader.info.compressedSize = UInt32(size)
    frameHeader.rawSize = UInt32(try reader.decompressedContent(ofFrame: 0).count)
    frameHeader.compressedChecksum = output.withUnsafeBytes { XXH64.checksum32($0) }
    file = Array(file[..<Int(frame.offset)]) + frameHeader.encoded() + output
    write(file, to: path)
    let damaged = try JournalReader(path: path)
    #expect {
      _ = try damaged.loadFrame(0)
    } throws: { error in
      let error = error as! JournalError
      return error.code == .corruptFrame && error.frame == 0
        && "\(error)".contains("the zstd frame declares 100000 bytes, not the header's")
    }
  }
}
