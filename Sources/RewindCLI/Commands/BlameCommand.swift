import RewindArguments
import RewindCore
import RewindStream

extension RewindTool {
  struct Blame: PointCommand {
    static let configuration = CommandConfiguration(
      name: "blame", abstract: "Find the event that last changed a state field.",
      discussion: """
        PATH is a field of the state as `rewind state --json` prints it, written with dots \
        (split.selectedItem, menu.selectedIndex). PATH[ELEMENT] asks about one element of \
        an array field (split.expanded[espresso-machines/leva]): whether the array holds \
        it at the point, and the event that added or removed it. With --history, every \
        event up to the point that changed the field (or added or removed the element) is \
        listed, newest first, with the value before and after it; --limit keeps the newest \
        N. Blame replays backwards a snapshot interval, then windows twice as long as the \
        one before, so a recent change is found without replaying the whole session. In a journal salvaged by `rewind \
        recover --salvage`, --history goes on past the events lost to damage, from the \
        snapshot stored after them, and a warning names them; when no event after them \
        changed the field, blame says that the event that set it cannot be known (it may \
        have been lost) rather than name one before them.
        """)

    let registry: DomainRegistry

    @Argument(help: "The journal to read.")
    var journal: String
    @Argument(
      help:
        "The state field, e.g. split.selectedItem, or an element of an array field, e.g. split.expanded[espresso-machines/leva]."
    )
    var path: String
    @Option(valueName: "point", help: "The point to look back from.")
    var at: PointArgument = .end
    @Flag(help: "List every change up to the point, newest first.")
    var history: Bool
    @Option(
      valueName: "n",
      help: "With --history, list at most the newest N changes (default: all changes).",
      transform: { text throws(InvalidValue) in try parseCount(text, of: "changes") })
    var limit: Int?
    @Flag(help: "Print JSON.")
    var json: Bool

    func run(_ context: Context) throws {
      guard history || limit == nil else {
        throw UsageError("--limit applies to --history")
      }
      // The field first and the journal second: said as such, not as no such file.
      if !fileExists(journal), fileExists(path), !StreamStore.looksLikeSessionURL(journal) {
        throw UsageError(
          "\(TerminalText.escaped(journal)) is no file and \(TerminalText.escaped(path)) is one: the journal comes first, then the field (rewind blame JOURNAL FIELD)"
        )
      }
      let command = BlameCommand(
        path: path, at: at, history: history, limit: limit ?? .max, json: json,
        context: context)
      try registry.open(journal, warnings: context.stderr, command)
    }
  }
}

struct BlameCommand: TimelineVisitor {
  let path: String
  let at: PointArgument
  var history = false
  var limit = Int.max
  let json: Bool
  let context: Context

  func visit<D: RecordableDomain>(_ timeline: Timeline<D>) throws {
    let domain = timeline.domain
    let target: BlameTarget
    do throws(RewindError) {
      target = try BlameTarget(parsing: path)
    } catch {
      throw UsageError(
        .invalidValue, "The value \(Format.quoted(path)) is invalid for '<path>': \(error.message)")
    }
    try requireField(target.path, of: domain, for: "<path>")
    let sequence = try timeline.resolve(at, option: "--at <point>")
    if history {
      try printHistory(timeline, target: target, at: sequence)
      try timeline.warnOfDrift(reaching: sequence, to: context.stderr)
      return
    }
    let blame: RewindCore.Blame<D>
    do {
      blame = try timeline.blame(path, at: sequence)
    } catch let error as RewindError where error.code == .invalidInput {
      throw UsageError(
        .invalidValue, "The value \(Format.quoted(path)) is invalid for '<path>': \(error.message)")
    }
    // The events lost to damage the answer depends on, said as the scans say them.
    defer { warnLost(blame.lostEvents.map { [$0] } ?? [], in: timeline.path, to: context.stderr) }
    try timeline.warnOfDrift(reaching: sequence, to: context.stderr)
    if let element = target.element {
      try printElement(blame, element: element, target: target, at: sequence, domain: domain)
      return
    }
    if json {
      var members: [(String, JSONValue)] = [
        ("path", .string(path)), ("at", .int(Int64(sequence))), ("value", blame.value),
      ]
      if let event = blame.event {
        let eventMembers = JSONLines.eventMembers(
          sequence: event.sequence, time: event.time, event: event.event, in: domain)
        members.append(("changedBy", .object(eventMembers)))
      } else {
        members.append(("changedBy", .null))
      }
      if let lost = blame.lostEvents { members.append(("lostEvents", .array([Self.json(lost)]))) }
      context.stdout.printJSON(.object(members))
      return
    }
    let style = context.stdout.style
    context.stdout.print(
      "\(style.bold(TerminalText.escaped(path))) = \(blame.value.compactText) \(Self.place(sequence))"
    )
    if let event = blame.event {
      context.stdout.print(
        "  set by event \(event.sequence) at \(Format.offset(event.time)): \(style.cyan(domain.shownDescription(event.event)))"
      )
    } else if let lost = blame.lostEvents {
      context.stdout.print(
        "  the event that set it cannot be known: no event after \(lost.upperBound) changed it, and \(Format.events(lost)) \(lost.count == 1 ? "was" : "were") lost to damage"
      )
    } else {
      context.stdout.print(
        sequence == 0
          ? "  its initial value" : "  its initial value: no event up to \(sequence) changed it")
    }
  }

