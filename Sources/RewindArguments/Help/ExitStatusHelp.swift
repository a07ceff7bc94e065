/// One line of a help screen's `EXIT STATUS:` section: a status and what it means, or,
/// with no status, a note under the section's lines.
///
/// ```swift
/// CommandConfiguration(
///   name: "diff", abstract: "Compare two points.",
///   exitStatuses: [.init("2", "With --exit-code: the states cannot be compared.")])
/// ```
///
/// The tool's help lists the statuses every command shares; a command's help lists only
/// its own, so that a script's author finds both without reading every screen.
public struct ExitStatusHelp: Sendable, Equatable {
  /// The status as a shell sees it (`0`, `64`, `128+N`); empty for a note.
  public var status: String
  /// What the status means, a sentence.
  public var meaning: String

  /// A status and its meaning.
  /// - Parameters:
  ///   - status: The status as a shell sees it; empty for a note, printed under the
  ///     statuses without one.
  ///   - meaning: What it means.
  public init(_ status: String, _ meaning: String) {
    self.status = status
    self.meaning = meaning
  }
}
