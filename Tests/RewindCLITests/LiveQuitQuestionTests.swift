import Foundation
import RewindCore
import RewindJournal
import Testing

@testable import RewindCLI

/// What `live`'s `q` asks while its journal fails: a box drawn from the store's state.
@Suite("live's question before quitting with events not written")
struct LiveQuitQuestionTests {
  /// The store's error on a full disk.
  let full = RewindError(
    .recording, "s.journal: flushing the journal failed",
    cause: JournalError(
      .io, "cannot write 1017 bytes", path: "s.journal",
      cause: .errno(ENOSPC, name: "No space left on device")))

  /// One key said both "writes them" and "they are lost" (`q`): which one happened
  /// depended on whether enough space was freed.
  @Test("events waiting: free space and q writes them; Q or Ctrl-C loses them")
  func waiting() {
    let box = LiveJournalFailure.quitQuestion(recording: true, error: full, pending: 3_000)
    #expect(box.title == "3,000 events are not written yet: disk full")
    #expect(box.entries.map(\.keys) == ["free space, q", "Q, Ctrl-C"])
    #expect(!box.footer.contains("Still"))
    let again = LiveJournalFailure.quitQuestion(
      recording: true, error: full, pending: 3_000, stillUnwritten: true)
    #expect(again.footer.hasPrefix("Still not written: No space left on device"), "\(again)")
  }

  /// A store that stopped recording (the journal takes no more events) cannot write what
  /// it holds: the box said "Every event is written now", and q lost them.
  @Test("the recording stopped: the box says so and that what was not written is lost")
  func stopped() {
    let box = LiveJournalFailure.quitQuestion(recording: false, error: full, pending: 0)
    #expect(box.title == "Recording stopped: disk full")
    #expect(box.entries.map(\.action) == ["quit: the events not written are lost"])
    #expect(box.footer.contains("`rewind recover` closes the journal"), "\(box.footer)")
    #expect(!box.title.contains("written now"))
  }

  @Test("nothing waiting and no error: every event is written")
  func written() {
    for error in [nil, full as RewindError?] {
      let box = LiveJournalFailure.quitQuestion(recording: true, error: error, pending: 0)
      #expect(box.title == "Every event is written now")
    }
  }
}