  /// Where the value is read: `after event 14`, or `at the start (the initial state)`.
  static func place(_ sequence: UInt64) -> String {
    sequence == 0 ? "at the start (the initial state)" : "after event \(sequence)"
  }

  /// A range of events lost to damage as the commands' JSON gives it, in their
  /// `lostEvents` array (as `recover --json` does): `{"from": 9143, "to": 18277}`.
  static func json(_ lost: ClosedRange<UInt64>) -> JSONValue {
    .object([("from", .int(Int64(lost.lowerBound))), ("to", .int(Int64(lost.upperBound)))])
  }
}

extension BlameCommand {
  /// Whether an array field holds an element at the point, and the event that added or
  /// removed it.
  func printElement<D: Domain>(
    _ blame: RewindCore.Blame<D>, element: JSONValue, target: BlameTarget, at sequence: UInt64,
    domain: D
  ) throws {
    let present = blame.value == .bool(true)
    if json {
      var members: [(String, JSONValue)] = [
        ("path", .string(target.path)), ("element", element), ("at", .int(Int64(sequence))),
        ("present", .bool(present)),
      ]
      if let event = blame.event {
        members.append(("change", .string(present ? "added" : "removed")))
        members.append(("changedBy", .object(eventMembers(event, domain: domain))))
      } else {
        members.append(("changedBy", .null))
      }
      if let lost = blame.lostEvents { members.append(("lostEvents", .array([Self.json(lost)]))) }
      context.stdout.printJSON(.object(members))
      return
    }
    let style = context.stdout.style
    context.stdout.print(
      "\(style.bold(TerminalText.escaped(element.stringValue ?? element.compactText))) is \(present ? "in" : "not in") \(TerminalText.escaped(target.path)) \(Self.place(sequence))"
    )
    if let event = blame.event {
      context.stdout.print(
        "  \(present ? "added" : "removed") by event \(event.sequence) at \(Format.offset(event.time)): \(style.cyan(domain.shownDescription(event.event)))"
      )
    } else if let lost = blame.lostEvents {
      context.stdout.print(
        "  the event that last added or removed it cannot be known: no event after \(lost.upperBound) added or removed it, and \(Format.events(lost)) \(lost.count == 1 ? "was" : "were") lost to damage"
      )
    } else {
      let none =
        sequence == 0 ? "" : ": no event up to \(sequence) added\(present ? " or removed" : "") it"
      context.stdout.print(
        present ? "  there from the initial state\(none)" : "  never added\(none)")
    }
  }

