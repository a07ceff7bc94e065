import RewindCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The terminal, held by one full-screen program: raw mode, the alternate screen, mouse
/// reporting; and a loop that reads input, delivers it to a ``TerminalApp`` and draws
/// what changed.
///
/// Making a session checks that standard input and output are terminals (nothing is
/// touched otherwise) and installs its signal handlers: from then on `SIGINT`,
/// `SIGTERM` and `SIGHUP` end ``run(_:)`` instead of the process, and `SIGWINCH` becomes a
/// ``InputEvent/resize(_:)``; they come through a self-pipe into the loop's `poll`, the
/// only safe way out of a signal handler. The handlers stay until the session is
/// released, so that a program can finish its work (close a journal) after a signal
/// ended the loop, undisturbed by a second one.
///
/// Job control works as in a shell: Ctrl-Z (a byte in raw mode) or `SIGTSTP` tells the
/// app (``TerminalApp/willSuspend()``), puts the terminal back and stops the process;
/// once it goes on in the foreground (`fg`, `SIGCONT`, also after a `SIGSTOP`), the
/// session takes the terminal again and draws the whole screen. Continued in the
/// background (`bg`), it stops again; an ending signal that came while it was stopped (a
/// shell's `kill %1`) ends it, the terminal left to the shell.
///
/// ``run(_:)`` puts the terminal back on every way out: the app quits, a signal, the
/// terminal going away, a thrown error. A crash (a trap, a bad access) puts it back too
/// before the process dies. Ctrl-C, a byte in raw mode, ends the loop as `SIGINT` would,
/// at once: the keys read before it and not handled yet are dropped, as a terminal's own
/// interrupt character flushes its input.
///
/// ```swift
/// let session = try TerminalSession(environment: environment)
/// var app = Counter()
/// let exit = try session.run(&app)
/// ```
public final class TerminalSession {
  /// The descriptor input is read from (standard input).
  public let input: Int32
  /// The descriptor output is written to (standard output).
  public let output: Int32
  /// The colours the terminal shows, from the environment.
  public let colors: ColorSupport
  private let pipe: (read: Int32, write: Int32)
  private let replacedActions: [(Int32, sigaction)]
  /// Whether ``run(_:)`` holds the terminal (raw mode, the alternate screen): not before
  /// it, nor while the process is stopped after Ctrl-Z, nor once it was put back.
  private var holdsTerminal = false
  /// Whether a session of this process holds the signal handlers.
  nonisolated(unsafe) private static var active = false

  /// The bytes that enter the alternate screen, hide the cursor, stop auto-wrap, turn
  /// on mouse reports of presses, releases, drags and the wheel, in SGR 1006 form, and
  /// bracketed paste (pasted text comes as ``InputEvent/paste(_:)``, not as keys).
  static let enterSequence =
    "\u{1B}[?1049h\u{1B}[?25l\u{1B}[?7l\u{1B}[?1000h\u{1B}[?1002h\u{1B}[?1006h\u{1B}[?2004h"
  /// The bytes that undo ``enterSequence``.
  static let leaveSequence =
    "\u{1B}[?2004l\u{1B}[?1006l\u{1B}[?1002l\u{1B}[?1000l\u{1B}[0m\u{1B}[?7h\u{1B}[?25h\u{1B}[?1049l"

  /// Checks that `input` and `output` are terminals, touching neither.
  /// - Throws: ``TerminalError`` ``TerminalError/Code/notATerminal`` naming the stream
  ///   that is not.
  public static func checkTerminals(input: Int32 = 0, output: Int32 = 1) throws(TerminalError) {
    for descriptor in [input, output] where !TerminalCalls.isTerminal(descriptor) {
      throw TerminalError(
        .notATerminal, "\(TerminalCalls.name(descriptor)) is not a terminal")
    }
  }

