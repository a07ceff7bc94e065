import RewindArguments
import RewindCore
import RewindJournal

/// A scenario script's session recorded as its lines are read: `rewind record` of a script
/// of any length, in memory that does not grow with it.
///
/// Each event is reduced and recorded at the script's time of it, as a live Store would,
/// and each `expect` line is checked on the state after its event. The journal is written
/// beside its destination and appears, complete, only when ``finish()`` closes it: a
/// failure before, or a recording dropped, leaves nothing behind and a file at the
/// destination as it was (`JournalRecorder.create(_:domain:session:options:)`).
///
/// A script held whole met its failures in an order: the output refused (before any
/// event), then the first `expect` line that fails, then a journal that cannot be
/// written. Read a line at a time, a later one in that order can come first (a full disk
/// before a failing `expect` line): a failure is kept, and replaced by one that comes
/// before it in that order, so that ``finish()`` says the one the whole script said. The
/// script's own problems (a line that does not read, a text that is no text) come before
/// all of these, and are the reader's to say: it drops the recording.
///
/// ```swift
/// var recording = ScenarioRecording(session, …)
/// recording.take(lines)  // a batch of lines at a time
/// let summary = try recording.finish()
/// ```
struct ScenarioRecording<D: RecordableDomain> {
  /// What a recording did: the summary `rewind record` prints.
  struct Summary {
    var events: Int
    var rejected: Int
    /// The last event's time, 0 without events.
    var duration: UInt64
  }

  /// Where a failure comes in the order a whole script's failures were said.
  private enum Stage: Comparable {
    case output, expectation, writing
  }

  private let domain: D
  private let scenarioPath: String
  /// Nil once something failed.
  private var recorder: JournalRecorder<D>?
  /// The state after the last event once the recorder is gone (a journal that cannot be
  /// written), for the `expect` lines still to check.
  private var state: D.State
  private var failure: (stage: Stage, error: any Error)?
  /// The last event read, recorded when the next line says whether the state before it is
  /// needed (an `expect` line after it).
  private var pending: TimedEvent<D.Event>?
  /// Events no `expect` line follows, recorded together (in the loop compiled for the
  /// domain).
  private var run: [TimedEvent<D.Event>] = []
  /// The last event reduced, its outcome and the state before it, kept when an `expect`
  /// line follows it.
  private var previous: (event: D.Event, outcome: Outcome<D.Rejection>, before: D.State)?
  private var summary = Summary(events: 0, rejected: 0, duration: 0)

  /// Starts the journal of `session` at `output`, unless a failure says why not.
  ///
  /// - Parameters:
  ///   - session: the script's domain, device, start and the files it read (its events
  ///     are not read).
  ///   - scenarioPath: what `expect` failures call the script (its path, or `standard
  ///     input`).
  ///   - input: the file the script is read from, which the journal may not be.
  ///   - output: the journal to write (`-o`), replaced with `force`.
  ///   - options: snapshots, compression and durability.
  ///   - id: the session's id.
  init(
    _ session: Scenario<D>, scenarioPath: String, input: String, output: String, force: Bool,
    options: RecordingOptions, id: SessionID
  ) {
    domain = session.domain
    self.scenarioPath = scenarioPath
    state = session.domain.initialState
    let destination: FileDestination
    do {
      destination = try outputDestination(
        output, force: force, inputs: [input] + session.files)
    } catch {
      failure = (.output, error)
      return
    }
    do {
      recorder = try JournalRecorder.create(
        destination, domain: session.domain,
        session: SessionInfo(
          id: id, startTime: session.startTime ?? WallClock.now(),
          device: session.device ?? "rewind record \(scenarioPath)"),
        options: options)
    } catch {
      failure = (.writing, error)
    }
  }

  /// Takes the script's next lines: its events and `expect` lines, in order.
  /// - Complexity: O(lines) plus the reducer and the recording of each event; a copy of
  ///   the state before an event an `expect` line follows.
  mutating func take(_ lines: [ScenarioScriptLine<D.Event>]) {
    for line in lines {
      switch line {
      case .event(let timed):
        if let pending { run.append(pending) }
        pending = timed
      case .expectation(let expectation):
        recordRun()
        if let pending {
          recordKeepingBefore(pending)
          self.pending = nil
        }
        check(expectation)
      }
    }
    recordRun()
  }

  /// Closes the journal, which appears at its destination, and says what was recorded.
  /// - Throws: the failure met first in the order a whole script's are said:
  ///   ``outputDestination(_:force:inputs:existingLater:argument:)``'s, `CommandError`
  ///   for an `expect` line that fails (`…; nothing was recorded`), `JournalError` for a
  ///   journal that cannot be written; nothing is then written.
  mutating func finish() throws -> Summary {
    if let pending {
      run.append(pending)
      self.pending = nil
    }
    recordRun()
    if let failure { throw failure.error }
    try recorder?.close()
    recorder = nil
    return summary
  }

  /// Records the events of ``run`` (reduces them once the recorder is gone).
  private mutating func recordRun() {
    guard let last = run.last else { return }
    defer { run.removeAll(keepingCapacity: true) }
    summary.events += run.count
    summary.duration = last.time
    previous = nil
    // After the output or an `expect` line failed, nothing later is said.
    guard failure.map({ $0.stage == .writing }) ?? true else { return }
    var unrecorded = run[...]
    if let recorder {
      let first = recorder.lastSequence
      do {
        summary.rejected += try recorder.recordRun(run[...])
        return
      } catch {
        // Those before the event refused are recorded; the state is the one before it.
        unrecorded = run[Int(recorder.lastSequence - first)...]
        state = recorder.state
        fail(.writing, error)
      }
    }
    for timed in unrecorded { _ = domain.reduce(&state, timed.event) }
  }

  /// Records `timed`, an event an `expect` line follows, keeping its outcome and the
  /// state before it (reduces it once the recorder is gone).
  private mutating func recordKeepingBefore(_ timed: TimedEvent<D.Event>) {
    summary.events += 1
    summary.duration = timed.time
    previous = nil
    guard failure.map({ $0.stage == .writing }) ?? true else { return }
    let before = recorder?.state ?? state
    let outcome: Outcome<D.Rejection>
    if let recorder {
      do {
        outcome = try recorder.record(timed.event, at: timed.time)
      } catch {
        // The event is not recorded: the state is the one before it.
        state = recorder.state
        fail(.writing, error)
        outcome = domain.reduce(&state, timed.event)
      }
    } else {
      outcome = domain.reduce(&state, timed.event)
    }
    if outcome.isRejected { summary.rejected += 1 }
    previous = (timed.event, outcome, before)
  }

  /// Checks `expectation` on the state after the event before it.
  private mutating func check(_ expectation: ScenarioExpectation) {
    guard failure.map({ $0.stage == .writing }) ?? true else { return }
    let after = recorder?.state ?? state
    guard
      let problem = expectation.failure(
        domain: domain, event: previous?.event, outcome: previous?.outcome,
        before: previous?.before ?? after, after: after)
    else { return }
    let event = previous.map { " (after \(domain.describe($0.event)))" } ?? ""
    fail(
      .expectation,
      CommandError(
        "\(scenarioPath):\(expectation.line): expect failed\(event): \(problem); nothing was recorded"
      ))
  }

  /// Keeps `error` unless a failure said before it is kept; drops the journal.
  private mutating func fail(_ stage: Stage, _ error: any Error) {
    recorder = nil
    if let failure, failure.stage <= stage { return }
    failure = (stage, error)
  }
}
