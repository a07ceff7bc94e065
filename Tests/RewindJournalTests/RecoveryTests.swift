import Foundation
import JournalFixtures
import Synchronization
import TestSupport
import Testing

@testable import RewindJournal

/// Rewrites frame `index` of the journal at `path` (not closed) with `change` applied to
/// its header, `content` to what its data frame decompresses to, compressed again, and
/// `data` to the zstd frame; the checksums of Rewind's frames are made to verify.
func rewriteFrame(
  _ index: Int, of path: String, contentSize: Bool = true,
  _ change: (inout FrameHeader) -> Void = { _ in },
  content: (inout [UInt8]) -> Void = { _ in }, data changeData: (inout [UInt8]) -> Void = { _ in }
) throws {
  let reader = try JournalReader(path: path)
  let info = reader.frames[index]
  var raw = try reader.decompressedContent(ofFrame: index)
  content(&raw)
  let compressor = try ZstdCompressor(level: 3, contentSize: contentSize)
  var data = [UInt8](repeating: 0, count: ZstdCompressor.bound(raw.count))
  let size = try raw.withBytes { source throws(JournalError) in
    try data.withMutableBytes { destination throws(JournalError) in
      try compressor.compress(source, into: destination)
    }
  }
  data.removeLast(data.count - size)
  changeData(&data)
  let old = try reader.frameHeader(index)
  var header = FrameHeader(
    info: old.info, rawSize: UInt32(raw.count),
    compressedChecksum: data.withUnsafeBytes { XXH64.checksum32($0) }, snapshots: old.snapshots)
  header.info.compressedSize = UInt32(size)
  change(&header)
  let file = bytes(of: path)
  write(
    Array(file[..<Int(info.offset)]) + header.encoded() + data
      + Array(file[Int(info.endOffset)...]), to: path)
}

