import RewindArguments
import RewindCore
import RewindStream

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The runner of the argument parser writes help and errors through the tool's context:
/// `Error:` in bold red on a colour terminal, after erasing a progress bar.
extension Context: CommandContext {
  package func writeOutput(_ text: String) {
    stdout.write(text)
  }

  package func writeError(_ text: String) {
    stdout.flush()
    stderr.write(text)
  }

  package var errorLabel: String {
    stderr.style.bold(stderr.style.red("Error:"))
  }

  /// Error messages quote ids, paths and values from files: their control characters
  /// are shown escaped (`\u{1B}`), on one line; and the password of a server URL they
  /// quote is written `***`, a user without a password too, which libnats sends as a
  /// token (`StreamStore.maskingPasswords(in:hidingTokens:)`): a message never shows a
  /// secret, whichever command's error quotes the URL as typed.
  package func escaped(_ message: String) -> String {
    TerminalText.escaped(StreamStore.maskingPasswords(in: message, hidingTokens: true))
  }

  package func finish() {
    stderr.eraseTransientLine()
    stdout.flush()
    stderr.flush()
  }

  /// The status the process exits with once a command that returned `status` is done
  /// (and ``finish()`` has flushed its streams): 1 when standard output refused what the
  /// command wrote (a full disk, a closed descriptor), which is then said on standard
  /// error, so that `rewind export s.journal > s.jsonl` on a full disk does not pass for
  /// a whole export. A command that failed keeps its own status. A closed pipe is not an
  /// error: its reader stopped reading on purpose (`rewind log s.journal | head`).
  package func exitStatus(after status: Int32) -> Int32 {
    guard let number = stdout.writeError, number != EPIPE else { return status }
    stderr.print(
      "\(errorLabel) cannot write to standard output: \(ProcessCalls.describe(errno: number)) (errno \(number)); what the command wrote there is incomplete"
    )
    stderr.flush()
    return status == 0 ? 1 : status
  }
}
