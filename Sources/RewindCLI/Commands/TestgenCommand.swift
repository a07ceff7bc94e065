import RewindArguments
import RewindCore
import RewindJournal
import RewindStream

extension RewindTool {
  struct Testgen: RangeCommand {
    static let configuration = CommandConfiguration(
      name: "testgen", abstract: "Write a session as a Swift Testing reducer test.",
      discussion: """
        The test replays the session's events (or those after --from, up to --to) through \
        RewindTesting's TestStore and states every step in full: an applied event with a \
        closure that sets exactly the fields it changed, an unchanged one as .unchanged, a \
        rejected one with its reason. The outcomes and changes are the current reducer's, \
        so the test pins today's behaviour: when a later reducer changes a step, the test \
        fails with a field-by-field diff; an event of the test that today's reducer replays \
        with another outcome than recorded is said in a warning (rewind check lists them). \
        Add the file to a test target that depends on \
        RewindTesting and on the domain's module. The journal's domain must write its \
        events and changes as Swift (SwiftSourceDomain; Navigation does). A test of a \
        range starts from the state before its first event, written as assignments. A \
        test holds at most 10,000 events (the compiler's time grows faster than a test's \
        length): choose a part of a longer session, or shrink it (rewind shrink).
        """,
      exitStatuses: [
        ExitStatusHelp("1", "Also when the session has no events: there is nothing to test."),
        ExitStatusHelp(
          "64",
          "Also when the range holds no event, or more than 10,000 events: choose a part with --from and --to, or shrink the session."
        ),
      ])

    let registry: DomainRegistry

    @Argument(help: "The journal to turn into a test.")
    var journal: String
    @Option(valueName: "point", help: "Start the test after this point.")
    var from: PointArgument = .start
    @Option(valueName: "point", help: "End the test at this point.")
    var to: PointArgument = .end
    @Option(
      valueName: "identifier",
      help:
        "The test function's name, a Swift identifier (default: the journal's name in camel case)."
    )
    var name: String?
    @Option(
      short: "o", valueName: "file.swift",
      help: "Write to this file instead of standard output.")
    var output: String?
    @Flag(help: "Replace the output file if it exists.")
    var force: Bool

    func run(_ context: Context) throws {
      if let name, let problem = testNameProblem(name) { throw nameError(name, problem) }
      // A file already there is refused once the range is known to be right.
      let destination = try outputDestination(
        output, force: force, inputs: [journal], existingLater: true)
      // The journal as a word that runs (`./-x.journal`, not an option); a session on a
      // server without its user and password (the file is committed); the rest quoted.
      let named =
        StreamStore.looksLikeSessionURL(journal)
        ? StreamStore.displayName(journal) : journal.hasPrefix("-") ? "./" + journal : journal
      var command = ["rewind", "testgen", named]
      if from.text != PointArgument.start.text { command += ["--from", from.text] }
      if to.text != PointArgument.end.text { command += ["--to", to.text] }
      if let name { command += ["--name", name] }
      let base = String(journal.split(separator: "/").last ?? "")
      let testName =
        name
        ?? SwiftSource.identifier(
          base.hasSuffix(".journal") ? String(base.dropLast(8)) : base, everyScript: true,
          kind: "test")
      try registry.open(
        journal, warnings: context.stderr,
        TestgenCommand(
          from: from, to: to, testName: testName,
          command: command.map(Format.shellWord).joined(separator: " "),
          givenName: name != nil, destination: destination, context: context))
    }
  }
}

/// Why `name` cannot name a generated test, with a name that can; nil when it can.
/// - Parameters:
///   - modules: the modules the test imports, which its name must not hide.
///   - types: the types the test names (its domain's, `TestStore`), which a function of
///     the same name would hide in every file of the test's target.
private func testNameProblem(_ name: String, modules: [String] = [], types: [String] = [])
  -> String?
{
  let taken = modules + types
  if taken.contains(name) {
    var other = name.prefix(1).lowercased() + name.dropFirst()
    if taken.contains(other) || !SwiftSource.isIdentifier(other) { other = name + "Test" }
    let what = modules.contains(name) ? "a module the test imports" : "a type the test names"
    return "a test's name cannot be \(name), \(what); try \(other)"
  }
  if SwiftSource.isIdentifier(name) { return nil }
  if SwiftSource.keywords.contains(name) {
    return "a test's name cannot be a Swift keyword; try \(name)Test"
  }
  // The letters and digits, in lower camel case, as a name made from a journal's:
  // `1 session` → `test1Session`, `é-x` → `éX`.
  let other = SwiftSource.identifier(name, everyScript: true, kind: "test")
  return
    "a test's name is a Swift identifier (a letter or _, then letters, digits and _); try \(other)"
}

