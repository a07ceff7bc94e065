import RewindCLI
import RewindCore
import RewindJournal
import TestSupport
import Testing

/// A tag: hashable, but not comparable.
struct Tag: Hashable, Codable, Sendable {
  var name: String
}

/// A domain whose state is a set of tags that are not comparable, as an app writes one.
struct Tagger: RecordableDomain, Codable {
  struct State: Codable, Equatable, Sendable {
    var tags: Set<Tag> = []
  }

  enum Event: Codable, Equatable, Sendable {
    case tagged(name: String)
    case untagged(name: String)
  }

  static let identifier = "tagger"
  static let schemaVersion: UInt32 = 1

  var initialState: State { State() }

  func reduce(_ state: inout State, _ event: Event) -> Outcome<DomainRejection> {
    switch event {
    case .tagged(let name):
      guard state.tags.insert(Tag(name: name)).inserted else { return .unchanged }
    case .untagged(let name):
      guard state.tags.remove(Tag(name: name)) != nil else { return .rejected("no such tag") }
    }
    return .applied
  }
}

/// The tagger as a build that wrote its set in another order than Rewind's canonical one
/// recorded it (before Rewind ordered sets of values that are not comparable, a process's
/// hash order): the elements in descending order of their names.
struct TaggerInAnotherOrder: Domain, Codable {
  typealias State = Tagger.State
  typealias Event = Tagger.Event

  static let identifier = Tagger.identifier
  static let schemaVersion = Tagger.schemaVersion

  var initialState: State { State() }

  func reduce(_ state: inout State, _ event: Event) -> Outcome<DomainRejection> {
    Tagger().reduce(&state, event)
  }

  /// The set as an array (the same form: a count, then the elements) in descending order.
  func encode(_ state: State, into writer: inout ByteWriter) {
    let tags = state.tags.sorted { $0.name > $1.name }
    try! CompactBinaryEncoder().encode(tags, into: &writer)
  }
}

@Suite("A state holding a set of values that are not comparable, through the generic rewind")
struct UnorderedStateTests {
  let tool = RewindTool.cli(domains: [Tagger.self])
  let directory = TemporaryDirectory()

  func rewind(_ arguments: String...) -> (status: Int32, output: String) {
    runInProcess(tool, arguments, shortening: directory)
  }

  @Test("a recorded session checks, and its state prints in one order, on every run")
  func checksEveryRun() throws {
    let script = directory.file("tags.scenario")
    write(
      """
      tagged name=delta
      tagged name=gamma
      tagged name=alpha
      tagged name=zeta
      untagged name=gamma
      tagged name=eps
      tagged name=beta
      """, to: script)
    let journal = directory.file("tags.journal")
    #expect(rewind("record", script, "-o", journal, "--snapshot-interval", "2").status == 0)
    let state = rewind("state", journal, "--json")
    #expect(
      state.output.filter { !$0.isWhitespace }
        == #"{"tags":[{"name":"eps"},{"name":"beta"},{"name":"zeta"},{"name":"alpha"},{"name":"delta"}]}"#
    )
    write(state.output, to: directory.file("tags.state.json"))
    for _ in 0..<3 {
      let checked = rewind("check", journal)
      #expect(checked.status == 0, "\(checked.output)")
      #expect(checked.output.hasPrefix("PASS tags.journal: 7 events, 3 snapshots"))
    }
  }

  @Test("a snapshot that differs from the replayed state in its bytes alone says so")
  func bytesAlone() throws {
    let journal = directory.file("older.journal")
    let recorder = try JournalRecorder.create(
      at: journal, domain: TaggerInAnotherOrder(),
      session: SessionInfo(startTime: 1_767_225_600_000_000, device: "a test"),
      options: RecordingOptions(snapshotInterval: 2))
    for (index, name) in ["alpha", "delta", "gamma", "omega"].enumerated() {
      _ = try recorder.record(.tagged(name: name), at: UInt64(index) * 250_000)
    }
    try recorder.close()

    let checked = rewind("check", journal)
    #expect(checked.status == 1)
    #expect(
      checked.output == """
        FAIL older.journal: 4 events, 1 snapshot compared, up to the first that differs
          no expected state: older.state.json does not exist; the final state is not checked
          the state after event 2 differs from its snapshot in its bytes alone: every field reads the same
            its encoding depends on more than its fields show: the order of a set or a dictionary that the state's own code writes element by element, say, or a journal recorded before Rewind wrote sets and dictionaries of values that are not comparable in one order (`rewind recover --salvage` writes such snapshots again: with the reducer that recorded the journal, as it writes every snapshot that differs from its replay)
        0 passed, 1 failed

        """)
    let recovered = rewind("recover", "--salvage", journal)
    #expect(recovered.status == 0, "\(recovered.output)")
    let again = rewind("check", journal)
    #expect(again.status == 0, "\(again.output)")
  }
}