  /// A session on the terminal of `input` and `output`, its signal handlers installed;
  /// the terminal itself is untouched until ``run(_:)``.
  /// - Parameters:
  ///   - input: The descriptor to read (standard input).
  ///   - output: The descriptor to write (standard output).
  ///   - environment: What decides the colours (`TERM`, `COLORTERM`, `NO_COLOR`).
  /// - Precondition: no other session of this process exists.
  /// - Throws: ``TerminalError`` when either is not a terminal, `TERM` says it cannot draw
  ///   a screen (`dumb`), or the pipe cannot be made.
  public init(input: Int32 = 0, output: Int32 = 1, environment: [String: String])
    throws(TerminalError)
  {
    try Self.checkTerminals(input: input, output: output)
    if environment["TERM"] == "dumb" {
      // Its escape sequences would be shown as text, and its keys not read as keys.
      throw TerminalError(
        .cannotDrawScreen,
        "TERM=dumb says this one cannot: run it in one that can, or set TERM to the terminal's type (e.g. TERM=xterm-256color)"
      )
    }
    precondition(!Self.active, "one TerminalSession at a time")
    self.input = input
    self.output = output
    colors = ColorSupport(environment: environment)
    pipe = try TerminalCalls.makePipe()
    replacedActions = SignalForwarding.install(writingTo: pipe.write)
    Self.active = true
  }

  deinit {
    SignalForwarding.uninstall(replacedActions)
    TerminalCalls.closeDescriptor(pipe.read)
    TerminalCalls.closeDescriptor(pipe.write)
    Self.active = false
  }

  /// The terminal's size now; 80×24 when it does not say.
  public var size: TerminalSize {
    TerminalCalls.size(output) ?? TerminalCalls.size(input) ?? TerminalSize(columns: 80, rows: 24)
  }

  /// Runs `app` until it quits, a signal ends the session, or the terminal goes away.
  ///
  /// Puts the terminal in raw mode with the alternate screen and mouse reports, draws,
  /// and loops: waits (`poll`) for input, a signal or the app's next tick; hands each
  /// event to the app; draws what changed (``ScreenRenderer``). A lone Esc is decided
  /// after ``InputDecoder/escapeTimeout``. Below the app's ``TerminalApp/minimumSize`` it
  /// says what size it needs instead of drawing the app. Whatever way it ends, the
  /// terminal is put back as it was.
  /// - Returns: How the session ended.
  /// - Throws: ``TerminalError`` when a system call on the terminal fails.
  public func run<App: TerminalApp>(_ app: inout App) throws(TerminalError) -> TerminalExit {
    let saved = try TerminalCalls.attributes(input)
    try TerminalCalls.setAttributes(TerminalCalls.raw(saved), input)
    holdsTerminal = true
    SignalForwarding.arm(input: input, output: output, attributes: saved)
    defer { putBack(saved) }
    try TerminalCalls.writeAll(output, Array(Self.enterSequence.utf8))
    var loop = Loop(session: self, size: size, saved: saved)
    return try loop.run(&app)
  }

  /// Puts the terminal back as `saved` holds it, when this session holds it: out of the
  /// alternate screen, mouse reports and raw mode. From the background (a stopped
  /// session's `kill %1`), the shell has the terminal and has set its own settings back:
  /// they are left to it (setting them would stop the process, `SIGTTOU`, until `fg`).
  /// Never throws: a terminal that went away cannot be put back, and nothing is left to
  /// do about it.
  private func putBack(_ saved: termios) {
    defer { SignalForwarding.disarm() }
    guard holdsTerminal else { return }
    holdsTerminal = false
    let foreground = TerminalCalls.isForeground(input)
    // From the background with `stty tostop`, a write would stop the process too.
    let flags = (try? TerminalCalls.attributes(input))?.c_lflag ?? 0
    if foreground || flags & tcflag_t(TOSTOP) == 0 {
      try? TerminalCalls.writeAll(output, Array(Self.leaveSequence.utf8))
    }
    guard foreground else { return }
    try? TerminalCalls.setAttributes(saved, input)
  }

  /// Puts the terminal back as `saved` holds it and stops the process (see
  /// ``SignalForwarding/stopAsSuspended()``) until it goes on in the foreground
  /// (``waitForForeground(restoring:)``).
  /// - Returns: The ending signal that came while it was stopped; nil once it took the
  ///   terminal again.
  fileprivate func suspend(restoring saved: termios) throws(TerminalError) -> Int32? {
    putBack(saved)
    return try waitForForeground(restoring: saved)
  }

