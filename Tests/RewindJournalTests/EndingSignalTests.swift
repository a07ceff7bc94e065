import Foundation
import JournalFixtures
import Synchronization
import TestSupport
import Testing

@testable import RewindJournal

/// Lets `SIGINT`, `SIGTERM` and `SIGHUP` reach the calling thread: an exit test's body
/// runs on a thread of the concurrency pool, which blocks them (and its process started
/// with them blocked).
private func unblockEndingSignals() {
  var signals = sigset_t()
  sigemptyset(&signals)
  for signal in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&signals, signal) }
  pthread_sigmask(SIG_UNBLOCK, &signals, nil)
}

/// Writes "the new file" over the file at `path`, through `calls`.
private func replace(_ path: String, through calls: FileSystemCalls) throws {
  let file = try AtomicFileWriter(FileDestination(path, replacingExisting: true), system: calls)
  try file.write(Array("the new file".utf8))
  try file.commit()
}

/// Counts calls, from any thread.
private final class Calls: Sendable {
  let count = Atomic<Int>(0)
  /// The number of this call, from 1.
  func next() -> Int { count.add(1, ordering: .relaxed).newValue }
}

/// A process whose writer a signal ends, in a child process (an exit test): the names it
/// made are removed, the process dies by the signal, and never in the middle of moving a
/// new file in.
@Suite("A signal that ends the process: temporary names removed, replacements whole")
struct EndingSignalTests {
  @Test(
    "a signal while a new file is written under a hidden name removes it, and the process dies by the signal",
    arguments: [SIGINT, SIGTERM, SIGHUP], [false, true])
  func signalWhileWriting(signal: Int32, replacing: Bool) async throws {
    let directory = TemporaryDirectory()
    let path = directory.file("out.bin")
    let previous = Array("the previous file".utf8)
    if replacing { write(previous, to: path) }
    await #expect(processExitsWith: .signal(signal)) {
      [path = path as String, signal = signal as Int32, replacing = replacing as Bool] in
      EndingSignals.install()
      unblockEndingSignals()
      // As on a file system without unnamed files: the partial file has a name.
      AtomicFileWriter.unnamedFiles = false
      let file = try AtomicFileWriter(FileDestination(path, replacingExisting: replacing))
      try file.write([UInt8](repeating: 1, count: 100_000))
      raise(signal)
      exit(0)
    }
    #expect(contents(of: directory) == (replacing ? ["out.bin"] : []))
    if replacing { #expect(bytes(of: path) == previous) }
  }

