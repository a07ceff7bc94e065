import Testing

@testable import RewindCLI

/// play's `r` says before it quits the player that the folder has no room for the journal
/// it would write (a full disk ended the player with the error, its place lost).
@Suite("play's r: room for the new journal")
struct ContinuingRoomTests {
  @Test("the events up to the cursor take their share of the journal, and a little more")
  func room() {
    // 1,000 events in 1 MiB: up to event 500, about 512 KiB and 256 KiB more.
    #expect(
      PlayCommand.roomProblem(
        journalSize: 1 << 20, events: 1_000, through: 500, free: 700 << 10)
        == "Cannot continue here: the new journal needs about 768.0 KiB in this folder, whose file system has 700.0 KiB free."
    )
    #expect(
      PlayCommand.roomProblem(
        journalSize: 1 << 20, events: 1_000, through: 500, free: 800 << 10) == nil)
    // From the start: the header and its first frame.
    #expect(
      PlayCommand.roomProblem(
        journalSize: 1 << 20, events: 1_000, through: 0, free: 255 << 10)
        != nil)
    #expect(
      PlayCommand.roomProblem(journalSize: 0, events: 0, through: 0, free: 1 << 20)
        == nil)
  }
}