  /// Stops the process until it goes on in the foreground (`fg`), then takes the terminal
  /// again. Continued in the background (`bg`, `kill -CONT`), it stops again: it would
  /// stop at its first draw (`SIGTTOU`) anyway, its signals unread. An ending signal that
  /// came while it was stopped (a shell's `kill %1` sends `SIGTERM`, then `SIGCONT`) is
  /// returned instead, the terminal left as it is: the session then ends (it stayed
  /// stopped, the journal of `live` open, until `fg`).
  /// - Returns: That signal; nil once it took the terminal again.
  fileprivate func waitForForeground(restoring saved: termios) throws(TerminalError) -> Int32? {
    // Stops that end at once, one after the other: the process group is orphaned (its
    // shell gone), where the system drops the stop signal. The terminal is gone for it.
    var instantStops = 0
    while true {
      let before = MonotonicClock.now()
      SignalForwarding.stopAsSuspended()
      instantStops = MonotonicClock.now() &- before < 1_000_000 ? instantStops + 1 : 0
      if instantStops >= 3, !TerminalCalls.isForeground(input) { return SIGHUP }
      // Continued: its handlers have written what came while it was stopped. A resize or
      // a job control signal needs nothing more: the whole screen is drawn next.
      if let ending = receivedSignals().first(where: SignalForwarding.ending.contains) {
        return ending
      }
      if TerminalCalls.isForeground(input) { break }
    }
    try resume(restoring: saved)
    return nil
  }

  /// Takes the terminal again after the process was stopped and continued: raw mode, the
  /// alternate screen, mouse reports (whatever the shell did with the terminal meanwhile).
  fileprivate func resume(restoring saved: termios) throws(TerminalError) {
    try TerminalCalls.setAttributes(TerminalCalls.raw(saved), input)
    holdsTerminal = true
    SignalForwarding.arm(input: input, output: output, attributes: saved)
    try TerminalCalls.writeAll(output, Array(Self.enterSequence.utf8))
  }

  /// The signals waiting in the pipe, in the order they came.
  fileprivate func receivedSignals() -> [Int32] {
    var buffer = [UInt8](repeating: 0, count: 64)
    var signals: [Int32] = []
    while let count = try? TerminalCalls.read(pipe.read, into: &buffer), count > 0 {
      signals += buffer[..<count].map(Int32.init)
    }
    return signals
  }

  fileprivate var signalDescriptor: Int32 { pipe.read }
}

/// How a ``TerminalSession`` ended.
public enum TerminalExit: Equatable, Sendable {
  /// The app quit.
  case quit
  /// A signal ended it (`SIGINT`, also for Ctrl-C; `SIGTERM`; `SIGHUP`).
  case signal(Int32)
  /// The terminal went away (its input ended).
  case inputClosed

  /// The status a program exits with after this ending: 0 after quitting, 128 plus the
  /// signal's number after a signal (130 for `SIGINT`), 129 (as `SIGHUP`) when the
  /// terminal went away.
  public var exitStatus: Int32 {
    switch self {
    case .quit: 0
    case .signal(let signal): 128 + signal
    case .inputClosed: 128 + SIGHUP
    }
  }

  /// `SIGINT` (2), for Ctrl-C.
  public static let interrupt = TerminalExit.signal(SIGINT)
}

/// The loop of one ``TerminalSession/run(_:)``.
private struct Loop {
  let session: TerminalSession
  var size: TerminalSize
  /// The terminal's settings before the session, put back while the process is stopped.
  let saved: termios
  var decoder = InputDecoder()
  /// What the terminal shows; nil when unknown (first draw, after a resize).
  var shown: Screen?
  var escapeDeadline: UInt64?
  var tickInterval: Duration?
  var nextTick: UInt64?

  init(session: TerminalSession, size: TerminalSize, saved: termios) {
    self.session = session
    self.size = size
    self.saved = saved
  }

