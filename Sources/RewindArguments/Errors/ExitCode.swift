/// The status a tool's process exits with.
///
/// `0` success, `1` a command failed while working, `64` (`EX_USAGE` from sysexits.h)
/// the command line was wrong. A command may throw an exit code to end with that status
/// without a message (after printing its own report, say).
public struct ExitCode: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
  /// The status as the process reports it.
  public var rawValue: Int32

  /// An exit status.
  /// - Parameter rawValue: The status, 0 for success.
  public init(_ rawValue: Int32) {
    self.rawValue = rawValue
  }

  /// The command did what was asked.
  public static let success = ExitCode(0)
  /// The command failed while working.
  public static let failure = ExitCode(1)
  /// The command line was wrong (`EX_USAGE`).
  public static let usage = ExitCode(64)

  public var description: String { "exit code \(rawValue)" }
}
