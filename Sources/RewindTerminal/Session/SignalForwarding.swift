#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The signals a ``TerminalSession`` handles, and the self-pipe that brings them into
/// its `poll` loop.
///
/// A signal handler may do almost nothing safely; these write the signal's number as one
/// byte into a pipe, and the session's loop reads it with the terminal's input. The
/// crash handlers (a trap, a bad access) put the terminal back as it was and let the
/// signal kill the process as it would have: a crash never leaves the terminal in raw
/// mode. Their state is global because a handler can reach nothing else; one session at
/// a time installs them.
enum SignalForwarding {
  /// The signals that end a session (forwarded): interrupt, terminate, hang-up.
  static let ending: [Int32] = [SIGINT, SIGTERM, SIGHUP]
  /// The signals of job control (forwarded): the session puts the terminal back before
  /// the process stops (`SIGTSTP`), and takes it again once it goes on (`SIGCONT`).
  static let jobControl: [Int32] = [SIGTSTP, SIGCONT]
  /// The signals after which the terminal is put back before the process dies.
  static let crashes: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGFPE, SIGABRT]

  /// Installs the handlers: the ending signals, those of job control and `SIGWINCH`
  /// write to `pipe`, the crashes restore the terminal.
  /// - Returns: The actions they replace, for ``uninstall(_:)``.
  static func install(writingTo pipe: Int32) -> [(Int32, sigaction)] {
    forwardingDescriptor = pipe
    var replaced: [(Int32, sigaction)] = []
    for signal in ending + jobControl + [SIGWINCH] {
      replaced.append((signal, setHandler(signal, forwardSignal, flags: 0)))
    }
    for signal in crashes {
      replaced.append(
        (
          signal,
          setHandler(
            signal, restoreAfterCrash,
            flags: Int32(truncatingIfNeeded: SA_RESETHAND) | Int32(truncatingIfNeeded: SA_NODEFER))
        ))
    }
    return replaced
  }

  /// Stops the process as `SIGTSTP` does by default (Ctrl-Z in a shell): returns once it
  /// is continued, at once when its process group is orphaned (no shell would continue
  /// it, so the system does not stop it). The forwarding handler is back afterwards.
  static func stopAsSuspended() {
    var forwarding = setHandler(SIGTSTP, SIG_DFL, flags: 0)
    raise(SIGTSTP)
    sigaction(SIGTSTP, &forwarding, nil)
  }

  /// Puts back the actions ``install(writingTo:)`` replaced.
  static func uninstall(_ replaced: [(Int32, sigaction)]) {
    for (signal, action) in replaced {
      var action = action
      sigaction(signal, &action, nil)
    }
    forwardingDescriptor = -1
  }

  /// The settings and bytes that put a terminal back, for the crash handlers; nil when
  /// no session holds the terminal.
  static func arm(input: Int32, output: Int32, attributes: termios) {
    crashInput = input
    crashOutput = output
    crashAttributes = attributes
    crashArmed = true
  }

  /// The terminal was put back: the crash handlers have nothing to do.
  static func disarm() {
    crashArmed = false
  }

  /// Sets `signal`'s handler (`SIG_DFL` for the default action) and returns the action
  /// it replaces.
  private static func setHandler(
    _ signal: Int32, _ handler: (@convention(c) (Int32) -> Void)?, flags: Int32
  ) -> sigaction {
    var action = sigaction()
    #if canImport(Darwin)
      action.__sigaction_u.__sa_handler = handler
    #else
      action.__sigaction_handler.sa_handler = handler
    #endif
    sigemptyset(&action.sa_mask)
    action.sa_flags = flags
    var previous = sigaction()
    sigaction(signal, &action, &previous)
    return previous
  }
}

// The handlers' state: plain globals, read by the handlers without locks (a handler may
// take none). Written only while no handler of a session is installed, or before the
// flag that guards them.
nonisolated(unsafe) private var forwardingDescriptor: Int32 = -1
nonisolated(unsafe) private var crashArmed = false
nonisolated(unsafe) private var crashInput: Int32 = 0
nonisolated(unsafe) private var crashOutput: Int32 = 1
nonisolated(unsafe) private var crashAttributes = termios()

/// The bytes that leave bracketed paste, the alternate screen, mouse reporting and the
/// hidden cursor;
/// the same as `TerminalSession.leaveSequence`, as a static string a handler can write
/// without allocating.
private let crashLeaveSequence: StaticString =
  "\u{1B}[?2004l\u{1B}[?1006l\u{1B}[?1002l\u{1B}[?1000l\u{1B}[0m\u{1B}[?7h\u{1B}[?25h\u{1B}[?1049l"

private func forwardSignal(_ signal: Int32) {
  let saved = errno
  var byte = UInt8(truncatingIfNeeded: signal)
  _ = write(forwardingDescriptor, &byte, 1)
  errno = saved
}

/// Puts the terminal back and returns; the handler was reset (`SA_RESETHAND`), so the
/// fault happens again, or the signal is raised again, with its default action.
private func restoreAfterCrash(_ signal: Int32) {
  if crashArmed {
    crashArmed = false
    _ = tcsetattr(crashInput, TCSANOW, &crashAttributes)
    _ = write(crashOutput, crashLeaveSequence.utf8Start, crashLeaveSequence.utf8CodeUnitCount)
  }
  // A signal sent rather than caused by an instruction would not come back: raise it.
  if signal == SIGABRT || signal == SIGTRAP { raise(signal) }
}
