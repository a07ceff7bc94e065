import RewindArguments
import RewindCore
import RewindSpelling

/// Reading points from the command line and resolving them against a session, one way
/// for every command.
/// A point as the user wrote it, parsed.
struct PointArgument: CustomStringConvertible {
  /// The point, as a user means it who writes a time as the commands show times
  /// (`Point(parsingAsShown:)`).
  var point: Point
  /// The text given, for messages.
  var text: String

  init(_ text: String) throws(InvalidValue) {
    do throws(RewindError) {
      point = try Point(parsingAsShown: text)
      self.text = text
    } catch {
      throw InvalidValue(Point.reason(error))
    }
  }

  var description: String { text }
}

extension PointArgument: ExpressibleByArgument {
  /// A point given for an option or argument, not yet resolved against a session.
  init(argument: String) throws(InvalidValue) {
    try self.init(argument)
  }

  /// `start`, the default of the first point of a range.
  static var start: PointArgument { try! PointArgument("start") }
  /// `end`, the default of a single point or of the last point of a range.
  static var end: PointArgument { try! PointArgument("end") }
}

extension Point {
  /// The part of a parse error that says what was expected.
  static func reason(_ error: RewindError) -> String {
    if let range = error.message.firstRange(of: ": expected ") {
      return String(error.message[range.lowerBound...].dropFirst(2))
    }
    return error.message
  }
}

extension Timeline {
  /// The sequence number of a point given on the command line. A time after the last
  /// event is the end state, a time before the first the start state; only a sequence
  /// number can be outside the session.
  ///
  /// With `knownState` (a command that shows the state there), a time among the times of
  /// events lost to damage is refused (``Timeline/resolveKnown(_:written:)``); without
  /// it (a scan's bound), it stands for the last event kept before them.
  /// - Parameter shown: the value the usage error quotes, if not the point as given
  ///   (`JOURNAL@POINT`, whose journal the point alone does not name).
  /// - Throws: ``UsageError`` naming the option and the session's range when the point is
  ///   outside it; `RewindError` `eventsLost` for a state not known.
  func resolve(
    _ argument: PointArgument, option: String, knownState: Bool = true, shown: String? = nil
  ) throws -> UInt64 {
    do {
      if knownState { return try resolveKnown(argument.point, written: argument.text) }
      return try resolve(argument.point)
    } catch let error as RewindError where error.code == .outOfRange {
      throw UsageError(
        .invalidValue,
        "The value \(Format.quoted(shown ?? argument.text)) is invalid for '\(option)': \(error.message)"
      )
    }
  }

  /// The sequence numbers of the points of a range, `--from` and `--to`, the one way
  /// `diff`, `log` and `export` read one. `knownStates` for a command that shows the
  /// states at both (see ``resolve(_:option:knownState:)``); a scan's range is without.
  /// - Throws: ``UsageError`` for a point outside the session, or when `--from` comes
  ///   after `--to` (`--from 15 is after --to 12`).
  func resolveRange(from: PointArgument, to: PointArgument, knownStates: Bool = false) throws
    -> (from: UInt64, to: UInt64)
  {
    let first = try resolve(from, option: "--from <point>", knownState: knownStates)
    let last = try resolve(to, option: "--to <point>", knownState: knownStates)
    guard first <= last else {
      func shown(_ argument: PointArgument, _ sequence: UInt64) -> String {
        // Point 0 is the state before any event, no event's (walk of the query commands).
        argument.text == String(sequence) || (sequence == 0 && argument.text == "start")
          ? argument.text
          : "\(argument.text) (\(sequence == 0 ? "the start" : "event \(sequence)"))"
      }
      throw UsageError(
        "--from \(shown(from, first)) is after --to \(shown(to, last)); give the earlier point first"
      )
    }
    return (first, last)
  }
}

/// A value that must be one of a known set (an event kind, a domain), checked against
/// the session: a usage error that lists the choices and suggests a near one.
func requireChoice(
  _ value: String, among choices: [String], for parameter: String, what: String
) throws(UsageError) {
  guard let reason = choiceProblem(value, among: choices, what: what) else { return }
  throw UsageError(
    .invalidValue, "The value \(Format.quoted(value)) is invalid for '\(parameter)': \(reason)")
}

/// Why `value` is not one of `choices`: the list and a near one; nil when it is one.
func choiceProblem(_ value: String, among choices: [String], what: String) -> String? {
  guard !choices.contains(value) else { return nil }
  // An empty one of a list separated by commas (`itemSelected,`): said as such.
  let empty =
    value.isEmpty ? "no \(what) (an empty one between commas, or a comma at an end); " : ""
  var message = "\(empty)the \(what)s are \(choices.joined(separator: ", "))"
  if let suggestion = closestName(to: value, among: choices) {
    message += ". Did you mean '\(suggestion)'?"
  }
  return message
}