  @Test(
    "a signal while a replacement moves the new file in waits for its last steps, then ends the process",
    arguments: ["link", "rename", "directory sync"], [false, true])
  func signalWhileMovingIn(step: String, unnamed: Bool) async throws {
    let directory = TemporaryDirectory()
    let path = directory.file("out.bin")
    write(Array("the previous file".utf8), to: path)
    await #expect(processExitsWith: .signal(SIGINT)) {
      [path = path as String, step = step as String, unnamed = unnamed as Bool] in
      EndingSignals.install()
      unblockEndingSignals()
      AtomicFileWriter.unnamedFiles = unnamed
      var calls = FileSystemCalls.live
      let (link, rename, fsync) = (calls.link, calls.rename, calls.fsync)
      let syncs = Calls()
      // The first link: the unnamed file's name, or the previous file's second one.
      let links = Calls()
      calls.link = { existing, new in
        if step == "link", links.next() == 1 { raise(SIGINT) }
        return link(existing, new)
      }
      calls.rename = { from, to in
        if step == "rename" { raise(SIGINT) }
        return rename(from, to)
      }
      // The file's sync, then its directory's.
      calls.fsync = { descriptor in
        if step == "directory sync", syncs.next() == 2 { raise(SIGINT) }
        return fsync(descriptor)
      }
      try replace(path, through: calls)
      // Not reached: the signal ends the process once the commit is done.
      exit(0)
    }
    #expect(bytes(of: path) == Array("the new file".utf8))
    #expect(contents(of: directory) == ["out.bin"])
  }

  /// A replacement that fails while it holds a signal back ends the process by the
  /// signal as it returns, before the command can say its error (where the previous file
  /// went): it is said on standard error first (it was lost, and the exit was 130 with no
  /// word).
  @Test(
    "a replacement that fails while a signal waits says its error before the signal ends the process"
  )
  func failureWhileASignalWaits() async throws {
    let directory = TemporaryDirectory()
    let path = directory.file("out.bin")
    let said = directory.file("said.txt")
    write(Array("the previous file".utf8), to: path)
    await #expect(processExitsWith: .signal(SIGINT)) {
      [path = path as String, said = said as String] in
      EndingSignals.install()
      unblockEndingSignals()
      var calls = FileSystemCalls.live
      calls.rename = { _, _ in
        raise(SIGINT)
        errno = EIO
        return -1
      }
      calls.warn = { error in
        let line = Array("\(error)\n".utf8)
        let descriptor = open(said, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        _ = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
      }
      try replace(path, through: calls)
      exit(0)
    }
    #expect(bytes(of: path) == Array("the previous file".utf8))
    let text = String(decoding: bytes(of: said), as: UTF8.self)
    #expect(
      text.contains("out.bin") && text.contains("interrupted, after this failure: "), "\(text)")
  }

  @Test(
    "a second signal while a replacement moves the new file in ends the process at once, the previous file kept under its second name"
  )
  func secondSignalWhileMovingIn() async throws {
    let directory = TemporaryDirectory()
    let path = directory.file("out.bin")
    let previous = Array("the previous file".utf8)
    write(previous, to: path)
    await #expect(processExitsWith: .signal(SIGTERM)) { [path = path as String] in
      EndingSignals.install()
      unblockEndingSignals()
      var calls = FileSystemCalls.live
      let fsync = calls.fsync
      let syncs = Calls()
      calls.fsync = { descriptor in
        if syncs.next() == 2 {
          raise(SIGTERM)
          raise(SIGTERM)
        }
        return fsync(descriptor)
      }
      try replace(path, through: calls)
      exit(0)
    }
    // Cut short after the move: the new file in place, the previous one under its hidden
    // second name, which no signal and no cleanup removes (it is that file's only name).
    #expect(bytes(of: path) == Array("the new file".utf8))
    let left = contents(of: directory).filter { $0 != "out.bin" }
    try #require(left.count == 1, "\(left)")
    #expect(left[0].hasPrefix(".out.bin.") && left[0].hasSuffix(".previous.tmp"), "\(left)")
    #expect(bytes(of: directory.file(left[0])) == previous)
    let next = try AtomicFileWriter(FileDestination(path, replacingExisting: true))
    next.discard()
    #expect(contents(of: directory).count == 2)
  }

  /// A live recording's journal is made at its own path (`JournalWriter.create(at:)`):
  /// a signal before its header was written left an empty file there, which the next
  /// recording to that path refused ("already exists") and no reader took for a journal.
  @Test(
    "a signal before a new journal's header is written removes the file; one after it leaves the journal",
    arguments: ["header", "sync"])
  func signalAsAJournalStarts(step: String) async throws {
    let directory = TemporaryDirectory()
    let path = directory.file("live.journal")
    await #expect(processExitsWith: .signal(SIGINT)) {
      [path = path as String, step = step as String] in
      EndingSignals.install()
      unblockEndingSignals()
      var calls = FileSystemCalls.live
      let (pwrite, fsync) = (calls.pwrite, calls.fsync)
      // The header's write; the file's sync, once the header is written.
      calls.pwrite = { descriptor, bytes, count, offset in
        if step == "header" { raise(SIGINT) }
        return pwrite(descriptor, bytes, count, offset)
      }
      calls.fsync = { descriptor in
        if step == "sync" { raise(SIGINT) }
        return fsync(descriptor)
      }
      var options = JournalWriterOptions()
      options.system = calls
      _ = try JournalWriter.create(at: path, header: header(), options: options)
      exit(0)
    }
    if step == "header" {
      #expect(contents(of: directory) == [])
    } else {
      #expect(contents(of: directory) == ["live.journal"])
      let reader = try JournalReader(path: path)
      #expect(reader.header.domain == header().domain)
    }
  }
}
