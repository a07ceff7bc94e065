import Foundation
import Navigation
import TestSupport
import Testing

@testable import RewindCore
@testable import RewindJournal

/// The replay engine over the real domain: the rules of the navigation reducer seen
/// through diff, blame, find and counterfactual replay.
@Suite("Timeline over the navigation domain")
struct NavigationTimelineTests {
  let domain = NavigationDomain()

  /// Records `events` one second apart and opens the journal.
  func timeline(_ events: [NavigationEvent], in directory: TemporaryDirectory, interval: UInt32 = 4)
    throws -> Timeline<NavigationDomain>
  {
    let path = directory.file("navigation.journal")
    let recorder = try JournalRecorder.create(
      at: path, domain: domain, session: testSession,
      options: RecordingOptions(snapshotInterval: interval, journal: .init(frameSize: 1024)),
      replacingExisting: true)
    for (index, event) in events.enumerated() {
      try recorder.record(event, at: UInt64(index) * 1_000_000)
    }
    try recorder.close()
    return try Timeline<NavigationDomain>(path: path)
  }

  @Test("blame of the selected item after a category change points at the categorySelected event")
  func blameCategoryChange() throws {
    let directory = TemporaryDirectory()
    let timeline = try timeline(
      [
        .categorySelected(domain.ref("espresso-machines")),
        .itemSelected(domain.ref("espresso-machines/leva")), .menuTabTapped(index: 3),
        .categorySelected(domain.ref("grinders")), .menuScrolled(offset: 20),
        .menuScrolled(offset: 40), .splitStyleChanged(.balanced),
      ], in: directory)
    let blame = try timeline.blame("split.selectedItem", at: 7)
    #expect(blame.value == .null)
    #expect(blame.event?.sequence == 4)
    #expect(blame.event?.event == .categorySelected(domain.ref("grinders")))
    #expect(try timeline.blame("split.selectedItem", at: 3).event?.sequence == 2)
    #expect(try timeline.blame("menu.scrollOffset", at: 7).event?.sequence == 6)
    #expect(try timeline.blame("split.style", at: 5).event == nil)
    // Changing category changes the category and the item, nothing else.
    #expect(
      timeline.domain.diff(try timeline.state(after: 3), try timeline.state(after: 4)).map(\.path)
        == ["split.selectedCategory", "split.selectedItem"])
    // find: the first point where the item is Leva, and every change of the item.
    #expect(
      try timeline.find(
        Condition(parsing: "split.selectedItem == espresso-machines/leva"), all: false
      )
      .map(\.sequence) == [2])
    #expect(
      try timeline.find(Condition(parsing: "changed(split.selectedItem)"), all: true).map(
        \.sequence)
        == [2, 4])
    // Without the category change the photo of Leva stays.
    let counterfactual = try timeline.state(after: 7, skipping: [4])
    #expect(counterfactual.split.selectedItem == domain.ref("espresso-machines/leva"))
  }

  @Test(
    "over seeded random sessions: every point equals the fold, diff with itself is empty, skipping nothing is real",
    arguments: [1, 2, 3] as [UInt64])
  func randomSessions(seed: UInt64) throws {
    let directory = TemporaryDirectory()
    var generator = RandomEventGenerator(seed: seed, domain: domain)
    let events = (0..<1_500).map { _ in generator.next() }
    let timeline = try timeline(events, in: directory, interval: 37)
    var state = domain.initialState
    var states = [state]
    for event in events {
      _ = domain.reduce(&state, event)
      states.append(state)
    }
    for sequence in stride(from: 0, through: 1_500, by: 7) {
      let replayed = try timeline.state(after: UInt64(sequence))
      #expect(replayed == states[sequence])
      #expect(timeline.domain.diff(replayed, replayed).isEmpty)
      #expect(try timeline.state(after: UInt64(sequence), skipping: []) == replayed)
    }
    #expect(try timeline.check(expected: domain.json(states.last!)).passed)
  }

  @Test("a session recorded with the Store replays to the Store's state at every point")
  func storeRecording() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("store.journal")
    let store = try Store(
      domain: domain, recordingTo: path, session: testSession,
      options: RecordingOptions(snapshotInterval: 64, journal: .init(frameSize: 2048)),
      clock: steppingClock())
    var user = domain.simulatedUser(seed: 5)
    var states = [store.state]
    for _ in 0..<5_000 {
      store.send(user.next()!.event)
      states.append(store.state)
    }
    try store.close()
    let timeline = try Timeline<NavigationDomain>(path: path)
    for sequence in 0...5_000 {
      #expect(try timeline.state(after: UInt64(sequence)) == states[sequence])
    }
    #expect(try timeline.check().passed)
  }

  @Test("each replay has its own table of unknown ids, filled by what it decodes")
  func unknownIdentifiersPerReplay() throws {
    let directory = TemporaryDirectory()
    let recording = NavigationDomain()
    let path = directory.file("unknown.journal")
    let recorder = try JournalRecorder.create(
      at: path, domain: recording, session: testSession,
      options: RecordingOptions(snapshotInterval: 4))
    for (index, id) in ["teapots", "grinders", "kettles", "teapots", "mugs"].enumerated() {
      try recorder.record(.categorySelected(recording.ref(id)), at: UInt64(index))
    }
    try recorder.close()
    let first = try Timeline<NavigationDomain>(path: path)
    let second = try Timeline<NavigationDomain>(path: path)
    #expect(first.domain !== recording && first.domain !== second.domain)
    #expect(first.domain.unknownIdentifierCount == 0)
    // Replaying from the snapshot after event 4 decodes only "mugs".
    _ = try first.state(after: 5)
    #expect(first.domain.unknownIdentifierCount == 1)
    var described: [String] = []
    try second.events(from: 1, through: 5) { event, _, _ in
      described.append(second.domain.describe(event.event))
      return true
    }
    #expect(
      described == [
        "categorySelected teapots", "categorySelected grinders", "categorySelected kettles",
        "categorySelected teapots", "categorySelected mugs",
      ])
    #expect(second.domain.unknownIdentifierCount == 3)
    #expect(first.domain.unknownIdentifierCount == 1)
  }
}
