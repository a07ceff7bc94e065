/// A script line's time step, shared by the scripts of every domain (`rewind record`'s
/// scenarios, the generic event scripts): `+0.8s` after the event before, `@12.5s` from
/// the session's start, in the units of an offset (`us`, `ms`, `s`, `m`, `h`).
package enum ScriptTimeStep: Equatable, Sendable {
  /// `+DURATION`: this many microseconds after the event before.
  case after(UInt64)
  /// `@DURATION`: at this many microseconds from the session's start.
  case at(UInt64)

  /// The latest time a script's event may have: 1,000 years in microseconds, far below
  /// a journal's limit, so that adding a step (below 1.8 × 10^19) never overflows.
  package static let latestTime: UInt64 = 1_000 * 365 * 24 * 3_600_000_000

  /// Why a script's session cannot have an event this late.
  package static let tooLateMessage =
    "the session would last longer than \(latestTime / 3_600_000_000) hours"

  /// The step `word` writes, nil when `word` is none, with a line's error for a word that
  /// starts as one but is not (`problem` makes it from the message).
  package static func parse<Failure: Error>(
    _ word: some StringProtocol, problem: (String) -> Failure
  ) throws(Failure) -> ScriptTimeStep? {
    do throws(RewindError) {
      return try ScriptTimeStep(word)
    } catch {
      throw problem(error.message)
    }
  }

  /// The microseconds of the step: after the event before, or from the start.
  package var amount: UInt64 {
    switch self {
    case .after(let amount), .at(let amount): amount
    }
  }

  /// The step `word` writes; nil when `word` starts with neither `+` nor `@` (it is no
  /// time step).
  ///
  /// - Throws: ``RewindError/Code/invalidInput``, saying what is wrong with a word that
  ///   starts as a step: a number too large for any session's time, or not a duration.
  package init?(_ word: some StringProtocol) throws(RewindError) {
    guard let sign = word.first, sign == "+" || sign == "@" else { return nil }
    let (amount, tooLarge) = Point.offset(word.dropFirst())
    if let amount {
      guard Point.isWholeMicroseconds(word.dropFirst()) else {
        throw RewindError(
          .invalidInput,
          "\(Format.quoted(word)) is finer than a microsecond, the unit of a journal's times")
      }
      self = sign == "+" ? .after(amount) : .at(amount)
      return
    }
    if tooLarge {
      throw RewindError(
        .invalidInput, "\(Format.quoted(word)) is too large: \(Self.tooLateMessage)")
    }
    throw RewindError(
      .invalidInput,
      "expected a time step such as +0.8s, +250ms or @12.5s, found \(Format.quoted(word))")
  }
}