@Suite("Recovery")
struct RecoveryTests {
  @Test("a whole last frame written without a declared content size is kept")
  func frameWithoutContentSize() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("a.journal")
    try makeJournal(at: path, count: 50, close: false)
    #expect(try JournalReader(path: path).frames.count == 1)
    try rewriteFrame(0, of: path, contentSize: false)
    #expect(isExpected(try readAll(JournalReader(path: path)), 1...50))
    #expect(try Journal.verify(path: path).isClean)
    let report = try Journal.recover(path: path)
    #expect(report.keptRecords == 50, "a frame whose checksums verify was dropped")
    #expect(report.droppedRecords == 0)
    #expect(isExpected(try readAll(JournalReader(path: path)), 1...50))
  }

  @Test("zstd's content checksum is checked where frames are verified, not on every read")
  func contentChecksum() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("a.journal")
    try makeJournal(at: path, count: 50, close: false)
    // The zstd frame's last byte (its content checksum's) changed, the checksum of the
    // compressed bytes in the frame header made to match: a writer's bug, not damage.
    try rewriteFrame(0, of: path, data: { data in data[data.count - 1] ^= 0x01 })
    let reader = try JournalReader(path: path)
    #expect(isExpected(try readAll(reader), 1...50))
    guard case .damaged(let error, whole: true) = reader.checkFrame(0).check else {
      Issue.record("the frame's content checksum was not checked")
      return
    }
    #expect(error.message == "cannot decompress the data: zstd failed decompressing a frame")
    #expect(error.cause == .zstd("Restored data doesn't match checksum"))
    #expect(try Journal.verify(path: path).problems.map(\.frame) == [0])
    #expect(throws: JournalError.self) { try reader.decompressedContent(ofFrame: 0) }
    // Reading after a verifying load: the content checksum is ignored again.
    #expect(isExpected(try readAll(JournalReader(path: path)), 1...50))
  }

  @Test("the decompressor skips the content checksum when told, and checks it again when told")
  func decompressorChecksum() throws {
    let content = (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 5) }
    let compressor = try ZstdCompressor(level: 3)
    var data = [UInt8](repeating: 0, count: ZstdCompressor.bound(content.count))
    let size = try content.withBytes { source throws(JournalError) in
      try data.withMutableBytes { destination throws(JournalError) in
        try compressor.compress(source, into: destination)
      }
    }
    data.removeLast(data.count - size)
    // The content checksum's last byte.
    data[size - 1] ^= 0x01
    let decompressor = try ZstdDecompressor()
    var output = [UInt8](repeating: 0, count: content.count)
    func decompress() throws(JournalError) -> Int {
      try data.withBytes { source throws(JournalError) in
        try output.withMutableBytes { destination throws(JournalError) in
          try decompressor.decompress(source, into: destination)
        }
      }
    }
    // Checked by default, skipped when told, checked again when told.
    #expect(throws: JournalError.self) { try decompress() }
    try decompressor.checksContent(false)
    #expect(try decompress() == content.count)
    #expect(output == content)
    try decompressor.checksContent(true)
    #expect(throws: JournalError.self) { try decompress() }
    try decompressor.checksContent(false)
    #expect(try decompress() == content.count)
  }

  @Test("a whole frame that breaks a rule is dropped only with salvage")
  func wholeButInvalid() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("a.journal")
    try makeJournal(at: path, count: 600, interval: 5, close: false)
    let last = try JournalReader(path: path).frames.count - 1
    try rewriteFrame(last, of: path) { header in
      // A snapshot that points one byte past the start of its event.
      let index = header.snapshots.lastIndex { $0.recordOffset > 0 }!
      header.snapshots[index].recordOffset += 1
    }
    let damaged = bytes(of: path)
    let frame = try JournalReader(path: path).frames[last]
    let report = try Journal.verify(path: path)
    #expect(report.problems.map(\.kind) == [.frame])
    #expect(report.problems.first?.frame == last)
    #expect {
      try Journal.recover(path: path)
    } throws: { error in
      let error = error as! JournalError
      return error.frame == last
        && "\(error)".contains("the frame is whole (its checksums verify) but cannot be read")
        && "\(error)".contains("recover with salvage")
    }
    #expect(bytes(of: path) == damaged)
    #expect(contents(of: directory) == ["a.journal"])
    let salvaged = try Journal.recover(path: path, salvage: true)
    #expect(salvaged.keptRecords == frame.firstSequence - 1)
    #expect(salvaged.droppedRecords == UInt64(frame.recordCount))
    #expect(try Journal.verify(path: path).isClean)
  }

  @Test("in place the damaged original is kept as NAME.damaged; with an output it is left alone")
  func keepsTheOriginal() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("a.journal")
    try makeJournal(at: path, count: 300, close: false)
    let torn = bytes(of: path) + [0x5B, 0x2A, 0x4D, 0x18, 0xFF]
    write(torn, to: path)

    let output = directory.file("b.journal")
    let elsewhere = try Journal.recover(path: path, output: output)
    #expect(elsewhere.output == output && elsewhere.originalKeptAt == nil)
    #expect(bytes(of: path) == torn)
    #expect(try Journal.verify(path: output).isClean)
    #expect {
      try Journal.recover(path: path, output: output)
    } throws: { error in
      (error as! JournalError).code == .alreadyExists
    }
    // The output may not be the journal under another name.
    let link = directory.file("link.journal")
    try FileManager.default.linkItem(atPath: path, toPath: link)
    for same in [path, link] {
      #expect {
        try Journal.recover(path: path, output: same)
      } throws: { error in
        let error = error as! JournalError
        return error.code == .outputIsInput && "\(error)".contains(path)
      }
    }
    try FileManager.default.removeItem(atPath: link)

    let inPlace = try Journal.recover(path: path)
    #expect(inPlace.originalKeptAt == path + ".damaged")
    #expect(inPlace.output == path)
    #expect(bytes(of: path + ".damaged") == torn)
    #expect(try Journal.verify(path: path).isClean)
    // A second damaged original would overwrite the first: refused, nothing written.
    write(torn, to: path)
    #expect {
      try Journal.recover(path: path)
    } throws: { error in
      let error = error as! JournalError
      return error.code == .alreadyExists && error.path == path + ".damaged"
    }
    #expect(bytes(of: path) == torn)
    #expect(contents(of: directory) == ["a.journal", "a.journal.damaged", "b.journal"])
  }

  @Test(
    "NAME.damaged naming the journal itself, as a recovery cut by a power loss leaves it, is no obstacle"
  )
  func interruptedRecovery() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("a.journal")
    try makeJournal(at: path, count: 300, close: false)
    let torn = bytes(of: path) + Array("torn".utf8)
    write(torn, to: path)
    // The recovery linked the journal to NAME.damaged; its rename did not reach the disk.
    try FileManager.default.linkItem(atPath: path, toPath: path + ".damaged")
    let report = try Journal.recover(path: path)
    #expect(report.originalKeptAt == path + ".damaged")
    #expect(bytes(of: path + ".damaged") == torn)
    #expect(try Journal.verify(path: path).isClean)
    #expect(contents(of: directory) == ["a.journal", "a.journal.damaged"])
  }

  @Test("two recoveries in place at once: the second is refused while the first runs")
  func concurrentRecoveries() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("a.journal")
    try makeJournal(at: path, count: 300, close: false)
    let torn = bytes(of: path) + Array("torn".utf8)
    write(torn, to: path)
    // The first recovery holds its lock (another open of the file, as another process's).
    do {
      let first = try JournalFile(path: path, mode: .read, system: .live)
      try withExtendedLifetime(first) {
        try FileLock.acquireRecovery(first)
        #expect {
          try Journal.recover(path: path)
        } throws: { error in
          let error = error as! JournalError
          return error.code == .locked && "\(error)".contains("another recovery of this journal")
        }
        #expect(contents(of: directory) == ["a.journal"])
        // Written elsewhere, the journal is only read: no conflict.
        _ = try Journal.recover(path: path, output: directory.file("b.journal"))
        try FileManager.default.removeItem(atPath: directory.file("b.journal"))
      }
    }
    // Closing the file (the first recovery ending) releases the lock, once no process
    // holds its open file: a process another test spawns meanwhile holds it until its
    // exec (close-on-exec), so a refusal is waited out for up to two seconds (the full
    // suite met one).
    var report: RecoveryReport?
    for _ in 0..<100 {
      report = try? Journal.recover(path: path)
      if report != nil { break }
      usleep(20_000)
    }
    #expect(report?.originalKeptAt == path + ".damaged")
    #expect(bytes(of: path + ".damaged") == torn)
  }

  /// When another in-place recovery of the same journal takes its two steps (the original
  /// linked to NAME.damaged, the repaired journal moved to the path) while this one runs.
  enum OtherSteps: String, CaseIterable, Sendable {
    /// Both before this one looks for NAME.damaged.
    case before
    /// The link before this one starts, the move when it creates its file.
    case between
    /// Both when this one creates its file.
    case late
  }

  @Test(
    "a recovery whose journal another one repaired meanwhile changes nothing and says so; the original is never lost",
    arguments: OtherSteps.allCases)
  func repairedMeanwhile(other steps: OtherSteps) throws {
    let directory = TemporaryDirectory()
    let path = directory.file("a.journal")
    try makeJournal(at: path, count: 300, close: false)
    let torn = bytes(of: path) + Array("torn".utf8)
    write(torn, to: path)
    let repaired = directory.file("repaired.journal")
    _ = try Journal.recover(path: path, output: repaired)
    let repairedBytes = bytes(of: repaired)
    let other = OtherRecovery(path: path, repaired: repaired)
    if steps == .between { other.linkOriginal() }
    var calls = FileSystemCalls.live
    let open = calls.open
    let pread = calls.pread
    calls.pread = { descriptor, buffer, count, offset in
      if steps == .before { other.commit() }
      return pread(descriptor, buffer, count, offset)
    }
    calls.open = { name, flags, mode in
      if flags & 0o20000000 != 0 || flags & O_CREAT != 0 { other.commit() }
      return open(name, flags, mode)
    }
    #expect {
      try Journal.recover(path: path, output: nil, salvage: false, system: calls)
    } throws: { error in
      "\(error)".contains(
        steps == .before
          ? "another recovery repaired the journal meanwhile (\(path).damaged is the damaged original this one read); nothing was changed"
          : "the journal was replaced while it was recovered")
    }
    #expect(bytes(of: path + ".damaged") == torn)
    #expect(bytes(of: path) == repairedBytes)
    #expect(contents(of: directory) == ["a.journal", "a.journal.damaged"])
  }

  /// A command that replaced the journal (`generate -o J --force`) between the recovery's
  /// check that the path still names the file it read and its move: the repaired journal
  /// was renamed over the new file, which was lost, and both succeeded.
  @Test(
    "a file put at the journal's path just before the repaired one moves in is left there, and the recovery changes nothing",
    arguments: ["link", "exchange"])
  func replacedAtTheMove(step: String) throws {
    // link: before the original's kept name is made; exchange: before the swap.
    let directory = TemporaryDirectory()
    let path = directory.file("a.journal")
    try makeJournal(at: path, count: 300, close: false)
    write(bytes(of: path) + Array("torn".utf8), to: path)
    let intruder = directory.file("new.journal")
    try makeJournal(at: intruder, count: 20, close: true)
    let newBytes = bytes(of: intruder)
    var calls = FileSystemCalls.live
    let (link, exchange) = (calls.link, calls.exchange)
    // The new file moved in (as --force does) just before the recovery's step.
    let replace: @Sendable () -> Void = { _ = rename(intruder, path) }
    calls.link = { existing, new in
      if step == "link", existing == path { replace() }
      return link(existing, new)
    }
    calls.exchange = { first, second in
      if step == "exchange" { replace() }
      return exchange(first, second)
    }
    #expect {
      try Journal.recover(path: path, output: nil, salvage: false, system: calls)
    } throws: { error in
      let error = error as! JournalError
      return error.code == .alreadyExists
        && "\(error)".contains("the journal was replaced while it was recovered")
    }
    #expect(bytes(of: path) == newBytes)
    #expect(contents(of: directory) == ["a.journal"])
  }

  /// A file put at the journal's path at the swap, which could not be swapped back out,
  /// stayed under the recovery's hidden temporary name when `NAME.previous` was taken: the
  /// next writer's cleanup removed it.
  @Test(
    "a file put at the journal's path at the swap, when the swap back fails, is kept as the first free NAME.previous-N"
  )
  func replacedAtTheMoveAndNotSwappedBack() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("a.journal")
    try makeJournal(at: path, count: 300, close: false)
    write(bytes(of: path) + Array("torn".utf8), to: path)
    let intruder = directory.file("new.journal")
    try makeJournal(at: intruder, count: 20, close: true)
    let newBytes = bytes(of: intruder)
    let notes = Array("the user's own notes".utf8)
    write(notes, to: path + ".previous")
    final class Swaps: Sendable { let count = Atomic<Int>(0) }
    let swaps = Swaps()
    var calls = FileSystemCalls.live
    let exchange = calls.exchange
    // The new file moved in just before the swap; the swap back fails.
    calls.exchange = { first, second in
      guard swaps.count.add(1, ordering: .relaxed).newValue == 1 else {
        errno = EIO
        return -1
      }
      _ = rename(intruder, path)
      return exchange(first, second)
    }
    #expect {
      try Journal.recover(path: path, output: nil, salvage: false, system: calls)
    } throws: { error in
      "\(error)".contains("the file that was there is at \(path).previous-2")
    }
    #expect(bytes(of: path + ".previous-2") == newBytes)
    #expect(bytes(of: path + ".previous") == notes)
    #expect(!contents(of: directory).contains { $0.hasPrefix(".") }, "\(contents(of: directory))")
  }

  @Test(
    "a failure at any step of writing the repaired journal leaves the original and nothing else",
    arguments: [
      (FileStep.createUnnamed, ENOSPC), (.write, ENOSPC), (.syncFile, EIO), (.link, EIO),
      (.rename, EACCES), (.syncDirectory, EIO),
    ])
  func failures(step: FileStep, cause: Int32) throws {
    let directory = TemporaryDirectory()
    let path = directory.file("a.journal")
    try makeJournal(at: path, count: 300, close: false)
    let torn = bytes(of: path) + Array("torn".utf8)
    write(torn, to: path)
    let faults = FaultyFileSystem()
    faults.fail(step, with: cause)
    if step == .createUnnamed { faults.fail(.create, with: cause) }
    #expect {
      try Journal.recover(path: path, output: nil, salvage: false, system: faults.calls)
    } throws: { error in
      let error = error as! JournalError
      return error.path == path && "\(error)".contains(String(cString: strerror(cause)))
        && !"\(error)".contains(".tmp")
    }
    #expect(faults.count(step) > 0)
    let unchanged = bytes(of: path) == torn
    #expect(unchanged)
    #expect(contents(of: directory) == ["a.journal"])
  }

  /// A private (`0600`) journal with a torn tail, `a.journal` in `directory`, and the path
  /// of its repaired copy.
  func privateTornJournal(in directory: TemporaryDirectory) throws -> (
    journal: String, output: String
  ) {
    let path = directory.file("a.journal")
    try makeJournal(at: path, count: 50, close: false)
    write(bytes(of: path) + Array("torn".utf8), to: path)
    #expect(chmod(path, 0o600) == 0)
    return (path, directory.file("repaired.journal"))
  }

  /// The copy's `fchmod` was not checked: a private journal's repaired copy was readable
  /// by every user. Then it was made 0644 and narrowed after: named (a file system without
  /// unnamed files), another user could open it in that moment and read what followed. It
  /// is made as private as the journal now, so it is private even where `fchmod` fails.
  @Test(
    "a repaired copy of a private journal is private from its creation, even where its permissions cannot be changed",
    .enabled(if: currentUmask() & 0o044 == 0, "a new file must be readable by others"),
    arguments: TemporaryKind.allCases)
  func privateCopyMadePrivate(kind: TemporaryKind) throws {
    let directory = TemporaryDirectory()
    let (path, output) = try privateTornJournal(in: directory)
    let faults = faultyFileSystem(kind)
    faults.fail(.changeMode, with: EPERM)
    let report = try Journal.recover(
      path: path, output: output, salvage: false, system: faults.calls)
    #expect(report.keptRecords > 0)
    var status = stat()
    #expect(stat(output, &status) == 0)
    #expect(status.st_mode & 0o777 == 0o600, "\(String(status.st_mode & 0o777, radix: 8))")
    #expect(contents(of: directory) == ["a.journal", "repaired.journal"])
  }

  /// Where a file system makes the copy with more than it was asked for, the copy is
  /// narrowed after; where it cannot be, it is not written.
  @Test(
    "a repaired copy of a private journal that cannot be made as private is not written",
    .enabled(if: currentUmask() & 0o044 == 0, "a new file must be readable by others"))
  func privateCopyNotMadePrivate() throws {
    let directory = TemporaryDirectory()
    let (path, output) = try privateTornJournal(in: directory)
    let faults = FaultyFileSystem()
    faults.fail(.changeMode, with: EPERM)
    var calls = faults.calls
    // A file system that makes every file 0644, whatever it is asked for.
    let open = calls.open
    calls.open = { path, flags, _ in open(path, flags, 0o644) }
    #expect {
      try Journal.recover(path: path, output: output, salvage: false, system: calls)
    } throws: { error in
      let text = "\(error)"
      return text.hasPrefix(
        "\(output): cannot make the new file as private as the file it is made from (0600 (rw-------)): it would have 0644"
      ) && text.contains(String(cString: strerror(EPERM)))
        && text.hasSuffix("; nothing is written there")
    }
    #expect(contents(of: directory) == ["a.journal"])
  }

  @Test("the lock is taken through the seam: a journal that cannot be locked is not recovered")
  func lockFailure() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("a.journal")
    try makeJournal(at: path, count: 10, close: false)
    let faults = FaultyFileSystem()
    faults.fail(.lock, with: ENOLCK)
    #expect {
      try Journal.recover(path: path, output: nil, salvage: false, system: faults.calls)
    } throws: { error in
      "\(error)".contains("cannot lock the journal")
        && "\(error)".contains(String(cString: strerror(ENOLCK)))
    }
    #expect(contents(of: directory) == ["a.journal"])
  }
}

/// Another recovery's commit, once: the journal linked to `NAME.damaged`, the repaired
/// one moved to its path; the first step alone when asked.
private final class OtherRecovery: Sendable {
  let path: String
  let repaired: String
  let done = Mutex(false)

  init(path: String, repaired: String) {
    self.path = path
    self.repaired = repaired
  }

  let linked = Mutex(false)

  /// The first step: the original linked to NAME.damaged (once).
  func linkOriginal() {
    guard !linked.withLock({ Self.once(&$0) }) else { return }
    #expect(link(path, path + ".damaged") == 0)
  }

  /// Both steps, those not taken yet (once).
  func commit() {
    guard !done.withLock({ Self.once(&$0) }) else { return }
    linkOriginal()
    #expect(rename(repaired, path) == 0)
  }

  /// Whether `flag` was set, setting it.
  private static func once(_ flag: inout Bool) -> Bool {
    defer { flag = true }
    return flag
  }
}
