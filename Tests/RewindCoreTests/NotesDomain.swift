import RewindCore

/// A checklist domain written with nothing but the core of `Domain` and `RecordableDomain`:
/// every other requirement is a default, so the tests of the defaults use it.
struct Notes: RecordableDomain, Codable {
  struct State: Codable, Equatable, Sendable {
    var title: String?
    var items: [String] = []
    var checked: Set<Int> = []
    var mode = Mode.idle
  }

  enum Event: Codable, Equatable, Sendable {
    case added(text: String)
    case checked(index: Int)
    case renamed(title: String?)
    case moved(Int, Int)
    case cleared
  }

  static let identifier = "notes"
  static let schemaVersion: UInt32 = 3

  var initialState: State { State() }

  func reduce(_ state: inout State, _ event: Event) -> Outcome<DomainRejection> {
    switch event {
    case .added(let text):
      guard !text.isEmpty else { return .rejected("an item needs words") }
      state.items.append(text)
    case .checked(let index):
      guard state.items.indices.contains(index) else { return .rejected("no such item") }
      guard state.checked.insert(index).inserted else { return .unchanged }
    case .renamed(let title):
      guard state.title != title else { return .unchanged }
      state.title = title
    case .moved(let from, let to):
      guard state.items.indices.contains(from), state.items.indices.contains(to) else {
        return .rejected("no such item")
      }
      state.items.swapAt(from, to)
      state.mode = .running(since: Int64(to))
    case .cleared:
      guard !state.items.isEmpty else { return .unchanged }
      state = State(title: state.title)
    }
    return .applied
  }
}
