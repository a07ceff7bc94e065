/// A command failed while working: a file that cannot be opened, a check that did not
/// pass.
///
/// The runner prints `Error: <message>` (then `: <cause>` when there is one) on stderr and
/// exits with ``exitCode``, 1 unless said otherwise. Commands may throw any other error
/// too (a file system error, say): the runner prints its description the same way and exits
/// with 1. Messages say what went wrong, where, and what to do.
public struct CommandError: Error, Sendable, CustomStringConvertible {
  /// The sentence printed after `Error: `.
  public var message: String
  /// The lower-level error that caused this one, if any.
  public var cause: (any Error)?
  /// The status the process exits with.
  public var exitCode: ExitCode

  /// A failure to report.
  /// - Parameters:
  ///   - message: What went wrong and where, printed after `Error: `.
  ///   - cause: The lower-level error, printed after the message.
  ///   - exitCode: The status to exit with.
  public init(_ message: String, cause: (any Error)? = nil, exitCode: ExitCode = .failure) {
    self.message = message
    self.cause = cause
    self.exitCode = exitCode
  }

  public var description: String {
    guard let cause else { return message }
    return "\(message): \(cause)"
  }
}
