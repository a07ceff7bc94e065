import RewindArguments

/// The arguments of the command line that are not UTF-8 text, as `check` and `verify`
/// take them: each stands in the command line as its bytes, those outside printable ASCII
/// written `\xHH` (`\xE9t\xE9.journal`), and such a journal fails in its place, named so,
/// as one that cannot be read does, while the others are read.
///
/// `CommandLine.arguments` repairs such an argument (each bad byte becomes U+FFFD): read
/// so, a path in Latin-1 would name another file than the one meant. Every other command
/// refuses it (status 64) before it runs, and these two when it is an option's value,
/// as their run starts: one file
/// named so in a directory made a whole `rewind check dir/*.journal` refuse to run.
package struct ArgumentsNotUTF8: Sendable {
  /// Each such argument as it stands in the command line, and how many times it was given.
  private var counts: [String: Int] = [:]

  /// None: every argument is UTF-8 text.
  package init() {}

  /// The arguments `shown`, each as it stands in the command line, once for each time it
  /// was given.
  package init(_ shown: [String]) {
    for argument in shown { counts[argument, default: 0] += 1 }
  }

  /// The sentence that refuses the argument `shown` (after `Error: `).
  package static func refusal(_ shown: String) -> String {
    "the argument '\(shown)' is not UTF-8 text; rewind reads its arguments, paths included, as UTF-8"
  }

  /// The error of the journal argument `journal` when it stands for a path that is not
  /// UTF-8 text (it cannot be opened: the file is not named so); nil for any other.
  func error(naming journal: String) -> CommandError? {
    guard counts[journal] != nil else { return nil }
    return CommandError(
      "\(journal): the path is not UTF-8 text, and rewind reads its arguments, paths included, as UTF-8: it cannot open the file (rename it to read it)"
    )
  }

  /// Refuses an argument that is not UTF-8 text and is not among `journals` (an option's
  /// value: `--expect`, say), as every other command refuses it.
  /// - Throws: ``UsageError`` naming the first such argument.
  func requireOnly(among journals: [String]) throws(UsageError) {
    for (argument, count) in counts.sorted(by: { $0.key < $1.key })
    where journals.count(where: { $0 == argument }) < count {
      throw UsageError(Self.refusal(argument))
    }
  }
}