  /// Stops the process (Ctrl-Z, `SIGTSTP`), the app told first
  /// (``TerminalApp/willSuspend()``), or takes the terminal again after it was
  /// stopped (`SIGCONT`: after a `SIGSTOP`, which the session does not see; in the
  /// background, it waits to be in the foreground, stopped); either way the whole screen
  /// is drawn next, at the terminal's size then, which the app is told of when it changed
  /// meanwhile.
  /// - Returns: How the session ends: by an ending signal that came while the process was
  ///   stopped, or the app quit on that resize; nil when it goes on.
  mutating func suspendOrResume<App: TerminalApp>(_ signal: Int32, _ app: inout App)
    throws(TerminalError) -> TerminalExit?
  {
    if signal == SIGTSTP {
      app.willSuspend()
      if let ending = try session.suspend(restoring: saved) { return .signal(ending) }
    } else if TerminalCalls.isForeground(session.input) {
      try session.resume(restoring: saved)
    } else if let ending = try session.waitForForeground(restoring: saved) {
      return .signal(ending)
    }
    let before = size
    size = session.size
    shown = nil
    return size != before && app.handle(.resize(size)) == .quit ? .quit : nil
  }

  mutating func run<App: TerminalApp>(_ app: inout App) throws(TerminalError) -> TerminalExit {
    scheduleTicks(app.tickInterval, now: MonotonicClock.now())
    try draw(&app)
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let ready = try TerminalCalls.wait(
        for: [session.signalDescriptor, session.input], timeout: timeout())
      var changed = false
      if ready[0] {
        for signal in session.receivedSignals() {
          if signal == SIGWINCH {
            let newSize = session.size
            guard newSize != size else { continue }
            size = newSize
            shown = nil
            changed = true
            if app.handle(.resize(newSize)) == .quit { return .quit }
          } else if SignalForwarding.jobControl.contains(signal) {
            changed = true
            if let exit = try suspendOrResume(signal, &app) { return exit }
          } else {
            return .signal(signal)
          }
        }
      }
      var events: [InputEvent] = []
      if ready[1] {
        if let count = try TerminalCalls.read(session.input, into: &buffer) {
          if count == 0 { return .inputClosed }
          events += decoder.decode(buffer[..<count])
        }
      }
      let now = MonotonicClock.now()
      if decoder.hasPending {
        if let deadline = escapeDeadline, now >= deadline {
          events += decoder.flush()
          escapeDeadline = nil
        } else if escapeDeadline == nil {
          escapeDeadline = now + Self.nanoseconds(InputDecoder.escapeTimeout)
        }
      } else {
        escapeDeadline = nil
      }
      // Ctrl-C interrupts at once, the keys typed before it and not handled yet dropped
      // (as a terminal's own interrupt character flushes its input): a held key whose
      // handling is slow queued its repeats, seconds of work, ahead of it. The same for
      // keys typed while earlier ones are handled.
      if events.contains(.key(.control("c"))) { return .interrupt }
      var index = 0
      while index < events.count {
        if index > 0, try TerminalCalls.wait(for: [session.input], timeout: 0)[0],
          let count = try TerminalCalls.read(session.input, into: &buffer), count > 0
        {
          let typed = decoder.decode(buffer[..<count])
          if typed.contains(.key(.control("c"))) { return .interrupt }
          events += typed
        }
        let event = events[index]
        index += 1
        if event == .key(.control("c")) { return .interrupt }
        if event == .key(.control("z")) {
          // As the terminal's own suspend character would, in raw mode a byte.
          changed = true
          if let exit = try suspendOrResume(SIGTSTP, &app) { return exit }
          continue
        }
        // Behind the notice that the terminal is too small, the app takes only what it
        // says it does (q, by default): what a key or a click did there could not be seen.
        if !size.fits(app.minimumSize), !app.takesWhileTooSmall(event) { continue }
        if app.handle(event) == .quit { return .quit }
        changed = true
      }
      // A lone Esc read between the events above waits for the rest of a sequence like one
      // read at the top: its deadline is set, or the wait below would not end without
      // another key.
      if decoder.hasPending, escapeDeadline == nil {
        escapeDeadline = MonotonicClock.now() + Self.nanoseconds(InputDecoder.escapeTimeout)
      }
      if let next = nextTick, now >= next {
        // No tick behind the notice that the terminal is too small (playback stops there).
        if size.fits(app.minimumSize), app.tick() == .quit { return .quit }
        changed = true
        nextTick = nil
        scheduleTicks(app.tickInterval, now: now)
      } else if app.tickInterval != tickInterval {
        scheduleTicks(app.tickInterval, now: now)
      }
      if changed { try draw(&app) }
    }
  }

  /// Starts, changes or stops the ticks.
  mutating func scheduleTicks(_ interval: Duration?, now: UInt64) {
    if interval != tickInterval || nextTick == nil {
      nextTick = interval.map { now + Self.nanoseconds($0) }
    }
    tickInterval = interval
  }

  /// Milliseconds until the next deadline (the Esc decision, the tick); -1 for none.
  func timeout() -> Int32 {
    let deadlines = [escapeDeadline, nextTick].compactMap { $0 }
    guard let deadline = deadlines.min() else { return -1 }
    let now = MonotonicClock.now()
    guard deadline > now else { return 0 }
    return Int32(min((deadline - now + 999_999) / 1_000_000, 60_000))
  }

  mutating func draw<App: TerminalApp>(_ app: inout App) throws(TerminalError) {
    var screen = Screen(size: size)
    if size.fits(app.minimumSize) {
      app.draw(on: &screen)
    } else {
      Self.drawTooSmall(on: &screen, needs: app.minimumSize)
    }
    let bytes = ScreenRenderer.update(from: shown, to: screen, colors: session.colors)
    if !bytes.isEmpty {
      // Synchronized output (mode 2026): terminals that know it show the frame at once.
      try TerminalCalls.writeAll(
        session.output, Array("\u{1B}[?2026h".utf8) + bytes + Array("\u{1B}[?2026l".utf8))
    }
    shown = screen
  }

  /// What a terminal below the app's minimum size shows: the size needed and the size
  /// it has, centred. In a terminal too narrow for its three lines the sentence is
  /// wrapped at its words; in one too small for that, the size needed alone
  /// (``TerminalSession/tooSmallLines(size:needs:)``).
  static func drawTooSmall(on screen: inout Screen, needs minimum: TerminalSize) {
    let lines = TerminalSession.tooSmallLines(size: screen.size, needs: minimum)
    let top = max((screen.size.rows - lines.count) / 2, 0)
    for (offset, line) in lines.enumerated() {
      let left = max((screen.size.columns - line.count) / 2, 0)
      screen.write(line, column: left, row: top + offset)
    }
  }

  static func nanoseconds(_ duration: Duration) -> UInt64 {
    let (seconds, attoseconds) = duration.components
    return UInt64(max(seconds, 0)) * 1_000_000_000 + UInt64(max(attoseconds, 0) / 1_000_000_000)
  }
}

extension TerminalSession {
  /// The lines a session writes in a terminal of `size`, below the app's minimum size:
  /// the first of these whose lines fit its width and rows, never a size cut short: the
  /// three lines; the same words wrapped; `Make it at least C×R` wrapped; `C×R`, cut only
  /// when the terminal is narrower than that.
  static func tooSmallLines(size: TerminalSize, needs minimum: TerminalSize) -> [String] {
    let lines = ["This terminal is \(size).", "Make it at least \(minimum)", "(columns × rows)."]
    let width = max(size.columns, 1)
    let rows = max(size.rows, 1)
    func fits(_ lines: [String]) -> Bool {
      lines.count <= rows && lines.allSatisfy { $0.count <= width }
    }
    if fits(lines) { return lines }
    for sentence in [lines.joined(separator: " "), "Make it at least \(minimum)"] {
      let wrapped = Screen.wrapped(sentence, width: width)
      if fits(wrapped) { return wrapped }
    }
    return [String("\(minimum)".prefix(width))]
  }
}
