import Foundation
import Navigation
import RewindCore
import RewindJournal
import RewindTerminal
import TestSupport
import Testing

@testable import RewindPlayer

/// `--follow`: a journal another writer is recording.
@Suite("Player: following a journal being recorded")
struct PlayerFollowTests {
  @Test("new flushed events appear; the cursor stays at the end unless moved")
  func follow() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("live.journal")
    let recorder = try recordGenerated(at: path, count: 50, seed: 7, close: false)
    let player = try Player(timeline: Timeline<NavigationDomain>(path: path), following: true)
    #expect(player.cursor == 50)
    #expect(player.tickInterval == 250_000)
    #expect(!player.tick(), "nothing new")
    var user = SimulatedUser(seed: 8, domain: recorder.domain)
    func record(_ count: Int) throws {
      for _ in 0..<count {
        let (time, event) = user.next()
        try recorder.record(event, at: recorder.lastTime + time % 1_000_000)
      }
    }
    try record(30)
    #expect(!player.tick(), "not flushed yet: nothing on disk")
    try recorder.flush()
    #expect(player.tick())
    #expect(player.lastSequence == 80)
    #expect(player.cursor == 80)
    #expect(player.density.total == 80)
    #expect(player.view.state == (try Timeline<NavigationDomain>(path: path).state(after: 80)))
    // Moved away from the end, the cursor stays where it was.
    _ = player.perform(.step(-10))
    try record(20)
    try recorder.flush()
    #expect(player.tick())
    #expect(player.lastSequence == 100)
    #expect(player.cursor == 70)
    // Back at the end, it follows again; closing the journal is said: nothing more will
    // come.
    _ = player.perform(.go(to: .end))
    #expect(player.followed == .written)
    try record(5)
    try recorder.close()
    #expect(player.tick())
    #expect(player.cursor == 105)
    #expect(player.density.total == 105)
    #expect(player.followed == .closed)
    #expect(player.message?.text == "The journal is closed: nothing more will come.")
    #expect(!player.tick(), "said once")
  }

  @Test("a closed journal, a writer gone without closing it, a removed file: each is said")
  func nothingMoreWillCome() throws {
    let directory = TemporaryDirectory()
    // Closed: said when opened.
    let closed = directory.file("closed.journal")
    try recordGenerated(at: closed, count: 20, seed: 3).close()
    let onClosed = try Player(
      timeline: Timeline<NavigationDomain>(path: closed), following: true)
    #expect(onClosed.followed == .closed)
    #expect(onClosed.message?.text == "The journal is closed: nothing more will come.")
    // Not closed, and no process holds its lock (a copy of one being written, as a
    // writer killed with -9 leaves it): its writer is gone.
    let live = directory.file("live.journal")
    let recorder = try recordGenerated(at: live, count: 30, seed: 4, close: false)
    let orphan = directory.file("orphan.journal")
    #expect(
      FileManager.default.createFile(
        atPath: orphan, contents: FileManager.default.contents(atPath: live)))
    let onLive = try Player(timeline: Timeline<NavigationDomain>(path: live), following: true)
    #expect(onLive.followed == .written)
    #expect(onLive.message == nil)
    let onOrphan = try Player(
      timeline: Timeline<NavigationDomain>(path: orphan), following: true)
    #expect(onOrphan.followed == .writerGone(pid: nil))
    #expect(
      onOrphan.message?.text
        == "Its writer stopped without closing the journal (killed, crashed, or the machine lost power): nothing more will come; `rewind recover` closes it."
    )
    #expect(!onOrphan.tick())
    // Moved away and back (the same session, its writer still at it): removed, then
    // followed again, the line that said it was removed cleared (it stayed).
    let moved = live + ".moved"
    #expect(rename(live, moved) == 0)
    #expect(onLive.tick())
    #expect(onLive.followed == .removed)
    #expect(rename(moved, live) == 0)
    #expect(onLive.tick())
    #expect(onLive.followed == .written)
    #expect(onLive.message == nil)
    // Removed: said at the next tick; what was read stays shown.
    #expect(unlink(live) == 0)
    #expect(onLive.tick())
    #expect(onLive.followed == .removed)
    #expect(
      onLive.message?.text
        == "\(live) was removed: nothing more will come; what was read before is shown still.")
    #expect(onLive.cursor == 30)
    #expect(!onLive.tick())
    // Back under the same name (a new recording): followed again.
    try recorder.close()
    try recordGenerated(
      at: live, count: 40, seed: 5, close: false,
      session: SessionID(bytes: Array(repeating: 7, count: 16))
    ).flush()
    #expect(onLive.tick())
    #expect(onLive.lastSequence == 40)
    #expect(onLive.message?.text.contains("now holds another session") == true)
  }

  /// Only a path that names no file (`ENOENT`, `ENOTDIR`) is a removed file: any other
  /// error of its `stat` (here a loop of links, `ELOOP`; a directory made unsearchable,
  /// `EACCES`, for a user that is not root) says nothing of the file, and is said as it is.
  @Test("a followed path that cannot be read, for another reason than naming no file, says why")
  func unreadablePath() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("live.journal")
    let recorder = try recordGenerated(at: path, count: 30, seed: 4, close: false)
    defer { try? recorder.close() }
    var app = PlayerApp(
      player: try Player(timeline: Timeline<NavigationDomain>(path: path), following: true),
      title: "live.journal")
    let player = app.player
    #expect(player.followed == .written)
    // The journal moved aside, and a link that leads to itself in its place.
    let aside = path + ".aside"
    #expect(rename(path, aside) == 0)
    #expect(symlink(path, path) == 0)
    #expect(player.tick())
    let reason = "Too many levels of symbolic links (errno \(ELOOP))"
    #expect(player.followed?.label == "file unreadable", "\(String(describing: player.followed))")
    #expect(
      player.message?.text
        == "\(path) cannot be read now: \(reason); what was read before is shown still, and following goes on once it can be read."
    )
    #expect(player.cursor == 30)
    var screen = Screen(size: TerminalSize(columns: 120, rows: 32))
    app.draw(on: &screen)
    #expect(screen.lines[0].hasSuffix("FILE UNREADABLE"), "\(screen.lines[0])")
    #expect(!player.tick(), "said once")
    // Readable again: followed as before, what was said cleared.
    #expect(unlink(path) == 0)
    #expect(rename(aside, path) == 0)
    #expect(player.tick())
    #expect(player.followed == .written)
    #expect(player.message == nil)
  }

  @Test("the header says whether more can come: FOLLOWING, CLOSED, WRITER GONE, FILE REMOVED")
  func header() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("live.journal")
    let recorder = try recordGenerated(at: path, count: 10, seed: 6, close: false)
    var app = PlayerApp(
      player: try Player(timeline: Timeline<NavigationDomain>(path: path), following: true),
      title: "live.journal")
    func header() -> String {
      var screen = Screen(size: TerminalSize(columns: 120, rows: 32))
      app.draw(on: &screen)
      return screen.lines[0]
    }
    #expect(header().hasSuffix("FOLLOWING"))
    try recorder.close()
    app.player.tick()
    #expect(header().hasSuffix("CLOSED"))
    #expect(unlink(path) == 0)
    app.player.tick()
    #expect(header().hasSuffix("FILE REMOVED"))
    #expect(FollowedJournal.writerGone(pid: 12).label == "writer gone")
    #expect(
      FollowedJournal.writerGone(pid: 12).sentence(path: "x")?.hasPrefix(
        "Its writer (process 12) stopped without closing the journal") == true)
  }

  @Test("a followed path that comes to hold another session: followed from scratch, and said")
  func replacedByAnotherSession() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("live.journal")
    try recordGenerated(at: path, count: 50, seed: 7).close()
    let player = try Player(timeline: Timeline<NavigationDomain>(path: path), following: true)
    _ = player.perform(.step(-5))
    _ = player.perform(.toggleSkip)
    _ = player.perform(.mark)
    _ = player.perform(.go(to: .end))
    #expect(player.skipped == [45])
    #expect(player.mark == 45)
    // Another session written elsewhere and renamed over the path, longer than the first.
    let other = directory.file("other.journal")
    try recordGenerated(
      at: other, count: 80, seed: 9, session: SessionID(bytes: Array(repeating: 6, count: 16))
    ).close()
    #expect(rename(other, path) == 0)
    #expect(player.tick())
    #expect(player.lastSequence == 80)
    #expect(player.cursor == 80)
    #expect(player.density.total == 80)
    #expect(player.skipped.isEmpty)
    #expect(player.divergence == nil)
    #expect(player.mark == nil)
    #expect(
      player.message?.text
        == "\(path) now holds another session (06060606-0606-0606-0606-060606060606): following that one."
    )
    #expect(player.view.state == (try Timeline<NavigationDomain>(path: path).state(after: 80)))
  }

  @Test("a followed journal that starts empty opens at the start and fills")
  func emptyStart() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("live.journal")
    let recorder = try recordGenerated(at: path, count: 0, seed: 1, close: false)
    let player = try Player(timeline: Timeline<NavigationDomain>(path: path), following: true)
    #expect(player.cursor == 0)
    #expect(player.view.nearby.isEmpty)
    var user = SimulatedUser(seed: 2, domain: recorder.domain)
    for _ in 0..<3 {
      let (time, event) = user.next()
      try recorder.record(event, at: time)
    }
    try recorder.flush()
    #expect(player.tick())
    #expect(player.cursor == 3)
    #expect(player.view.nearby.map(\.sequence) == [1, 2, 3])
  }
}
