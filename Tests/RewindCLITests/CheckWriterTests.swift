import Foundation
import Navigation
import RewindCLI
import RewindJournal
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `check` of a journal with a torn tail asks once who holds it: a writer that exits
/// between two questions made it pass the journal as being written and print no pid.
@Suite("rewind check: the writer of a journal with a torn tail")
struct CheckWriterTests {
  /// File system calls whose lock tests say that process 4242 holds the journal's write
  /// lock the first time they are asked, and that nobody holds it after: a writer that
  /// exits right after the first question.
  static func writerExitingAfterOneQuestion() -> FileSystemCalls {
    let asked = Mutex(0)
    var calls = FileSystemCalls.live
    calls.fcntlLock = { descriptor, command, lock in
      // F_OFD_GETLK (36) tests the exclusion lock on byte 0, F_GETLK the holder's mark.
      guard command == 36 || command == F_GETLK else {
        return FileSystemCalls.live.fcntlLock(descriptor, command, lock)
      }
      let first = asked.withLock { count in
        if command == 36 { count += 1 }
        return count == 1
      }
      lock.pointee.l_type = Int16(first ? F_WRLCK : F_UNLCK)
      if first && command == F_GETLK { lock.pointee.l_pid = 4242 }
      return 0
    }
    return calls
  }

  @Test("a writer exiting after the check asked leaves the journal being written, with its pid")
  func oneAnswer() throws {
    let directory = TemporaryDirectory()
    let journal = directory.file("live.journal")
    let whole = bytes(of: journalsDirectory + "/day-menu.journal")
    let last = try #require(
      try JournalReader(path: journalsDirectory + "/day-menu.journal").frames.last)
    // Its last frame cut short: the frame in progress of a writer, or a tear when none.
    write(Array(whole[..<(Int(last.offset) + 30)]), to: journal)
    let context = Context.capture(environment: ["NO_COLOR": "1"])
    context.fileSystem = Self.writerExitingAfterOneQuestion()
    let status = RewindTool.cli(domains: [NavigationDomain.self]).run(
      arguments: ["check", journal], context: context)
    #expect(status == 0, "\(context.stdout.text)\(context.stderr.text)")
    #expect(
      context.stdout.text.contains(
        "are not a whole frame, and are not checked: the journal is being written (pid 4242), and they are the frame in progress"
      ), "\(context.stdout.text)")
  }
}
