import RewindArguments
import RewindCore
import RewindJournal
import RewindStream

/// Work to do on a journal once its domain is known: the way a command runs code that is
/// generic over the domain for a journal whose domain is read from its header.
protocol TimelineVisitor {
  associatedtype Output
  func visit<D: RecordableDomain>(_ timeline: Timeline<D>) throws -> Output
}

/// Work to do with a domain type chosen by name (for new sessions).
protocol DomainVisitor {
  associatedtype Output
  func visit<D: RecordableDomain>(_ domain: D.Type) throws -> Output
}

/// The domains this `rewind` knows, and the way from a journal to its domain.
struct DomainRegistry: Sendable {
  let domains: [any RecordableDomain.Type]

  /// The default domain for new sessions.
  var defaultDomain: any RecordableDomain.Type { domains[0] }

  var names: [String] { domains.map { $0.identifier } }

  /// The domain named `identifier`.
  /// - Throws: a ``CommandError`` naming the domains this tool knows.
  func domain(named identifier: String, in path: String? = nil) throws -> any RecordableDomain.Type
  {
    if let domain = domains.first(where: { $0.identifier == identifier }) { return domain }
    let known = names.map { "'\($0)'" }.joined(separator: ", ")
    let place = path.map { "\($0): the journal records" } ?? "there is no"
    throw CommandError("\(place) domain \(Format.quoted(identifier)); this rewind knows \(known)")
  }

  /// Reads `--domain <name>`: a usage error for a name this tool does not know, listing
  /// the domains and suggesting a near one.
  func domainName(_ text: String) throws(InvalidValue) -> String {
    if let problem = choiceProblem(text, among: names, what: "domain") {
      throw InvalidValue(problem)
    }
    return text
  }

  /// Opens the journal at `path`, picks its domain from the header, and runs `visitor`.
  ///
  /// - Parameters:
  ///   - warnings: where to say that the journal has a torn tail or damage (the command
  ///     still reads what it can), or was not closed; nil for commands that report it
  ///     themselves.
  ///   - notesNotClosed: whether a journal not closed is noted there (`check` reports it
  ///     in its result).
  ///   - system: the calls a journal file is read through (its writer's lock asked
  ///     through them too); tests make one fail or answer otherwise.
  func open<V: TimelineVisitor>(
    _ path: String, salvage: Bool = false, warnings: Output?, notesNotClosed: Bool = true,
    system: FileSystemCalls = .live, _ visitor: V
  ) throws -> V.Output {
    let reader = try Self.reader(path, salvage: salvage, system: system)
    if let warnings { Self.warn(about: reader, to: warnings, notingNotClosed: notesNotClosed) }
    let type = try domain(named: reader.header.domain, in: path)
    return try Self.visit(type, reader, warnings: warnings, visitor)
  }

  /// Opens the journal at `path` as a timeline of `D`, as ``open(_:salvage:warnings:_:)``
  /// opens a first one (a file or a session on a server, with its warnings): a second
  /// journal compared with the first, which must record the same domain.
  /// - Throws: `RewindError` `wrongDomain` naming the journal when it records another.
  func timeline<D: RecordableDomain>(_ path: String, as type: D.Type, warnings: Output)
    throws -> Timeline<D>
  {
    let reader = try Self.reader(path, salvage: false)
    Self.warn(about: reader, to: warnings)
    let timeline = try Timeline<D>(reader: reader)
    timeline.warnOfUntrustedSnapshots(to: warnings)
    return timeline
  }

