import Foundation
import TestSupport
import Testing

@testable import RewindJournal

/// The power-loss model itself: what a cut keeps, loses and tears, so that the power-loss
/// tests built on it test what they say.
@Suite("Simulated disk")
struct SimulatedDiskTests {
  /// Creates `path` through `calls` and writes `bytes` at offset 0; returns the descriptor.
  func create(_ path: String, _ bytes: [UInt8], _ calls: FileSystemCalls) -> Int32 {
    let descriptor = calls.open(path, O_RDWR | O_CREAT | O_EXCL, 0o644)
    precondition(descriptor >= 0)
    put(bytes, at: 0, descriptor, calls)
    return descriptor
  }

  func put(_ bytes: [UInt8], at offset: Int64, _ descriptor: Int32, _ calls: FileSystemCalls) {
    let written = bytes.withUnsafeBytes {
      calls.pwrite(descriptor, $0.baseAddress, bytes.count, offset)
    }
    precondition(written == bytes.count)
  }

  func syncDirectory(_ path: String, _ calls: FileSystemCalls) {
    let descriptor = calls.open(path, O_RDONLY | O_DIRECTORY, 0)
    precondition(descriptor >= 0 && calls.fsync(descriptor) == 0)
    _ = calls.close(descriptor)
  }

  @Test("synced bytes survive every cut; unsynced ones are lost, kept, or torn at sectors")
  func unsyncedWrites() {
    let synced = [UInt8](repeating: 1, count: 700)
    let unsynced = [UInt8](repeating: 2, count: 2_000)
    var outcomes: Set<String> = []
    for seed in 0..<300 as Range<UInt64> {
      let directory = TemporaryDirectory()
      let path = directory.file("file")
      let disk = SimulatedDisk(directory: directory.path)
      let calls = disk.calls
      let descriptor = create(path, synced, calls)
      #expect(calls.fsync(descriptor) == 0)
      syncDirectory(directory.path, calls)
      put(unsynced, at: 700, descriptor, calls)
      _ = calls.close(descriptor)
      disk.cutPowerNow(seed: seed)
      _ = disk.restart()
      let content = bytes(of: path)
      #expect(Array(content.prefix(700)) == synced, "seed \(seed)")
      // Each sector after the synced bytes holds the unsynced write or zeros.
      let rest = Array(content.dropFirst(700))
      #expect(rest.count <= unsynced.count)
      var pieces: [String] = []
      var offset = 700
      while offset < content.count {
        let end = min((offset / 512 + 1) * 512, content.count)
        let sector = content[offset..<end]
        #expect(
          sector.allSatisfy { $0 == 2 } || sector.allSatisfy { $0 == 0 },
          "seed \(seed): a sector mixes old and new bytes")
        pieces.append(sector.first == 2 ? "new" : "zero")
        offset = end
      }
      outcomes.insert(pieces.joined(separator: ","))
    }
    // Lost, kept whole, and torn (a hole, a prefix) all happen.
    #expect(outcomes.contains(""))
    #expect(outcomes.contains("new,new,new,new,new"))
    #expect(outcomes.contains { $0.contains("zero") })
    #expect(outcomes.contains { $0.hasPrefix("new") && $0.count < "new,new,new,new,new".count })
  }

  @Test("a new file or a rename whose directory was not synced may be forgotten")
  func unsyncedNames() {
    var created: Set<Bool> = []
    var renamed: Set<[String]> = []
    for seed in 0..<100 as Range<UInt64> {
      let directory = TemporaryDirectory()
      write([9], to: directory.file("old"))
      let disk = SimulatedDisk(directory: directory.path)
      let calls = disk.calls
      let descriptor = create(directory.file("new"), [7], calls)
      #expect(calls.fsync(descriptor) == 0)
      _ = calls.close(descriptor)
      #expect(calls.rename(directory.file("old"), directory.file("moved")) == 0)
      disk.cutPowerNow(seed: seed)
      _ = disk.restart()
      let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
      created.insert(names.contains("new"))
      if names.contains("new") { #expect(bytes(of: directory.file("new")) == [7]) }
      // The file synced before the rename is under one name or the other, whole.
      let old = names.filter { $0 == "old" || $0 == "moved" }.sorted()
      #expect(old.count == 1 && bytes(of: directory.file(old[0])) == [9], "seed \(seed)")
      renamed.insert(old)
    }
    #expect(created == [true, false])
    #expect(renamed == [["old"], ["moved"]])
  }

  @Test("synced names survive; after the cut every call fails and changes nothing")
  func afterTheCut() {
    let directory = TemporaryDirectory()
    let path = directory.file("file")
    let disk = SimulatedDisk(directory: directory.path)
    let calls = disk.calls
    let descriptor = create(path, [1, 2, 3], calls)
    #expect(calls.fsync(descriptor) == 0)
    syncDirectory(directory.path, calls)
    #expect(disk.steps == 4)
    disk.cutPower(beforeStep: 6, seed: 1)
    put([4], at: 3, descriptor, calls)  // step 5
    #expect(!disk.isCut)
    #expect(calls.fsync(descriptor) == -1 && errno == EIO)  // step 6: the cut
    #expect(disk.isCut)
    #expect(calls.unlink(path) == -1 && errno == EIO)
    #expect(calls.open(directory.file("other"), O_RDWR | O_CREAT, 0o644) == -1)
    #expect(calls.close(descriptor) == 0)
    #expect(FileManager.default.fileExists(atPath: path), "nothing after the cut is done")
    let next = disk.restart()
    #expect([[1, 2, 3], [1, 2, 3, 4]].contains(bytes(of: path)))
    #expect(next.steps == 0 && !next.isCut)
  }

  @Test("a file written beside its destination and moved into place survives once committed")
  func atomicFile() throws {
    for unnamed in [true, false] {
      let directory = TemporaryDirectory()
      let path = directory.file("out")
      write([1], to: path)
      let disk = SimulatedDisk(directory: directory.path, unnamedFiles: unnamed)
      let file = try AtomicFileWriter(
        FileDestination(path, replacingExisting: true), system: disk.calls)
      try file.write([2, 2])
      try file.commit()
      _ = disk.restart()
      #expect(bytes(of: path) == [2, 2], "unnamed files: \(unnamed)")
    }
  }
}
