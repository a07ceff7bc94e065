import Navigation
import RewindCore
import Testing

@testable import RewindTesting

/// The failures a store reported, with where.
final class FailureLog {
  var messages: [String] = []
  var lines: [Int] = []
}

/// A store over the sample catalog whose failures go to `log`.
func store(
  _ log: FailureLog, _ exhaustivity: TestStore<NavigationDomain>.Exhaustivity = .exhaustive
) -> TestStore<NavigationDomain> {
  TestStore(NavigationDomain(), exhaustivity: exhaustivity) { message, location in
    log.messages.append(message)
    log.lines.append(location.line)
  }
}

let domain = NavigationDomain()
let grinders = domain.ref("grinders")
let vulcano = domain.ref("grinders/vulcano")
let espresso = domain.ref("espresso-machines")
let levaX = domain.ref("espresso-machines/leva/leva-x")

@Suite("TestStore: exhaustive steps")
struct ExhaustiveTests {
  @Test("a step stated in full passes and moves the state on")
  func exact() {
    let log = FailureLog()
    let store = store(log)
    let outcome = store.send(.categorySelected(grinders)) { $0.split.selectedCategory = grinders }
    store.send(.itemSelected(vulcano)) { $0.split.selectedItem = vulcano }
    #expect(outcome == .applied)
    #expect(log.messages.isEmpty)
    #expect(store.state.split.selectedItem == vulcano)
    #expect(store.stepCount == 2)
  }

  @Test("a change the step made and the test did not state fails with the field, at the send")
  func unstatedChange() {
    let log = FailureLog()
    let store = store(log)
    store.send(.categorySelected(espresso)) { $0.split.selectedCategory = espresso }
    let line = #line + 1
    store.send(.categorySelected(grinders)) { _ in }
    #expect(
      log.messages == [
        """
        step 2, categorySelected grinders: the step changed more or less than stated:
          split.selectedCategory
            expected: "espresso-machines"
            actual:   "grinders"
        """
      ])
    #expect(log.lines == [line])
    // The store goes on from the actual state.
    #expect(store.state.split.selectedCategory == grinders)
  }

  @Test("a stated change the step did not make fails, listing every differing field")
  func statedButNotMade() {
    let log = FailureLog()
    let store = store(log)
    store.send(.categorySelected(grinders)) {
      $0.split.selectedCategory = grinders
      $0.split.compactColumn = .content
      $0.menu.selectedIndex = 2
    }
    #expect(
      log.messages == [
        """
        step 1, categorySelected grinders: the step changed more or less than stated:
          menu.selectedIndex
            expected: 2
            actual:   0
          split.compactColumn
            expected: "content"
            actual:   "sidebar"
        """
      ])
  }

  @Test("a send with no closure states that nothing changes")
  func noClosure() {
    let log = FailureLog()
    let store = store(log)
    store.send(.categorySelected(grinders))
    #expect(log.messages.count == 1)
    #expect(log.messages.first?.contains("split.selectedCategory") == true)
  }

  @Test("rejected: the reason must match, and a rejected event fails a plain send")
  func rejected() {
    let log = FailureLog()
    let store = store(log)
    store.send(.categorySelected(grinders)) { $0.split.selectedCategory = grinders }
    store.send(.itemExpanded(vulcano), rejected: .notExpandable)
    #expect(log.messages.isEmpty)
    store.send(.itemExpanded(vulcano), rejected: .unknownIdentifier)
    store.send(.itemExpanded(vulcano))
    #expect(
      log.messages == [
        "step 3, itemExpanded grinders/vulcano: expected rejected (the id is not in the session's catalog), got rejected (the item has no children to show or hide)",
        "step 4, itemExpanded grinders/vulcano: expected the event to be accepted, got rejected (the item has no children to show or hide)",
      ])
  }

  @Test("outcomes: .unchanged and .applied are checked")
  func outcomes() {
    let log = FailureLog()
    let store = store(log)
    store.send(.categorySelected(grinders), .applied) { $0.split.selectedCategory = grinders }
    store.send(.categorySelected(grinders), .unchanged)
    #expect(log.messages.isEmpty)
    store.send(.categorySelected(grinders), .applied)
    #expect(log.messages == ["step 3, categorySelected grinders: expected applied, got unchanged"])
  }

  @Test("assert checks the current state's stated fields")
  func assertion() {
    let log = FailureLog()
    let store = store(log)
    store.send(.categorySelected(grinders)) { $0.split.selectedCategory = grinders }
    store.assert { $0.split.selectedCategory = grinders }
    #expect(log.messages.isEmpty)
    store.assert { $0.split.selectedCategory = espresso }
    #expect(
      log.messages == [
        """
        the state differs from what the test states:
          split.selectedCategory
            expected: "espresso-machines"
            actual:   "grinders"
        """
      ])
  }

  @Test("send rethrows what the closure throws")
  func rethrowing() {
    struct Stop: Error {}
    let log = FailureLog()
    let store = store(log)
    #expect(throws: Stop.self) {
      try store.send(.categorySelected(grinders)) { _ in throw Stop() }
    }
  }
}

@Suite("TestStore: partial steps")
struct PartialTests {
  @Test("only the stated fields are compared")
  func statedOnly() {
    let log = FailureLog()
    let store = store(log, .partial)
    store.send(.categorySelected(espresso))
    store.send(.itemSelected(levaX)) { $0.split.selectedItem = levaX }
    #expect(log.messages.isEmpty)
    store.send(.categorySelected(grinders)) { $0.split.selectedItem = levaX }
    #expect(
      log.messages == [
        """
        step 3, categorySelected grinders: a stated field differs:
          split.selectedItem
            expected: "espresso-machines/leva/leva-x"
            actual:   null
        """
      ])
  }

  /// The documentation said the closure received the state before the event, as in an
  /// exhaustive step; a partial step's receives the state after it.
  @Test("a partial step's closure receives the state after the event")
  func closureSeesTheStateAfter() {
    let log = FailureLog()
    let store = store(log, .partial)
    store.send(.menuTabTapped(index: 3)) {
      #expect($0.menu.selectedIndex == 3)
      $0.menu.selectedIndex = 3
    }
    #expect(log.messages.isEmpty)
  }

  @Test("a store switches to exhaustive between steps")
  func switching() {
    let log = FailureLog()
    let store = store(log, .partial)
    store.send(.categorySelected(grinders))
    store.exhaustivity = .exhaustive
    store.send(.itemSelected(vulcano))
    #expect(log.messages.count == 1)
  }
}

@Suite("TestStore: Swift Testing issues")
struct IssueTests {
  @Test("a failed step is recorded as an issue at the send's line")
  func recordsIssue() {
    let line = #line + 3
    withKnownIssue {
      let store = TestStore(NavigationDomain())
      store.send(.categorySelected(grinders)) {
        $0.split.selectedItem = vulcano
      }
    } matching: { issue in
      issue.sourceLocation?.line == line
        && issue.comments.contains { $0.rawValue.contains("split.selectedItem") }
    }
  }
}
