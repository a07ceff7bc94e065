import Foundation
package import RewindJournal
import Synchronization

/// A disk that can lose power: the journal's system calls (``FileSystemCalls``) over one
/// real directory, with what a power cut would keep told apart from what it may lose, as
/// SQLite's crash-test VFS and LazyFS model it.
///
/// Every call reaches the real directory at once, so that the code under test (and any
/// code that reads the files without the seam, such as a command opening its input) sees
/// what it would see in the page cache. Beside that, the disk keeps the *durable* state:
/// each file's content as of its last `fsync`, and the directory's names as of the
/// directory's last `fsync`. `fsync` only moves that line (it never waits for the real
/// disk: durability here is the model's, not the machine's, which keeps thousands of
/// trials fast).
///
/// At a power cut (``cutPower(beforeStep:seed:)``, or ``restart()`` when none came) the
/// disk draws, from a seed, what the directory holds after the reboot:
/// - its names: the durable ones, then none, a prefix or all of the names created, linked,
///   renamed and removed since the directory's last `fsync`, in order (a journaling file
///   system commits its metadata in order; POSIX promises nothing without the `fsync`);
/// - the content of each file a name leads to: its synced content, then one of: none of
///   the writes and truncations since its last `fsync`; all of them; an arbitrary subset
///   of them, in order; each write torn at 512-byte sector boundaries, every sector kept
///   or lost on its own; or all of them up to one, of which only the first sectors
///   arrived. A write kept past a lost one leaves zeros before it (a hole).
///
/// From the cut on the disk is gone: every call fails with `EIO`, except `close`, which
/// still frees the descriptor. The code under test runs on to its end, and nothing it
/// does reaches the directory. ``restart()`` then writes the drawn state into the
/// directory and returns a new disk over it, on which everything is durable: the machine
/// after the reboot.
///
/// The disk tracks the regular files directly in its directory (no subdirectories);
/// calls on other paths go to the real file system untouched. It lives in the tests, not
/// in `RewindJournal`: no shipped code needs it, and the seam it plugs into is already
/// `package`.
package final class SimulatedDisk: Sendable {
  /// The directory the disk holds.
  package let directory: String
  /// Whether the disk makes unnamed files (`O_TMPFILE`); without them the writers fall
  /// back to named temporary files, as on a file system that has none.
  package let unnamedFiles: Bool
  private let state: Mutex<State>

  /// A write or a truncation of one file, since its last `fsync`.
  private enum Change {
    case write(offset: Int, bytes: [UInt8])
    case truncate(length: Int)
  }

  /// A change of the directory's names, since its last `fsync`.
  private enum NameChange {
    /// A new name for a file: `open` with `O_CREAT`, or `link`.
    case add(String, file: Int)
    case rename(String, to: String)
    /// Two names swapped (`renameat2` with `RENAME_EXCHANGE`).
    case exchange(String, String)
    case remove(String)
  }

  private struct File {
    var durable: [UInt8]
    var pending: [Change] = []
  }

  /// What a power cut left: the names and the content of each file.
  private struct Image {
    var names: [String: Int]
    var contents: [Int: [UInt8]]
    var summary: PowerCut
  }

  private struct State {
    /// Files by the disk's own number (inode numbers are reused by the real file system).
    var files: [Int: File] = [:]
    var nextFile = 0
    /// The names as of the directory's last `fsync`, and the changes since.
    var durableNames: [String: Int] = [:]
    var pendingNames: [NameChange] = []
    /// The names as the directory has them now.
    var names: [String: Int] = [:]
    /// Open descriptors of the disk's files, and of its directory.
    var descriptors: [Int32: Int] = [:]
    var directoryDescriptors: Set<Int32> = []
    /// Calls that changed the disk so far.
    var steps = 0
    /// The step the power is cut before, and the seed of what the cut keeps.
    var cut: (step: Int, seed: UInt64)?
    var image: Image?
  }

  /// A disk over `directory`: every regular file in it now counts as durable.
  package init(directory: String, unnamedFiles: Bool = true) {
    self.directory = directory
    self.unnamedFiles = unnamedFiles
    var state = State()
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    for name in names.sorted() {
      var status = stat()
      guard lstat(directory + "/" + name, &status) == 0, status.st_mode & S_IFMT == S_IFREG
      else { continue }
      let content = TestSupport.bytes(of: directory + "/" + name)
      let number = state.nextFile
      state.nextFile += 1
      state.files[number] = File(durable: content)
      state.durableNames[name] = number
      state.names[name] = number
    }
    self.state = Mutex(state)
  }

  /// The number of calls that changed the disk so far (writes, truncations, `fsync`s,
  /// files created, links, renames, removals): the steps a power cut can come before.
  package var steps: Int { state.withLock { $0.steps } }

  /// Whether the power is out.
  package var isCut: Bool { state.withLock { $0.image != nil } }

  /// Cuts the power just before step `step` (1 for the first), drawing what survives
  /// from `seed`. If the code under test takes fewer steps, ``restart()`` cuts it after
  /// the last.
  package func cutPower(beforeStep step: Int, seed: UInt64) {
    precondition(step >= 1, "steps count from 1")
    state.withLock { $0.cut = (step, seed) }
  }

  /// Cuts the power now (unless it is out already), with the seed given to
  /// ``cutPower(beforeStep:seed:)`` or `seed`.
  /// - Returns: what the cut kept and lost.
  @discardableResult
  package func cutPowerNow(seed: UInt64 = 0) -> PowerCut {
    state.withLock { state in
      if state.image == nil { state.image = Self.drawImage(state, seed: state.cut?.seed ?? seed) }
      return state.image!.summary
    }
  }

  /// Reboots: cuts the power if it is still on, replaces every file of the directory with
  /// what the cut left, and returns a disk over it on which all of that is durable.
  ///
  /// Call it once the code under test is done with this disk (descriptors it still holds
  /// may be closed later: `close` stays harmless).
  package func restart() -> SimulatedDisk {
    cutPowerNow()
    let image = state.withLock { $0.image! }
    let manager = FileManager.default
    for name in (try? manager.contentsOfDirectory(atPath: directory)) ?? [] {
      var status = stat()
      let path = directory + "/" + name
      guard lstat(path, &status) == 0, status.st_mode & S_IFMT != S_IFDIR else { continue }
      unlink(path)
    }
    var written: [Int: String] = [:]
    for (name, file) in image.names.sorted(by: { $0.key < $1.key }) {
      let path = directory + "/" + name
      if let first = written[file] {
        precondition(link(first, path) == 0, "cannot link \(path): errno \(errno)")
      } else {
        TestSupport.write(image.contents[file] ?? [], to: path)
        written[file] = path
      }
    }
    return SimulatedDisk(directory: directory, unnamedFiles: unnamedFiles)
  }

  /// The system calls through this disk.
  package var calls: FileSystemCalls {
    let live = FileSystemCalls.live
    var calls = live
    calls.open = { [self] path, flags, mode in
      state.withLock { state in
        if state.image != nil { return Self.fail(EIO) }
        if path == directory {
          if flags & SimulatedDisk.unnamedFlag != 0 {
            guard unnamedFiles else { return Self.fail(EOPNOTSUPP) }
            if let failed = step(&state) { return failed }
            let descriptor = live.open(path, flags, mode)
            if descriptor >= 0 {
              state.descriptors[descriptor] = Self.newFile(&state, content: [])
            }
            return descriptor
          }
          let descriptor = live.open(path, flags, mode)
          if descriptor >= 0 { state.directoryDescriptors.insert(descriptor) }
          return descriptor
        }
        guard let name = name(of: path) else { return live.open(path, flags, mode) }
        precondition(flags & O_TRUNC == 0, "SimulatedDisk: O_TRUNC is not modelled")
        let existed = state.names[name] != nil
        if flags & O_CREAT != 0, !existed || flags & O_EXCL != 0 {
          if let failed = step(&state) { return failed }
        }
        let descriptor = live.open(path, flags, mode)
        guard descriptor >= 0 else { return descriptor }
        if let file = state.names[name] {
          state.descriptors[descriptor] = file
        } else if flags & O_CREAT != 0 {
          let file = Self.newFile(&state, content: [])
          state.descriptors[descriptor] = file
          state.names[name] = file
          state.pendingNames.append(.add(name, file: file))
        } else {
          // Made without the seam since the disk started: it counts as durable.
          let file = Self.newFile(&state, content: TestSupport.bytes(of: path))
          state.descriptors[descriptor] = file
          state.names[name] = file
          state.durableNames[name] = file
        }
        return descriptor
      }
    }
    calls.close = { [self] descriptor in
      state.withLock { state in
        state.descriptors[descriptor] = nil
        state.directoryDescriptors.remove(descriptor)
      }
      return live.close(descriptor)
    }
    calls.fstat = { [self] descriptor, status in
      if isCut { return Int32(Self.fail(EIO)) }
      return live.fstat(descriptor, status)
    }
    calls.stat = { [self] path, status in
      if isCut { return Int32(Self.fail(EIO)) }
      return live.stat(path, status)
    }
    calls.read = { [self] descriptor, buffer, count in
      if isCut { return Int(Self.fail(EIO)) }
      return live.read(descriptor, buffer, count)
    }
    calls.pread = { [self] descriptor, buffer, count, offset in
      if isCut { return Int(Self.fail(EIO)) }
      return live.pread(descriptor, buffer, count, offset)
    }
    calls.fcntlLock = { [self] descriptor, command, lock in
      if isCut { return Int32(Self.fail(EIO)) }
      return live.fcntlLock(descriptor, command, lock)
    }
    calls.pwrite = { [self] descriptor, buffer, count, offset in
      state.withLock { state in
        if state.image != nil { return Int(Self.fail(EIO)) }
        guard let file = state.descriptors[descriptor] else {
          return live.pwrite(descriptor, buffer, count, offset)
        }
        if let failed = step(&state) { return Int(failed) }
        let written = live.pwrite(descriptor, buffer, count, offset)
        if written > 0, let buffer {
          let bytes = [UInt8](UnsafeRawBufferPointer(start: buffer, count: written))
          state.files[file]!.pending.append(.write(offset: Int(offset), bytes: bytes))
        }
        return written
      }
    }
    calls.ftruncate = { [self] descriptor, length in
      state.withLock { state in
        if state.image != nil { return Self.fail(EIO) }
        guard let file = state.descriptors[descriptor] else {
          return live.ftruncate(descriptor, length)
        }
        if let failed = step(&state) { return failed }
        let result = live.ftruncate(descriptor, length)
        if result == 0 { state.files[file]!.pending.append(.truncate(length: Int(length))) }
        return result
      }
    }
    calls.fsync = { [self] descriptor in
      state.withLock { state in
        if state.image != nil { return Self.fail(EIO) }
        if state.directoryDescriptors.contains(descriptor) {
          if let failed = step(&state) { return failed }
          state.durableNames = state.names
          state.pendingNames = []
          return 0
        }
        guard let number = state.descriptors[descriptor] else { return live.fsync(descriptor) }
        if let failed = step(&state) { return failed }
        var file = state.files[number]!
        for change in file.pending { Self.apply(change, to: &file.durable) }
        file.pending = []
        state.files[number] = file
        return 0
      }
    }
    calls.link = { [self] existing, new in
      state.withLock { state in
        if state.image != nil { return Self.fail(EIO) }
        guard let newName = name(of: new) else { return live.link(existing, new) }
        let file: Int?
        if existing.hasPrefix("/proc/self/fd/") {
          file = Int32(existing.dropFirst("/proc/self/fd/".count)).flatMap {
            state.descriptors[$0]
          }
        } else {
          file = name(of: existing).flatMap { state.names[$0] }
        }
        if let failed = step(&state) { return failed }
        let result = live.link(existing, new)
        if result == 0, let file {
          state.names[newName] = file
          state.pendingNames.append(.add(newName, file: file))
        }
        return result
      }
    }
    calls.rename = { [self] from, to in
      state.withLock { state in
        if state.image != nil { return Self.fail(EIO) }
        guard let fromName = name(of: from), let toName = name(of: to) else {
          return live.rename(from, to)
        }
        if let failed = step(&state) { return failed }
        let result = live.rename(from, to)
        if result == 0, fromName != toName, let file = state.names[fromName] {
          state.names[toName] = file
          state.names[fromName] = nil
          state.pendingNames.append(.rename(fromName, to: toName))
        }
        return result
      }
    }
    calls.exchange = { [self] first, second in
      state.withLock { state in
        if state.image != nil { return Self.fail(EIO) }
        guard let firstName = name(of: first), let secondName = name(of: second) else {
          return live.exchange(first, second)
        }
        if let failed = step(&state) { return failed }
        let result = live.exchange(first, second)
        if result == 0, firstName != secondName {
          (state.names[firstName], state.names[secondName]) = (
            state.names[secondName], state.names[firstName]
          )
          state.pendingNames.append(.exchange(firstName, secondName))
        }
        return result
      }
    }
    calls.unlink = { [self] path in
      state.withLock { state in
        if state.image != nil { return Self.fail(EIO) }
        guard let name = name(of: path) else { return live.unlink(path) }
        if let failed = step(&state) { return failed }
        let result = live.unlink(path)
        if result == 0 {
          state.names[name] = nil
          state.pendingNames.append(.remove(name))
        }
        return result
      }
    }
    return calls
  }

  /// `O_TMPFILE` without `O_DIRECTORY`, as the writer passes it.
  private static let unnamedFlag: Int32 = 0o20000000

  /// The name of `path` in the disk's directory, or nil if it is elsewhere.
  private func name(of path: String) -> String? {
    guard let slash = path.lastIndex(of: "/"), path[..<slash] == directory else { return nil }
    let name = String(path[path.index(after: slash)...])
    return name.isEmpty || name == "." || name == ".." ? nil : name
  }

  /// Counts a step; at the step the power is cut before, cuts it and returns the failure.
  private func step(_ state: inout State) -> Int32? {
    state.steps += 1
    guard let cut = state.cut, state.steps >= cut.step else { return nil }
    state.image = Self.drawImage(state, seed: cut.seed)
    return Self.fail(EIO)
  }

  private static func fail(_ number: Int32) -> Int32 {
    errno = number
    return -1
  }

  private static func newFile(_ state: inout State, content: [UInt8]) -> Int {
    let number = state.nextFile
    state.nextFile += 1
    state.files[number] = File(durable: content)
    return number
  }

  private static func apply(_ change: Change, to content: inout [UInt8]) {
    switch change {
    case .write(let offset, let bytes):
      let end = offset + bytes.count
      if content.count < end {
        content.append(contentsOf: repeatElement(0, count: end - content.count))
      }
      content.replaceSubrange(offset..<end, with: bytes)
    case .truncate(let length):
      if content.count > length {
        content.removeSubrange(length...)
      } else {
        content.append(contentsOf: repeatElement(0, count: length - content.count))
      }
    }
  }

  /// A write cut at the sector boundaries of the file it goes to.
  private static func sectors(of change: Change) -> [Change] {
    guard case .write(let offset, let bytes) = change else { return [change] }
    var pieces: [Change] = []
    var start = offset
    while start < offset + bytes.count {
      let end = min((start / sectorSize + 1) * sectorSize, offset + bytes.count)
      pieces.append(.write(offset: start, bytes: Array(bytes[(start - offset)..<(end - offset)])))
      start = end
    }
    return pieces
  }

  private static let sectorSize = 512

  /// What a power cut now leaves, drawn from `seed`.
  private static func drawImage(_ state: State, seed: UInt64) -> Image {
    var random = SplitMix64(seed: seed)
    var summary = PowerCut(step: state.steps)
    var names = state.durableNames
    let kept: Int
    switch random.next() % 3 {
    case 0: kept = 0
    case 1: kept = Int(random.next() % UInt64(state.pendingNames.count + 1))
    default: kept = state.pendingNames.count
    }
    summary.nameChangesKept = kept
    summary.nameChangesLost = state.pendingNames.count - kept
    for change in state.pendingNames.prefix(kept) {
      switch change {
      case .add(let name, let file): names[name] = file
      case .rename(let from, let to):
        if let file = names[from] {
          names[to] = file
          names[from] = nil
        }
      case .exchange(let first, let second):
        (names[first], names[second]) = (names[second], names[first])
      case .remove(let name): names[name] = nil
      }
    }
    var contents: [Int: [UInt8]] = [:]
    for number in Set(names.values).sorted() {
      let file = state.files[number]!
      var content = file.durable
      var changes: [Change]
      let mode = Loss.allCases[Int(random.next() % UInt64(Loss.allCases.count))]
      switch mode {
      case .unsyncedLost:
        changes = []
      case .unsyncedKept:
        changes = file.pending
      case .subset:
        changes = file.pending.filter { _ in random.next() % 2 == 0 }
      case .tornSectors:
        changes = file.pending.flatMap(sectors).filter { _ in random.next() % 2 == 0 }
      case .tornLastWrite:
        let whole = Int(random.next() % UInt64(file.pending.count + 1))
        changes = Array(file.pending.prefix(whole))
        if whole < file.pending.count {
          let pieces = sectors(of: file.pending[whole])
          changes += pieces.prefix(Int(random.next() % UInt64(pieces.count + 1)))
        }
      }
      if !file.pending.isEmpty { summary.losses[mode, default: 0] += 1 }
      for change in changes { apply(change, to: &content) }
      contents[number] = content
    }
    return Image(names: names, contents: contents, summary: summary)
  }
}