/// The usage error of a `--name` that cannot name a test.
private func nameError(_ name: String, _ problem: String) -> UsageError {
  UsageError(.invalidValue, "The value '\(name)' is invalid for '--name <identifier>': \(problem)")
}

struct TestgenCommand: TimelineVisitor {
  /// The most events a test holds before `testgen` notes that it is long.
  static let longTest: UInt64 = 1_000
  /// The most events a test holds: the compiler's time and memory grow faster than a
  /// test's length (README, "testgen": 5,000 events took 22 s and 1.35 GB unoptimised),
  /// and a longer one would not build.
  static let longestTest: UInt64 = 10_000

  let from: PointArgument
  let to: PointArgument
  let testName: String
  let command: String
  /// Whether the test's name was given (--name), not made from the journal's.
  let givenName: Bool
  /// The file to write; nil for standard output.
  let destination: FileDestination?
  let context: Context

  func visit<D: RecordableDomain>(_ timeline: Timeline<D>) throws {
    guard let type = D.self as? any SwiftSourceDomain.Type else {
      throw CommandError(
        "the '\(D.identifier)' domain cannot write its events as Swift: it does not adopt SwiftSourceDomain"
      )
    }
    var testName = self.testName
    let modules = TestSource.modules(type)
    let types = TestSource.typeNames(type)
    if modules.contains(testName) || types.contains(testName) {
      guard !givenName else {
        throw nameError(testName, testNameProblem(testName, modules: modules, types: types)!)
      }
      testName += "Test"
    }
    let range = try timeline.resolveRange(from: from, to: to, knownStates: true)
    try timeline.refuseLostEvents(in: range, writing: "a test", startsAtLostEvent: true)
    guard range.to > range.from else {
      // A session of no events (a recording stopped before its first, a shrink whose
      // condition holds at the start): the journal, not the arguments.
      guard timeline.lastSequence > 0 else {
        throw CommandError("\(timeline.path): the session has no events: nothing to test")
      }
      // An empty range asked for: other arguments, as a range past the end is.
      let remedy =
        range.to == timeline.lastSequence
        ? "event \(range.to) is the session's last; give an earlier --from"
        : "give a --to after --from"
      throw UsageError(
        "\(timeline.path): the range after event \(range.from) up to event \(range.to) holds no event: nothing to test; \(remedy)"
      )
    }
    // More events than a test holds: another range is asked for with other arguments
    // (--from, --to), as a range past the end is, so it is a usage error.
    guard range.to - range.from <= Self.longestTest else {
      let size =
        range.to - range.from == timeline.lastSequence ? "the session has" : "the range has"
      throw UsageError(
        "\(timeline.path): \(size) \(Format.count(range.to - range.from)) events (\(range.from + 1)–\(range.to)); a test holds at most \(Format.count(Self.longestTest)), as a longer one takes the compiler too long to build: choose a part with --from and --to, e.g. --from \(range.from) --to \(range.from + Self.longestTest), or find the few events that matter with `rewind shrink`"
      )
    }
    if let destination { try requireAvailable(destination) }
    func generate<S: SwiftSourceDomain>(_: S.Type) throws -> String {
      try TestSource.generate(
        timeline as! Timeline<S>, first: range.from + 1, last: range.to, testName: testName,
        command: command)
    }
    let text = try generate(type)
    // A range's test starts from the state before its first event.
    if range.from > 0 { try timeline.warnOfDrift(reaching: range.from, to: context.stderr) }
    try timeline.warnOfDrift(after: range.from, through: range.to, to: context.stderr)
    if let destination {
      let file = try TextFileWriter(destination, system: context.fileSystem)
      try file.write(text)
      try file.commit()
    } else {
      context.stdout.write(text)
    }
    let events = range.to - range.from
    if events > Self.longTest {
      // One function of a step an event: the compiler's time and memory grow faster than
      // its length (README, "testgen").
      context.stderr.print(
        "\(context.stderr.style.yellow("note:")) \(Format.count(events, "event")) make a long test, which takes the compiler long to build (minutes optimised); --from and --to, or `rewind shrink`, make a shorter one"
      )
    }
  }
}