  /// The reader of the journal `path` names: a session on a NATS server (its index now,
  /// each frame when it is read; with the credentials file and certificate authorities
  /// `NATS_CREDS` and `NATS_CA` name, which a URL has no room for) or a file.
  private static func reader(_ path: String, salvage: Bool, system: FileSystemCalls = .live)
    throws -> JournalReader
  {
    if let (server, session) = StreamStore.sessionURL(path) {
      // A bad address or credentials in the URL is a usage error, as in --server.
      if let problem = server.addressProblem ?? server.credentialsProblem {
        throw UsageError("\(server.displayURL): \(problem)")
      }
      let settings: StreamServer
      do throws(StreamError) {
        settings = try server.takingEnvironment(ProcessCalls.environment())
      } catch {
        // A file NATS_CREDS or NATS_CA names that cannot be used: as a bad --creds is, a
        // file that cannot be read (exit 1).
        throw CommandError(error.message)
      }
      do {
        return try StreamStore(settings).reader(session: session)
      } catch var error as StreamError {
        // The session read, named whatever failed (walk of the fleet, F10: credentials
        // refused, or no server answering, named the server alone).
        if error.session == nil { error.session = session }
        throw error
      }
    }
    // Another scheme, or this one in capitals: a URL, not a file (walk of the fleet, F14).
    if !StreamStore.looksLikeSessionURL(path),
      let scheme = path.firstRange(of: "://").map({ path[..<$0.lowerBound] }),
      scheme.first?.isLetter == true,
      scheme.allSatisfy({ $0.isLetter || $0.isNumber || "+.-".contains($0) }), !fileExists(path)
    {
      let lower = scheme.lowercased()
      let shown = StreamStore.maskingUnreadableCredentials(in: path)
      throw UsageError(
        lower == "nats" || lower == "tls"
          ? "\(shown): write the scheme in lower case, \(lower)://"
          : "\(shown) is neither a file nor a session on a server, whose URL starts nats:// or tls://, not \(scheme)://"
      )
    }
    if StreamStore.looksLikeSessionURL(path), !fileExists(path) {
      // Quoted with its password masked: `check` prints the message on its FAIL line.
      // A server's URL whose session is no id (`pull` takes any text, and finds no such
      // session): said so, not that the URL's form is wrong.
      // A space or a control character, in a password say: where it ends cannot be read.
      if let odd = path.unicodeScalars.firstIndex(where: {
        $0.properties.isWhitespace || $0.properties.generalCategory == .control
      }) {
        // Password advice only where one can be: before an `@`.
        let inPassword = path.unicodeScalars[odd...].contains("@")
        throw UsageError(
          "\(TerminalText.escaped(StreamStore.maskingUnreadableCredentials(in: path))): a session's URL holds no space or control character"
            + (inPassword
              ? "; a password holding one is given in NATS_PASSWORD, the user alone before the host in the URL (USER@HOST:PORT)"
              : ""))
      }
      if let problem = StreamStore.sessionProblem(in: path) {
        throw UsageError(
          "\(StreamStore.maskingPasswords(in: path, hidingTokens: true)): \(problem)")
      }
      throw UsageError(
        "\(StreamStore.maskingPasswords(in: path)) is neither a file nor a session on a server (nats://[USER:PASSWORD@]HOST:PORT/SESSION-ID: a host, or a cluster's separated by commas, then one session after the slash)"
      )
    }
    if path == "-", !fileExists(path) {
      // Read as a file named `-`, it would be reported missing.
      throw UsageError(
        "- is not standard input here: a journal is read from a file; give its path (./- for a file named -)"
      )
    }
    do throws(JournalError) {
      var options = JournalReader.Options(salvage: salvage)
      options.system = system
      return try JournalReader(path: path, options: options)
    } catch {
      throw namingWhatItIs(error)
    }
  }

  /// Warns, on stderr, of a torn tail or damage found on opening, and notes a journal that
  /// was not closed (its writer stopped, or writes it still): "the last" event a command
  /// shows need not be the session's.
  static func warn(about reader: JournalReader, to output: Output, notingNotClosed: Bool = true) {
    let condition = reader.condition
    let label = output.style.yellow("warning:")
    let path = TerminalText.escaped(reader.path)
    if notingNotClosed, let note = Format.notClosed(reader) {
      output.print("\(output.style.yellow("note:")) \(path): \(note)")
    }
    // Either header damaged, said alike: the header, or the copy after it.
    if let reason = condition.headerDamage?.reason ?? condition.headerCopyDamage?.reason {
      output.print(
        "\(label) \(path): \(TerminalText.escaped(reason)); `rewind recover` rebuilds it")
    }
    if let tail = condition.tornTail {
      output.print(
        "\(label) \(path): \(tail.described); \(tail.isDamagedEnd ? "the frames are read without \(tail.length == 1 ? "it" : "them"), and `rewind recover` writes them again" : tail.length == 1 ? "it is ignored, and `rewind recover` cuts it" : "they are ignored, and `rewind recover` cuts them")"
      )
    }
    for damage in condition.damage {
      let events = damage.sequenceRange.map { " (\(Format.events($0)))" } ?? ""
      output.print(
        "\(label) \(path): damaged bytes at byte \(damage.byteRange.lowerBound)\(events): \(damage.reason); `rewind recover --salvage` keeps what follows"
      )
    }
  }

  private static func visit<D: RecordableDomain, V: TimelineVisitor>(
    _ type: D.Type, _ reader: JournalReader, warnings: Output?, _ visitor: V
  ) throws -> V.Output {
    let timeline = try Timeline<D>(reader: reader)
    if let warnings { timeline.warnOfUntrustedSnapshots(to: warnings) }
    do {
      return try visitor.visit(timeline)
    } catch let error as RewindError where error.code == .eventsLost {
      // A point among the lost events (`state --at 70000`): said with its journal (the
      // one it names, of two).
      throw error.naming(timeline.path)
    } catch var error as JournalError where error.code == .corruptFrame {
      // Damage met while replaying (`play`, `state`, `log`, …): what to do about it.
      error.message += Self.repairHint(timeline.path)
      throw error
    }
  }