  /// Every change up to the point, newest first, printed as found (a window's at a time):
  /// the text, which says how many there are first, counts them in a pass before.
  func printHistory<D: Domain>(_ timeline: Timeline<D>, target: BlameTarget, at sequence: UInt64)
    throws
  {
    let domain = timeline.domain
    /// The changes the text lists, and whether they are every change up to the point (one
    /// more than `--limit` is looked for, to know).
    var listed = 0
    var complete = true
    let value: JSONValue
    do {
      value = try timeline.blame(path, at: 0).value
      if !json {
        let found = try timeline.blameHistory(
          path, at: sequence, limit: limit == .max ? .max : limit + 1
        ) { _ in }
        complete = found <= limit
        listed = min(found, limit)
      }
    } catch let error as RewindError where error.code == .invalidInput {
      throw UsageError(
        .invalidValue, "The value \(Format.quoted(path)) is invalid for '<path>': \(error.message)")
    }
    // In a salvaged journal the history goes on past events lost to damage, and says so:
    // those after the oldest change listed (all of them when it reached the start).
    var oldest: UInt64 = 0
    func lostEvents() -> [ClosedRange<UInt64>] {
      timeline.lostEvents(in: (complete ? 0 : oldest)...sequence)
    }
    let isElement = target.element != nil
    func changeName(_ change: BlameChange<D>) -> String {
      change.new == .bool(true) ? "added" : "removed"
    }
    /// Hands each change to `body`, newest first, as found; whether `--limit` left some.
    func forEachChange(_ body: (BlameChange<D>) -> Void) throws {
      let found = try timeline.blameHistory(
        path, at: sequence, limit: limit == .max ? .max : limit + 1
      ) { changes in
        for change in changes {
          guard listed < limit else { return }
          listed += 1
          oldest = change.event.sequence
          body(change)
        }
      }
      complete = found <= limit
    }
    if json {
      var members: [(String, JSONValue)] = [("path", .string(target.path))]
      if let element = target.element { members.append(("element", element)) }
      members.append(("at", .int(Int64(sequence))))
      var lost: [ClosedRange<UInt64>] = []
      defer { warnLost(lost, in: timeline.path, to: context.stderr) }
      try context.stdout.printJSON(members, streaming: "history") { element in
        try forEachChange { change in
          var object = eventMembers(change.event, domain: domain)
          if isElement {
            object.append(("change", .string(changeName(change))))
          } else {
            object += [("old", change.old), ("new", change.new)]
          }
          element(.object(object))
        }
      } tail: {
        // The events lost to damage the history may lack changes of.
        lost = lostEvents()
        return lost.isEmpty ? [] : [("lostEvents", .array(lost.map(Self.json)))]
      }
      return
    }
    let style = context.stdout.style
    let name = TerminalText.escaped(target.description)
    let count = listed == 1 ? "1 change" : "\(Format.count(listed)) changes"
    let shown = complete ? "" : ", the newest \(count)"
    defer { warnLost(lostEvents(), in: timeline.path, to: context.stderr) }
    guard listed > 0 else {
      let lost = lostEvents()
      let none = lost.isEmpty ? "no event" : "none of the events kept"
      context.stdout.print(
        isElement
          ? "\(style.bold(name)): \(none) up to \(sequence) added or removed it"
          : "\(style.bold(name)): \(none) up to \(sequence) changed it; its initial value is \(TerminalText.escaped(value.compactText))"
      )
      return
    }
    context.stdout.print(
      style.bold(
        "\(name) up to event \(sequence)\(shown.isEmpty ? ": \(count), newest first" : shown + ", newest first"):"
      ))
    // Where events lost to damage fall among the changes (newest first), a line says that
    // changes among them are not known: the value after them need not be the one before.
    var gaps = timeline.lostEvents(in: 0...sequence).reversed()[...]
    func markLost(after sequence: UInt64) {
      while let gap = gaps.first, gap.lowerBound > sequence {
        context.stdout.print(
          style.dim(
            "  … \(Format.events(gap)) lost to damage: changes among them are not known"))
        gaps.removeFirst()
      }
    }
    listed = 0
    oldest = 0
    try forEachChange { change in
      let event = change.event
      markLost(after: event.sequence)
      let what =
        isElement
        ? changeName(change)
        : "\(TerminalText.escaped(change.old.compactText)) → \(TerminalText.escaped(change.new.compactText))"
      context.stdout.print(
        "  event \(event.sequence) at \(Format.offset(event.time)): \(style.cyan(domain.shownDescription(event.event)))  \(what)"
      )
    }
    markLost(after: complete ? 0 : oldest)
  }

  func eventMembers<D: Domain>(_ event: ReplayedEvent<D>, domain: D) -> [(String, JSONValue)] {
    JSONLines.eventMembers(
      sequence: event.sequence, time: event.time, event: event.event, in: domain)
  }
}
