/// Why the terminal cannot be used: it is not one, or a system call on it failed.
public struct TerminalError: Error, Equatable, Sendable, CustomStringConvertible {
  public enum Code: Equatable, Sendable {
    /// Standard input or output is not a terminal (a pipe, a file).
    case notATerminal
    /// The terminal says it cannot draw a screen (`TERM=dumb`: Emacs' shell, an editor's
    /// output pane).
    case cannotDrawScreen
    /// A system call on the terminal failed (`tcsetattr`, `poll`, `read`, `write`).
    case systemCall
  }

  public var code: Code
  /// What failed, on which stream, and why: `tcsetattr on standard input: Input/output
  /// error (errno 5)`.
  public var message: String
  /// The `errno` of a failed system call.
  public var errno: Int32?

  public init(_ code: Code, _ message: String, errno: Int32? = nil) {
    self.code = code
    self.message = message
    self.errno = errno
  }

  public var description: String { message }
}
