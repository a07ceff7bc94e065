import Dispatch
package import RewindCore
package import RewindTerminal

/// The app `rewind live` runs: a domain's interactive screen over a live ``Store``, a
/// status line, and a help overlay.
///
/// Every event the screen asks for goes through the store, which reduces it and records
/// it; nothing else changes the state. The store makes what the status line counts
/// durable within a second of its sending (``RecordingOptions/durableWithin``), on its
/// own thread: the app does not wait for the disk. A model like any ``TerminalApp``: tests
/// hand it events and draw it, with an in-memory store and a clock of their own.
package struct LiveApp<D: InteractiveDomain>: TerminalApp {
  package let store: Store<D>
  package var screen: D.InteractiveScreen
  /// The journal's path, as the status line names it.
  package let journal: String
  /// Nanoseconds of a monotonic clock.
  let clock: () -> UInt64
  /// When the session started, on ``clock``.
  let startedAt: UInt64
  /// Whether the keys are shown over the screen.
  package var showsHelp = false
  /// Whether `q` asked first, the journal failing with events not written (a full disk):
  /// `q` again writes them and quits (it stays, saying so, while they cannot be written),
  /// `Q` quits without them, any other key goes back to the session.
  package private(set) var asksBeforeQuitting = false
  /// Whether a `q` in the question found the events still not written (the disk still
  /// full): the box says so, until it closes.
  package private(set) var quitFoundThemUnwritten = false
  /// The events the journal held before this session: those of the session it continues
  /// (`rewind play`'s `r`), counted before the ones sent (`10 + 2 events`).
  package let earlierEvents: UInt64
  /// The events sent, and how many of them the reducer rejected.
  package private(set) var eventCount = 0
  package private(set) var rejectedCount = 0
  /// The last event, described, and what the reducer did with it.
  package private(set) var lastEvent: (text: String, outcome: Outcome<D.Rejection>)?

  package init(
    store: Store<D>, screen: D.InteractiveScreen, journal: String, earlierEvents: UInt64 = 0,
    clock: @escaping () -> UInt64
  ) {
    self.store = store
    self.earlierEvents = earlierEvents
    self.screen = screen
    self.journal = journal
    self.clock = clock
    startedAt = clock()
  }

  package var minimumSize: TerminalSize {
    TerminalSize(columns: screen.minimumSize.columns, rows: screen.minimumSize.rows + 1)
  }

  package var tickInterval: Duration? { .seconds(1) }

  /// Microseconds since the session started.
  package var elapsed: UInt64 { (clock() - startedAt) / 1_000 }

  package mutating func handle(_ event: InputEvent) -> TerminalAppAction {
    if showsHelp || asksBeforeQuitting {
      if asksBeforeQuitting {
        switch event {
        case .key(.character("Q")): return .quit
        case .key(.character("q")):
          // The events are written first (the space freed, the store has not retried yet):
          // `q` never loses them; while the journal cannot take them, the box stays.
          flush(waitingAtMost: Self.quitFlushTimeout)
          guard LiveJournalFailure.holdsUnwrittenEvents(store) else { return .quit }
          quitFoundThemUnwritten = true
          return .continue
        default: break
        }
      }
      let closes: Bool
      switch event {
      case .key: closes = true
      case .mouse(let mouse): closes = mouse.action == .press
      default: closes = false
      }
      if closes {
        showsHelp = false
        asksBeforeQuitting = false
        quitFoundThemUnwritten = false
      }
      return .continue
    }
    switch event {
    case .key(.character("q")):
      // The events sent are written first: a disk that filled since the store's last
      // write says so now, while the screen can still ask (closing would find it, and the
      // events would be lost). Quitting would lose those the journal has not taken: asked
      // first.
      flush(waitingAtMost: Self.quitFlushTimeout)
      guard LiveJournalFailure.holdsUnwrittenEvents(store) else { return .quit }
      asksBeforeQuitting = true
      return .continue
    case .key(.character("?")):
      showsHelp = true
      return .continue
    default: break
    }
    let response = screen.handle(event, state: store.state)
    for event in response.events { send(event) }
    return .continue
  }

  /// Sends one event through the store, and remembers what became of it.
  package mutating func send(_ event: D.Event) {
    let outcome = store.send(event)
    eventCount += 1
    if outcome.isRejected { rejectedCount += 1 }
    lastEvent = (store.domain.describe(event), outcome)
  }

  /// The status line's clock goes on: drawn again.
  package mutating func tick() -> TerminalAppAction { .continue }

  /// Makes the events sent durable before the process stops (Ctrl-Z): a stopped job is
  /// the one that gets killed (`kill -9 %1`, a closed ssh session), and its writer thread
  /// stops with it, so the store's second would not come. Waits at most
  /// ``suspendFlushTimeout`` (a disk that hangs does not keep the process from stopping);
  /// a full disk answers at once, its events kept and retried after `fg`.
  package mutating func willSuspend() {
    flush(waitingAtMost: Self.suspendFlushTimeout)
  }

  /// Asks the store to make the events sent durable, and waits at most `timeout` for it.
  private func flush(waitingAtMost timeout: DispatchTimeInterval) {
    let done = DispatchSemaphore(value: 0)
    DispatchQueue.global().async { [store] in
      try? store.flushAndWait()
      done.signal()
    }
    _ = done.wait(timeout: .now() + timeout)
  }

  /// How long ``willSuspend()`` waits for the disk.
  static var suspendFlushTimeout: DispatchTimeInterval { .seconds(5) }

  /// How long `q` in the question before quitting waits for the disk to take the events.
  static var quitFlushTimeout: DispatchTimeInterval { .seconds(5) }

  package mutating func draw(on canvas: inout Screen) {
    let (body, status) = canvas.bounds.splitRows(at: canvas.size.rows - 1)
    screen.draw(store.state, in: body, on: &canvas, showsFocus: true)
    drawStatus(in: status, on: &canvas)
    if showsHelp {
      canvas.helpOverlay(
        title: "rewind live: keys", entries: screen.keyHelp + liveAppKeys,
        footer: "Any key closes this help.")
    } else if asksBeforeQuitting {
      LiveJournalFailure.drawQuitQuestion(
        for: store, stillUnwritten: quitFoundThemUnwritten, on: &canvas)
    }
  }

  /// `● REC  12 events  1:05  session-….journal  last: categorySelected grinders → applied`
  /// (`10 + 2 events` after 10 events of the session it continues), the keys for help and
  /// quitting at the right; `! REC  12 events  1:05  disk full: 3 events not written yet`
  /// while the journal fails, without the journal's name where the line is short.
  private func drawStatus(in line: Rect, on canvas: inout Screen) {
    canvas.fill(line, style: CellStyle(reverse: true))
    let base = CellStyle(reverse: true)
    var x = line.column
    let recording = store.lastError == nil
    x = canvas.write(
      recording ? " ● REC " : " ! REC ", column: x, row: line.row,
      style: base.foreground(.red).merging(.bold), clip: line)
    let seconds = elapsed / 1_000_000
    let clockText = String(format2: seconds / 60) + ":" + String(format2: seconds % 60)
    let earlier = earlierEvents > 0 ? "\(Format.count(earlierEvents)) + " : ""
    let keys = " ? help  q quit "
    let keysColumn = line.endColumn - TerminalText.width(keys)
    let problem = store.lastError.map {
      LiveJournalFailure.status($0, pending: store.pendingCount, recording: store.isRecording)
    }
    let head = " \(earlier)\(Format.count(eventCount, "event"))  \(clockText) "
    // A long name takes at most half the room left, cut with `…`: the last event keeps
    // the other half for its kind and outcome (the whole room before the first event).
    let nameFree = keysColumn - x - TerminalText.width(head) - 3
    let nameRoom = max(lastEvent == nil && problem == nil ? nameFree : nameFree / 2, 12)
    let withJournal = head + " \(Screen.fitted(journal, toWidth: nameRoom)) "
    // The journal's name gives its room to what went wrong with it.
    let crowded = problem.map {
      x + TerminalText.width(withJournal) + TerminalText.width($0) + 2 > keysColumn
    }
    let counts = crowded == true ? head : withJournal
    x = canvas.write(counts, column: x, row: line.row, style: base, clip: line)
    let detail = Rect(column: x, row: line.row, width: keysColumn - x, height: 1)
    // What follows is cut with `…`, a space left before the keys.
    let room = detail.endColumn - x - 1
    if let problem {
      canvas.write(
        " " + Screen.fitted(problem, toWidth: room - 1), column: x, row: line.row,
        style: base.foreground(.red), clip: detail)
    } else if let lastEvent {
      // The label is cut before the outcome's name is: `last: itemSelected espr… → applied`.
      let fixed = TerminalText.width(" last: " + " → " + lastEvent.outcome.name)
      let label = Screen.fitted(lastEvent.text, toWidth: max(room - fixed, 1))
      x = canvas.write(
        Screen.fitted(" last: " + label + " → ", toWidth: room), column: x, row: line.row,
        style: base, clip: detail)
      let outcomeRoom = detail.endColumn - x - 1
      switch lastEvent.outcome {
      case .rejected(let reason):
        canvas.write(
          Screen.fitted("rejected: \(reason)", toWidth: outcomeRoom), column: x, row: line.row,
          style: base.foreground(.yellow).merging(.bold), clip: detail)
      case let outcome:
        canvas.write(
          Screen.fitted(outcome.name, toWidth: outcomeRoom), column: x, row: line.row,
          style: base, clip: detail)
      }
    }
    canvas.write(keys, column: keysColumn, row: line.row, style: base.merging(.bold), clip: line)
  }
}

extension String {
  /// A number of at least two digits: `05`, `12`, `130`.
  fileprivate init(format2 value: UInt64) {
    self = value < 10 ? "0\(value)" : "\(value)"
  }
}

/// The keys of `rewind live` itself, after the screen's.
let liveAppKeys = [
  KeyHelp("?", "show or hide this help"),
  KeyHelp("q", "quit: close the journal and print its name"),
  KeyHelp("Ctrl-C", "stop at once (the journal keeps every event the disk took)"),
]