/// What a power cut of a ``SimulatedDisk`` kept and lost: for the tests' figures.
package struct PowerCut: Sendable, CustomStringConvertible {
  /// The steps taken before the cut.
  package var step: Int
  /// The changes of names since the directory's last `fsync` that the cut kept and lost.
  package var nameChangesKept = 0
  package var nameChangesLost = 0
  /// How the unsynced writes of the files were treated, by how many files.
  package var losses: [Loss: Int] = [:]

  init(step: Int) { self.step = step }

  package var description: String {
    let files = Loss.allCases.compactMap { loss in losses[loss].map { "\($0) \(loss)" } }
    return
      "power cut after step \(step): \(nameChangesKept) name changes kept, \(nameChangesLost) lost; files: \(files.isEmpty ? "all synced" : files.joined(separator: ", "))"
  }
}

/// How a power cut treats the writes made to a file since its last `fsync`.
package enum Loss: String, CaseIterable, Sendable {
  /// None of them reached the disk.
  case unsyncedLost = "unsynced writes lost"
  /// All of them did (the page cache was written back just in time).
  case unsyncedKept = "unsynced writes kept"
  /// An arbitrary subset of them did.
  case subset = "a subset kept"
  /// Each 512-byte sector of each of them arrived or not.
  case tornSectors = "torn at sectors"
  /// Those before one did, and only the first sectors of that one.
  case tornLastWrite = "last write torn"
}