/// A field path of the domain's state (blame's `<path>`): checked by the one lookup
/// that `find` checks its conditions' fields with, and suggested the same way.
func requireField<D: Domain>(_ path: String, of domain: D, for parameter: String)
  throws(UsageError)
{
  do throws(RewindError) {
    _ = try domain.fieldIndex(of: path)
  } catch {
    var message = "The value \(Format.quoted(path)) is invalid for '\(parameter)': \(error.message)"
    if let suggestion = closestName(to: path, among: domain.fields.map(\.path)) {
      message += ". Did you mean '\(suggestion)'?"
    }
    throw UsageError(.invalidValue, message)
  }
}

extension Timeline {
  /// Refuses a range that events lost to damage cut, for a command that replays every
  /// event of it from its first point (a page, a test), before any work: names the
  /// first lost events and the parts on either side of them it can write.
  /// - Parameters:
  ///   - what: what the command writes, for the message (`a page`).
  ///   - startsAtLostEvent: whether the command can start at the last of the lost events,
  ///     whose state (the snapshot after them) is known: a test can, a page cannot (it
  ///     needs its first point's time, which was lost).
  /// - Throws: ``CommandError``.
  func refuseLostEvents(
    in range: (from: UInt64, to: UInt64), writing what: String, startsAtLostEvent: Bool
  ) throws {
    guard range.to > range.from, let lost = lostEvents(in: range.from...range.to).first else {
      return
    }
    // The first point after them to start from (its events are those after it): their
    // last, whose state is the snapshot stored after them, where replay can start.
    let start =
      startsAtLostEvent && (try? checkScanStart(lost.upperBound)) != nil
      ? lost.upperBound : lost.upperBound + 1
    // Each part's bounds as a command line gives them: the range's own bound kept where
    // it was not the session's (a part of `--from 100 --to 5000` keeps the one it has).
    func bounds(_ from: UInt64, _ to: UInt64) -> String {
      [from > 0 ? "--from \(from)" : nil, to < lastSequence ? "--to \(to)" : nil]
        .compactMap { $0 }.joined(separator: " ")
    }
    var parts: [String] = []
    if lost.lowerBound > range.from + 1 {
      parts.append("the events before them (\(bounds(range.from, lost.lowerBound - 1)))")
    }
    if lost.upperBound < range.to {
      parts.append(
        "\(parts.isEmpty ? "the events" : "those") after them (\(bounds(start, range.to)))")
    }
    let lostText = "\(Format.events(lost)) \(lost.count == 1 ? "was" : "were") lost to damage"
    guard parts.isEmpty else {
      throw CommandError(
        "\(path): \(lostText); \(what) cannot cross them: write \(parts.joined(separator: " or "))")
    }
    // The range lies among the lost events: nothing of it is left, the session's events
    // on either side are.
    var around: [String] = []
    if lost.lowerBound > 1 { around.append("before them (--to \(lost.lowerBound - 1))") }
    if lost.upperBound < lastSequence { around.append("after them (--from \(start))") }
    throw CommandError(
      "\(path): \(lostText), and the range asked for lies among them: nothing of it is left"
        + (around.isEmpty ? "" : "; write the events \(around.joined(separator: " or "))"))
  }
}

/// What a command line meant that gives a point where the command takes a journal (or
/// a field): `state J 15` for `state J --at 15`, `log J 5 9` for `log J --from 5 --to 9`;
/// the commands' ``RewindArguments/ParsableCommand/unexpectedArgumentsHint(positionals:)``.
enum MisplacedPoints {
  /// The options a command takes points with.
  enum Options {
    /// One point, `--at`.
    case at
    /// A range, `--from` and `--to`.
    case range
  }

  /// The end of the error of more positional words than a command takes, when some of
  /// `positionals` read as points (and are no files) and the others are left for the
  /// command's own (the journal): where the points go, as options (the line's other
  /// options are not known here, so no whole line is offered); nil otherwise, or when
  /// more points are given than the options take.
  static func hint(_ positionals: [String], options: Options) -> String? {
    let points = positionals.filter { (try? Point(parsing: $0)) != nil && !fileExists($0) }
    guard let first = points.first, points.count < positionals.count else { return nil }
    switch options {
    case .at where points.count == 1:
      return "a point goes after --at: --at \(Format.shellWord(first))"
    case .range where points.count == 2:
      return
        "points go after --from and --to (the events after the first, up to the second): --from \(Format.shellWord(first)) --to \(Format.shellWord(points[1]))"
    case .range where points.count == 1:
      return
        "a point goes after --from (the events after it) or --to (up to it): --from \(Format.shellWord(first)) or --to \(Format.shellWord(first))"
    default:
      return nil
    }
  }
}

/// A command that takes a point with `--at`: a point among its positional words is said
/// to go there.
protocol PointCommand: ParsableCommand {}

extension PointCommand {
  static func unexpectedArgumentsHint(positionals: [String]) -> String? {
    MisplacedPoints.hint(positionals, options: .at)
  }
}

/// A command that takes a range with `--from` and `--to`: points among its positional
/// words are said to go there.
protocol RangeCommand: ParsableCommand {}

extension RangeCommand {
  static func unexpectedArgumentsHint(positionals: [String]) -> String? {
    MisplacedPoints.hint(positionals, options: .range)
  }
}
