import RewindCore
import RewindJournal
import TestSupport

/// A counter with a label, tags and a note, written with nothing but the core of `Domain`:
/// its fields are the defaults, the leaves of its state's JSON.
struct Counter: RecordableDomain, Codable {
  struct State: Codable, Equatable, Sendable {
    var count = 0
    var label = "start"
    var tags: [String] = []
    var note: String?
    var ratio = 1.0
  }

  enum Event: Codable, Equatable, Sendable {
    case added(amount: Int)
    case labelled(String)
    case tagged(String)
    case noted(String?)
    case scaled(Double)
  }

  static let identifier = "counter"
  static let schemaVersion: UInt32 = 1

  var initialState: State { State() }

  func reduce(_ state: inout State, _ event: Event) -> Outcome<DomainRejection> {
    switch event {
    case .added(let amount):
      guard amount != 0 else { return .unchanged }
      guard amount <= 1_000 else { return .rejected("more than 1,000 at once") }
      state.count += amount
    case .labelled(let label):
      guard state.label != label else { return .unchanged }
      state.label = label
    case .tagged(let tag):
      state.tags.append(tag)
    case .noted(let note):
      guard state.note != note else { return .unchanged }
      state.note = note
    case .scaled(let ratio):
      state.ratio = ratio
    }
    return .applied
  }
}

/// A domain whose state holds a dictionary that starts with a key: the default fields
/// are the initial state's leaves, so a key added later is no field of it.
struct Ledger: RecordableDomain, Codable {
  struct State: Codable, Equatable, Sendable {
    var balances: [String: Int] = ["cash": 0]
  }

  enum Event: Codable, Equatable, Sendable {
    case credited(account: String, amount: Int)
  }

  static let identifier = "ledger"
  static let schemaVersion: UInt32 = 1

  var initialState: State { State() }

  func reduce(_ state: inout State, _ event: Event) -> Outcome<DomainRejection> {
    guard case .credited(let account, let amount) = event else { return .unchanged }
    state.balances[account, default: 0] += amount
    return .applied
  }
}

/// A domain of plain events (nothing but bits: the page remembers them by their bits), whose
/// events change the state by what it holds: the same step moves a position from wherever
/// it is, so the same event has a different change list each time, and different events
/// can have the same one.
struct Steps: RecordableDomain, Codable {
  struct State: Codable, Equatable, Sendable {
    var position = 0
    var moves = 0
    var last = 0
    var scale = 1.0
  }

  enum Event: Codable, Equatable, Sendable {
    case stepped(Int)
    case jumped(to: Int)
    case scaled(Double)
    case reset
  }

  static let identifier = "steps"
  static let schemaVersion: UInt32 = 1

  var initialState: State { State() }

  /// Words for `position` and `scale` (fields 0 and 3), none for `moves` and `last`: the
  /// page keys a change list by the words of some fields and the JSON values of others.
  func fieldValueWord(_ index: Int, of state: State) -> UInt64? {
    switch index {
    case 0: UInt64(bitPattern: Int64(state.position))
    case 3: state.scale.bitPattern
    default: nil
    }
  }

  func reduce(_ state: inout State, _ event: Event) -> Outcome<DomainRejection> {
    switch event {
    case .stepped(let size):
      guard size != 0 else { return .unchanged }
      guard abs(size) <= 100 else { return .rejected("a step of more than 100") }
      state.position += size
      state.moves += 1
      state.last = size
    case .jumped(let position):
      guard state.position != position else { return .unchanged }
      state.position = position
      state.last = 0
    case .scaled(let scale):
      guard state.scale.bitPattern != scale.bitPattern else { return .unchanged }
      state.scale = scale
    case .reset:
      guard state != State() else { return .unchanged }
      state = State()
    }
    return .applied
  }
}

/// Records `events` (one every 250 ms) in a journal of `domain` in `directory`, and opens it.
func timeline<D: RecordableDomain>(
  _ domain: D, _ events: [D.Event], in directory: TemporaryDirectory, snapshotInterval: UInt32 = 4
) throws -> Timeline<D> {
  let path = directory.file("\(D.identifier).journal")
  let recorder = try JournalRecorder.create(
    at: path, domain: domain,
    session: SessionInfo(startTime: 1_767_225_600_000_000, device: "a test"),
    options: RecordingOptions(snapshotInterval: snapshotInterval))
  for (index, event) in events.enumerated() {
    _ = try recorder.record(event, at: UInt64(index) * 250_000)
  }
  try recorder.close()
  return try Timeline<D>(path: path)
}
