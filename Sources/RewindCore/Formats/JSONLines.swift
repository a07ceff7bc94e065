package import RewindJournal

/// JSON Lines, the text form of a session: what `rewind export` writes and `rewind
/// import` reads, and the shape every tool gives an event in JSON.
///
/// One JSON object per line, UTF-8, each line ending in `\n`. The first line may be the
/// session's ``Header``; then one line per event, in order, with its sequence number and
/// time before the event's own JSON (``Domain/json(_:)-(Event)``):
///
/// ```
/// {"header":{"domain":"navigation","schemaVersion":1,"session":"a3aaab18-…","start":"2026-11-30T09:15:00Z","device":"iPad","snapshotInterval":1024,"settings":{…}}}
/// {"seq":1,"time_us":0,"event":"categorySelected","id":"espresso-machines"}
/// {"seq":2,"time_us":1400000,"event":"itemSelected","id":"espresso-machines/leva"}
/// ```
///
/// ``Writer`` writes it and ``eventMembers(sequence:time:event:in:)`` builds the event
/// object that `--json` outputs share; ``Reader`` reads it and checks every line: `seq`
/// counts from 1 without gaps, `time_us` is a whole number of microseconds from 0 to
/// 2^63 − 1 that never goes back, a header comes only first, blank lines are skipped,
/// lines may end in `\r\n`, and a key no line of its kind has is refused (a key whose
/// value is `null` counts as absent). The format is described for users in
/// `Journals/README.md` ("JSON Lines").
@usableFromInline package enum JSONLines {
  /// The key of a line's sequence number.
  package static let sequenceKey = "seq"
  /// The key of a line's time: microseconds since the session's start.
  package static let timeKey = "time_us"
  /// The key of an event's kind in its JSON, `{"event": kind, ...}`.
  package static let eventKey = "event"
  /// The key of the header line's one member.
  package static let headerKey = "header"

  /// The members of an event's line, in order: `seq`, `time_us`, then the members of the
  /// event's JSON (`event` and its payload). Commands append members of their own
  /// (`rewind log --json` adds the outcome).
  ///
  /// - Parameters:
  ///   - sequence: the event's sequence number.
  ///   - time: microseconds since the session's start.
  ///   - event: the event, written by `domain`.
  package static func eventMembers<D: Domain>(
    sequence: UInt64, time: UInt64, event: D.Event, in domain: D
  ) -> [(String, JSONValue)] {
    var members: [(String, JSONValue)] = [
      (sequenceKey, .int(Int64(sequence))), (timeKey, .int(Int64(time))),
    ]
    if case .object(let fields) = domain.json(event) { members += fields }
    return members
  }

  /// The first line of a session: `{"header": {...}}`, saying which domain the session
  /// belongs to, with which settings, and where it came from. Every member is optional
  /// when reading; `rewind export` writes them all.
  package struct Header: Sendable {
    /// The domain's identifier (``Domain/identifier``).
    package var domain: String?
    /// The domain's schema version the events are written in.
    package var schemaVersion: UInt32?
    /// The session's id.
    package var session: SessionID?
    /// When the session started, microseconds since the Unix epoch (`start`, ISO 8601).
    package var startTime: Int64?
    /// The recording device.
    package var device: String?
    /// Events between snapshots, 1 to 2^30.
    package var snapshotInterval: UInt32?
    /// The session this one was branched from (`rewind state -o`, `play`'s `r`): its
    /// journal's path, its id and the last event the two share, `{"path": …, "session":
    /// …, "seq": N}` as `rewind info --json` shows it.
    package var parent: ParentSession?
    /// The domain's settings (``Domain/settingsJSON``).
    package var settings: JSONValue?

    /// The header's keys, in the order they are written.
    package static let keys = [
      "domain", "schemaVersion", "session", "start", "device", "snapshotInterval", "parent",
      "settings",
    ]
    /// The keys of the parent's object.
    static let parentKeys = ["path", "session", "seq"]

    package init(
      domain: String? = nil, schemaVersion: UInt32? = nil, session: SessionID? = nil,
      startTime: Int64? = nil, device: String? = nil, snapshotInterval: UInt32? = nil,
      parent: ParentSession? = nil, settings: JSONValue? = nil
    ) {
      self.domain = domain
      self.schemaVersion = schemaVersion
      self.session = session
      self.startTime = startTime
      self.device = device
      self.snapshotInterval = snapshotInterval
      self.parent = parent
      self.settings = settings
    }

    /// The header of a recorded session as the current schema of its domain writes it:
    /// its journal's header, with the settings of the session's domain as JSON (a
    /// journal of an older schema is read upcast, so its export is current), and its
    /// parent's path as `parentPath` gives it (a tool hides a server's password in it).
    package init<D: Domain>(
      _ header: JournalHeader, domain: D, parentPath: (String) -> String = { $0 }
    ) {
      var parent = header.parent
      if let path = parent?.path { parent?.path = parentPath(path) }
      self.init(
        domain: header.domain, schemaVersion: D.schemaVersion, session: header.sessionID,
        startTime: header.startTime, device: header.device,
        snapshotInterval: header.snapshotInterval, parent: parent, settings: domain.settingsJSON)
    }

    /// The whole line, `{"header": {...}}`, without the members that are nil.
    package var json: JSONValue {
      var members: [(String, JSONValue)] = []
      if let domain { members.append(("domain", .string(domain))) }
      if let schemaVersion { members.append(("schemaVersion", .int(Int64(schemaVersion)))) }
      if let session { members.append(("session", .string(session.description))) }
      if let startTime { members.append(("start", .string(ISO8601.format(startTime)))) }
      if let device { members.append(("device", .string(device))) }
      if let snapshotInterval {
        members.append(("snapshotInterval", .int(Int64(snapshotInterval))))
      }
      if let parent {
        members.append(
          (
            "parent",
            .object([
              ("path", .string(parent.path)), ("session", .string(parent.sessionID.description)),
              ("seq", .int(Int64(parent.sequence))),
            ])
          ))
      }
      if let settings { members.append(("settings", settings)) }
      return .object([(JSONLines.headerKey, .object(members))])
    }

    /// Reads the value of a header line's `header` member.
    /// - Throws: the message of the first problem: not an object, an unknown key, a
    ///   member of the wrong type or out of range.
    init(parsing value: JSONValue) throws(LineProblem) {
      guard case .object(let members) = value else {
        throw LineProblem("\"header\" must be an object, found \(value.typeName)")
      }
      for (key, member) in members {
        // A member that is null is absent, as in an event's line (a key the header lacks
        // too, as an event's line takes one).
        if case .null = member { continue }
        switch key {
        case "domain":
          guard case .string(let text) = member, !text.isEmpty,
            text.utf8.count <= JournalLimits.maximumDomainLength
          else {
            throw LineProblem(
              "the header's \"domain\" must be a domain's name (a string of 1 to \(JournalLimits.maximumDomainLength) bytes), found \(JSONLines.show(member))"
            )
          }
          domain = text
        case "schemaVersion":
          guard let number = member.intValue, let version = UInt32(exactly: number) else {
            throw LineProblem(
              "the header's \"schemaVersion\" must be a whole number from 0 to \(UInt32.max), found \(JSONLines.show(member))"
            )
          }
          schemaVersion = version
        case "session":
          session = try Self.sessionID(member, named: "the header's \"session\"")
        case "start":
          guard let text = member.stringValue, let time = ISO8601.parse(text) else {
            throw LineProblem(
              "the header's \"start\" must be an ISO-8601 time such as 2026-11-30T09:15:00Z, found \(JSONLines.show(member))"
            )
          }
          startTime = time
        case "device":
          device = try Self.text(
            member, named: "the header's \"device\"", describedAs: "the device",
            bytes: 0...JournalLimits.maximumDeviceLength)
        case "snapshotInterval":
          let limit = JournalLimits.maximumSnapshotInterval
          guard let number = member.intValue, number >= 1, number <= Int64(limit) else {
            throw LineProblem(
              "the header's \"snapshotInterval\" must be a whole number of events from 1 to \(limit), found \(JSONLines.show(member))"
            )
          }
          snapshotInterval = UInt32(number)
        case "parent":
          parent = try Self.parent(parsing: member)
        case "settings":
          settings = member
        default:
          throw LineProblem(
            "unknown key \(Format.quoted(key, quote: "\""))\(Format.meant(key, among: Self.keys)) in the header; its keys are \(Self.keys.joined(separator: ", "))"
          )
        }
      }
    }

    /// A member that is a string of `bytes` bytes without a control character.
    private static func text(
      _ member: JSONValue, named name: String, describedAs description: String,
      bytes: ClosedRange<Int>
    ) throws(LineProblem) -> String {
      guard case .string(let text) = member, bytes.contains(text.utf8.count) else {
        let size =
          bytes.lowerBound == 0
          ? "at most \(bytes.upperBound)" : "\(bytes.lowerBound) to \(bytes.upperBound)"
        throw LineProblem(
          "\(name) must be a string of \(size) bytes, found \(JSONLines.show(member))")
      }
      if let problem = TerminalText.controlCharacterProblem(in: text, describedAs: description) {
        throw LineProblem(problem)
      }
      return text
    }

    /// A member that is a session's id.
    private static func sessionID(_ member: JSONValue, named name: String) throws(LineProblem)
      -> SessionID
    {
      guard let text = member.stringValue, let id = SessionID(parsing: text) else {
        throw LineProblem(
          "\(name) must be a UUID such as a3aaab18-aa18-41d9-906c-36cfdaf5806d, found \(JSONLines.show(member))"
        )
      }
      return id
    }

    /// Reads the header's `parent`: `{"path": …, "session": …, "seq": N}`.
    private static func parent(parsing value: JSONValue) throws(LineProblem) -> ParentSession {
      let shape =
        "an object {\"path\": the parent journal's path, \"session\": its id, \"seq\": the last event the two share}"
      guard case .object(let members) = value else {
        throw LineProblem(
          "the header's \"parent\" must be \(shape), found \(JSONLines.show(value))")
      }
      var path: String?
      var session: SessionID?
      var sequence: UInt64?
      for (key, member) in members {
        if case .null = member { continue }
        switch key {
        case "path":
          path = try Self.text(
            member, named: "the parent's \"path\"", describedAs: "the parent's path",
            bytes: 1...JournalLimits.maximumParentPathLength)
        case "session":
          session = try Self.sessionID(member, named: "the parent's \"session\"")
        case "seq":
          let limit = JournalLimits.maximumSequence
          guard let number = member.intValue, number >= 0, UInt64(number) <= limit else {
            throw LineProblem(
              "the parent's \"seq\" must be a whole number from 0 to \(limit), found \(JSONLines.show(member))"
            )
          }
          sequence = UInt64(number)
        default:
          throw LineProblem(
            "unknown key \(Format.quoted(key, quote: "\""))\(Format.meant(key, among: parentKeys)) in the header's \"parent\"; its keys are \(parentKeys.joined(separator: ", "))"
          )
        }
      }
      guard let path, let session, let sequence else {
        let missing = zip(parentKeys, [path == nil, session == nil, sequence == nil])
          .filter(\.1).map { "\"\($0.0)\"" }
        throw LineProblem(
          "the header's \"parent\" lacks \(missing.joined(separator: " and ")): it must be \(shape)"
        )
      }
      return ParentSession(path: path, sessionID: session, sequence: sequence)
    }
  }

  /// A value as a message quotes it: short JSON, or its type when long (with its length
  /// for a string, which may be refused for that).
  static func show(_ value: JSONValue) -> String {
    let text = value.compactText
    if text.count <= 40 { return text }
    if case .string(let string) = value { return "a string of \(string.utf8.count) bytes" }
    return value.typeName
  }

  /// What is wrong with one line, before the reader adds the file and the line number.
  struct LineProblem: Error {
    var message: String
    init(_ message: String) { self.message = message }
  }
}