  /// What a command that met a damaged frame adds to its error: how to see the damage and
  /// repair the journal; for a session on a server, which is no file to verify or
  /// recover, that the copy there is damaged.
  static func repairHint(_ path: String) -> String {
    guard !StreamStore.isSessionURL(path) else {
      return
        "; the session's copy on the server is damaged (verify and recover read files: the journal it was pushed from may be whole)"
    }
    return
      "; `rewind verify \(Format.shellPath(path))` lists the damage, `rewind recover \(Format.shellPath(path))` repairs it (with --salvage when good frames follow the damaged ones)"
  }

  /// Runs `visitor` with the domain named `identifier` (the default when nil).
  func with<V: DomainVisitor>(_ identifier: String?, _ visitor: V) throws -> V.Output {
    let type = try identifier.map { try domain(named: $0) } ?? defaultDomain
    return try Self.visit(type, visitor)
  }

  private static func visit<D: RecordableDomain, V: DomainVisitor>(_ type: D.Type, _ visitor: V)
    throws -> V.Output
  {
    try visitor.visit(type)
  }
}

extension Timeline {
  /// Makes the timeline warn, on `output`, of each snapshot it finds it cannot trust and
  /// replays around: `warning: PATH: frame 4 (events 257–300) at byte 3184: the snapshot
  /// after event 256 does not match its stored state hash; …`.
  func warnOfUntrustedSnapshots(to output: Output) {
    let label = output.style.yellow("warning:")
    let path = TerminalText.escaped(self.path)
    onUntrustedSnapshot = { problem in
      output.print("\(label) \(path): \(TerminalText.escaped(problem.description))")
    }
  }
}

extension Timeline {
  /// Warns, on `output`, when the state shown after event `sequence` is not the
  /// recording's: an event replayed to reach it from its snapshot has another outcome
  /// today than recorded (the reducer changed since), so that the state is the current
  /// reducer's from that snapshot; `rewind check` lists every such event.
  func warnOfDrift(reaching sequence: UInt64, to output: Output) throws {
    guard let drift = try firstDrift(reaching: sequence) else { return }
    let path = TerminalText.escaped(self.path)
    let now = "\(drift.replayed)" + (drift.reason.map { " (\(TerminalText.escaped($0)))" } ?? "")
    let from =
      drift.start == 0 ? "the initial state" : "the snapshot after event \(drift.start)"
    output.print(
      "\(output.style.yellow("warning:")) \(path): event \(drift.sequence) was recorded \(drift.recorded); today it is \(now), so the state after event \(sequence) is the current reducer's from \(from), not the recording's; `rewind check \(Format.shellPath(self.path))` lists every event the reducer now replays otherwise"
    )
  }
}

extension Timeline {
  /// Warns, on `output`, when events after `from` up to `to`, which a test is written of
  /// (`testgen`), are replayed today with other outcomes than recorded: the test asserts
  /// the current reducer's, and pins a change since the recording (a regression too).
  func warnOfDrift(after from: UInt64, through to: UInt64, to output: Output) throws {
    guard let (drift, count) = try drifts(after: from, through: to) else { return }
    let path = TerminalText.escaped(self.path)
    let now = "\(drift.replayed)" + (drift.reason.map { " (\(TerminalText.escaped($0)))" } ?? "")
    let more =
      count == 1
      ? ""
      : " (\(Format.count(count - 1)) more of the test's events \(count == 2 ? "is" : "are") replayed otherwise)"
    output.print(
      "\(output.style.yellow("warning:")) \(path): event \(drift.sequence) was recorded \(drift.recorded); today it is \(now)\(more): the test asserts what the current reducer does, not what was recorded; `rewind check \(Format.shellPath(self.path))` lists every event the reducer now replays otherwise"
    )
  }
}

/// Warns that events lost to damage were skipped.
func warnLost(_ ranges: [ClosedRange<UInt64>], in path: String, to output: Output) {
  for range in ranges {
    output.print(
      "\(output.style.yellow("warning:")) \(TerminalText.escaped(path)): \(missingSentence(range))")
  }
}

/// What a command says of events lost to damage that its output lacks: `events 9143–18277
/// were lost to damage and are missing here` (a warning's text, a script's comment).
func missingSentence(_ range: ClosedRange<UInt64>) -> String {
  "\(Format.events(range)) \(range.count == 1 ? "was" : "were") lost to damage and \(range.count == 1 ? "is" : "are") missing here"
}
