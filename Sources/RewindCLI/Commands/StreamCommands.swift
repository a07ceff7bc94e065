import RewindArguments
import RewindCore
import RewindJournal
import RewindStream

/// The connection options `push`, `pull` and `sessions` share.
private let serverDiscussion = """
  The server is a NATS server with JetStream (nats-server -js); --server takes its URL, \
  nats://HOST:PORT or tls://HOST:PORT, or several separated by commas for a cluster. \
  --user and --password (or --password-file, a file whose one line is the password: \
  other users may see a command line's words in the process list), --creds (a \
  credentials file) and --tls-ca (the certificate authorities to trust; TLS is then \
  required) are passed to it; without them, the files the environment's NATS_CREDS and \
  NATS_CA name, and the password NATS_PASSWORD holds, as the nats tool reads them: the \
  command line wins over the environment, --creds and --tls-ca over the variables, \
  --password, --password-file or a password in the URL over NATS_PASSWORD (the password \
  of --user's user; a user in --server's URL without a password is sent as a token), and \
  --user and --password (or a user in the URL) win over NATS_CREDS. A file they name \
  that cannot be used (missing, unreadable, a directory, a device, empty) fails as a \
  file that cannot be read does (exit 1), naming the option or variable, before \
  connecting: never a connection without credentials. --name names the connection in \
  the server's monitoring. A server that does not answer, refuses the credentials or \
  has no Rewind stream is an error naming the server (exit 1) within --timeout. The \
  release rewind runs these commands as rewind-nats, whose arguments (which the process \
  list shows) hold no password or token: they are written *** there, and handed over \
  in its environment.
  """

extension RewindTool {
  struct Push: ParsableCommand {
    static let configuration = CommandConfiguration(
      name: "push", abstract: "Ship journals to a NATS JetStream server.",
      discussion: """
        Each journal becomes one session on the server: its header, then each frame as \
        one message on the subject rewind.<domain>.<session-id>, with a message id of \
        the session and frame number, each published only after the session's last \
        message (so two writers of one session cannot interleave); then the session's \
        index and summary (FORMAT.md, Sessions on a NATS JetStream server). Pushing a \
        journal again sends only the frames the server lacks, so an interrupted push \
        resumes, and nothing is stored twice: each journal's line says the frames it sent \
        (stored) and those already there (pushed before, or by another push of the \
        session meanwhile), framesSent and framesFound with --json. A value of the \
        session's index damaged on the server (which pull refuses) is written again from \
        the session's messages, each checked against the journal, and the line says so \
        (rebuiltIndex with --json). A journal still being written is pushed up to its \
        last sealed frame; push it again later for the rest. A message the server \
        does not acknowledge (a lost connection, a cluster electing a new leader) is sent \
        again for 30 s before the push fails, saying so, and a push that starts while a \
        cluster elects the stream's leader waits for it likewise (its error, if the time \
        runs out, says the stream had no leader). --timeout must cover the upload of one \
        frame (64 KiB of records before compression by default, about 13 KB after in \
        the sample journal generated-200k): a message not acknowledged within it is \
        sent whole again, so on a link too slow to carry a frame within the timeout no \
        try gets through, and the error says a slow link may need a longer --timeout. \
        Creates the stream \
        and buckets (with --replicas copies) on a server that has none (a stream of \
        another program over their subjects, which keeps the server from creating them, \
        is named with its subjects). Every journal \
        is tried: one that cannot be pushed is named with the reason (with --json, \
        `"pushed": false` and its `"error"`), the others are pushed, and the command \
        exits with 1, saying how many were not pushed.

        \(serverDiscussion)
        """,
      exitStatuses: [
        ExitStatusHelp(
          "1",
          "Any journal was not pushed; the others are.")
      ])

    let registry: DomainRegistry

    @Argument(name: "journal", help: "The journals to push.")
    var journals: [String]
    var connection = ConnectionOptions()
    @Option(
      valueName: "n", help: "Copies of the stream and buckets when this push creates them.",
      transform: { text throws(InvalidValue) in
        guard let value = Int(text), (1...5).contains(value) else {
          throw InvalidValue("expected a number of copies from 1 to 5")
        }
        return value
      })
    var replicas: Int = 1
    @Flag(help: "Print JSON.")
    var json: Bool

    /// What a push cut off by the server or the network ends its error with: the frames
    /// the server took are kept, and not listed until the session's index is written.
    static let resumes =
      "; pushing again resumes: what the server took is kept (the session is listed once its index is written: incomplete, or open for a journal not closed, until a push completes it)"

    func run(_ context: Context) throws {
      let address = try connection.address(replicas: replicas, environment: context.environment)
      // The server is connected to when a journal is there to push (a missing file is said
      // as such, whatever the server), and once: its failure is each journal's. The hand
      // over to rewind-nats, which runs the command again, comes before anything is said.
      if journals.contains(where: fileExists) {
        NatsHelper.handOverToConnect(context: context)
      }
      var connected: Result<StreamStore, any Error>?
      func connect() throws -> StreamStore {
        if let connected { return try connected.get() }
        let result = Result { () throws -> StreamStore in
          try StreamStore(address)
        }
        connected = result
        return try result.get()
      }
      // Every journal is tried: one that cannot be pushed is reported (on standard error,
      // or in the JSON) and the others are pushed still.
      var reports: [JSONValue] = []
      var failures: [(any Error, String)] = []
      var replicasSaid = false
      for journal in journals {
        let report: StreamStore.PushReport
        do {
          try requireFile(journal, for: "push")
          // The file's own problem (no such file, damage, lost events) before the server's:
          // it is checked before a server is connected to.
          let reader: JournalReader
          do throws(JournalError) {
            reader = try StreamStore.pushable(journal)
          } catch {
            throw namingWhatItIs(error)
          }
          let store = try connect()
          report = try context.withProgress("Pushing \(journal)") { bar in
            do {
              return try store.push(checked: reader, reopening: journal, progress: bar.update)
            } catch var error as StreamError where error.kind == .timeout || error.kind == .noServer
            {
              // Cut off part way: what reached the server is not lost, though not listed.
              error.message += Self.resumes
              throw error
            }
          }
        } catch {
          let message = Self.naming(journal, error)
          failures.append((error, message))
          if json {
            reports.append(
              .object([
                ("journal", .string(StreamStore.displayName(journal))), ("pushed", false),
                ("error", .string(StreamStore.maskingPasswords(in: message))),
              ]))
          } else if journals.count > 1 {
            context.stdout.flush()
            context.stderr.print("\(context.errorLabel) \(context.escaped(message))")
          }
          continue
        }
        // A stream made before with fewer copies keeps them: said once, not refused.
        if !replicasSaid, let kept = (try? connect())?.streamReplicas, kept < replicas {
          replicasSaid = true
          context.stdout.flush()
          context.stderr.print(
            "warning: the server's stream of sessions keeps \(kept == 1 ? "1 copy" : "\(kept) copies"), fewer than --replicas \(replicas) asks: --replicas applies to the stream and buckets a push creates, and the server's administrator changes those that are there (`nats stream edit \(StreamLayout.stream) --replicas \(replicas)`, and the buckets' streams)"
          )
        }
        let summary = report.summary
        if json {
          reports.append(
            .object([
              ("journal", .string(journal)), ("pushed", true),
              ("session", .string(summary.session.description)),
              ("framesFound", .int(Int64(report.framesFound))),
              ("framesSent", .int(Int64(report.framesSent))),
              ("events", .int(Int64(summary.eventCount))), ("closed", .bool(summary.isClosed)),
              ("rebuiltIndex", .bool(report.rebuiltIndex)),
            ]))
        } else {
          let resumed =
            report.framesFound > 0
            ? " (\(Format.count(report.framesFound, "frame")) already there)" : ""
          // A journal not closed (being recorded, or cut short) leaves the session open.
          let open =
            summary.isClosed
            ? ""
            : "; the session stays open on the server until the journal, once closed (by its recording, or by `rewind recover`), is pushed again"
          let rebuilt =
            report.rebuiltIndex
            ? "; the session's index, damaged on the server, was written again from its messages"
            : ""
          context.stdout.print(
            "\(TerminalText.escaped(journal)): session \(summary.session), \(Format.count(summary.eventCount, "event")) in \(Format.count(summary.frameCount, "frame")) on the server; \(Format.count(report.framesSent, "frame")) sent\(resumed)\(rebuilt)\(open)"
          )
        }
      }
      if json { context.stdout.printJSON(.array(reports)) }
      guard let (error, message) = failures.first else { return }
      // One journal's error is the command's, naming the journal (a server's failure names
      // the server); of several, each was said as it failed.
      if journals.count == 1 {
        if error is UsageError || error is ExitCode { throw error }
        throw CommandError(
          StreamStore.maskingPasswords(in: message),
          exitCode: (error as? CommandError)?.exitCode ?? .failure)
      }
      throw CommandError(
        "\(failures.count) of \(Format.count(journals.count, "journal")) \(failures.count == 1 ? "was" : "were") not pushed"
      )
    }

    /// The error `journal` could not be pushed for, naming the journal once: as it is
    /// when it names it, else after its path.
    static func naming(_ journal: String, _ error: any Error) -> String {
      let text = "\(error)"
      if text.hasPrefix(journal + ": ") { return text }
      if let error = error as? StreamError, error.message.hasPrefix(journal + " ") { return text }
      return "\(journal): \(text)"
    }
  }

  struct Pull: ParsableCommand {
    static let configuration = CommandConfiguration(
      name: "pull", abstract: "Rebuild a journal from a session on a NATS JetStream server.",
      discussion: """
        Reads the session's index, header and frames from the server, checks each frame \
        as a reader of a file does, and writes the journal atomically: the same header, \
        frames, events and snapshots as the journal pushed, with an index (a session whose \
        journal was not closed when it was pushed is written as a journal not closed). \
        SESSION is the session's id, or the start of it when one session's id starts so \
        (a start several sessions' ids share is an error naming them, the first five). \
        A session or frame the server does not send (a lost connection, a server \
        restarted, a cluster electing a new leader) is asked for again for 30 s before \
        the pull fails, saying so; the file is written only once every frame is read.

        \(serverDiscussion)
        """)

    let registry: DomainRegistry

    @Argument(help: "The session's id (or its unique beginning).")
    var session: String
    var connection = ConnectionOptions()
    @Option(short: "o", valueName: "journal", help: "The journal to write.")
    var output: String
    @Flag(help: "Replace the journal if it exists.")
    var force: Bool

    func run(_ context: Context) throws {
      guard !session.isEmpty else {
        throw UsageError("the session's id is empty; give it, or its unique beginning")
      }
      // Said before the server is asked (walk of the fleet, F11: "no such session").
      if session.contains("://") {
        throw UsageError(
          "\(StreamStore.maskingUnreadableCredentials(in: session)) is a URL: pull takes a session's id, the server in --server (rewind pull ID --server nats://HOST:PORT -o FILE)"
        )
      }
      guard session.allSatisfy({ $0.isASCII && ($0.isHexDigit || $0 == "-") }) else {
        throw UsageError(
          "\(Format.quoted(session)) is no session id, which is hex digits and dashes (or their beginning), as `rewind sessions` lists them"
        )
      }
      let destination = try outputDestination(output, force: force, inputs: [])
      let store = try connection.connect(replicas: 1, context: context)
      let summary = try context.withProgress("Pulling \(session)") { bar in
        try store.pull(session, to: destination, progress: bar.update)
      }
      let state =
        summary.isClosed
        ? ""
        : summary.isIncomplete
          ? " (its push is incomplete: the journal pushed was closed, and the server holds these of its frames; pushing it again completes the session)"
          : " (not closed on the server)"
      context.stdout.print(
        "\(TerminalText.escaped(output)): session \(summary.session), \(Format.count(summary.eventCount, "event")) in \(Format.count(summary.frameCount, "frame"))\(state)"
      )
    }
  }

  struct Sessions: ParsableCommand {
    static let configuration = CommandConfiguration(
      name: "sessions", abstract: "List the sessions on a NATS JetStream server.",
      discussion: """
        One line per session, oldest first: its id, domain, device, start (UTC), events, \
        duration and the bytes it takes on the server, `open` for a session whose \
        journal was not closed when it was pushed, and `incomplete` for one whose closed \
        journal is not all there (a push under way, or cut short: pushing it again \
        completes it). --domain keeps one domain's, --since \
        those started at or after a time (ISO 8601), --device those whose device contains \
        the text (in any case). Reads only the sessions' summaries, never their frames. A server that \
        stops answering once connected (restarted, or a cluster electing a new leader) is \
        asked again for 30 s before the command fails, saying so.

        \(serverDiscussion)
        """)

    let registry: DomainRegistry

    var connection = ConnectionOptions()
    @Option(help: "Only the sessions of this domain.")
    var domain: String?
    @Option(
      valueName: "time",
      help:
        "Only the sessions started at or after this time (ISO 8601; a date alone: its midnight, UTC)."
    )
    var since: String?
    @Option(
      valueName: "text", help: "Only the sessions whose device contains this text (in any case).")
    var device: String?
    @Flag(help: "Print JSON.")
    var json: Bool

    func run(_ context: Context) throws {
      var start: Int64?
      if let since {
        // A date alone is its midnight, UTC.
        guard let parsed = ISO8601.parse(since) ?? ISO8601.parse(since + "T00:00:00Z") else {
          throw UsageError(
            "--since: '\(since)' is not a time (YYYY-MM-DD, or YYYY-MM-DDTHH:MM:SS[.ffffff](Z|±HH:MM))"
          )
        }
        start = parsed
      }
      let store = try connection.connect(replicas: 1, context: context)
      var unreadable: [StreamError] = []
      let all = try store.sessions(unreadable: &unreadable)
      let sessions = all.filter { summary in
        (domain.map { summary.domain == $0 } ?? true)
          && (start.map { summary.startTime >= $0 } ?? true)
          && (device.map { summary.device.lowercased().contains($0.lowercased()) } ?? true)
      }
      for problem in unreadable {
        context.stderr.print(
          "\(context.stderr.style.yellow("warning:")) \(TerminalText.escaped(problem.description)); left out"
        )
      }
      if json {
        context.stdout.printJSON(
          .array(
            sessions.map { summary in
              .object([
                ("session", .string(summary.session.description)),
                ("domain", .string(summary.domain)), ("device", .string(summary.device)),
                ("start", .string(ISO8601.format(summary.startTime))),
                ("events", .int(Int64(summary.eventCount))),
                ("durationMicroseconds", .int(Int64(summary.lastTime))),
                ("frames", .int(Int64(summary.frameCount))),
                ("bytes", .int(Int64(summary.storedBytes))), ("closed", .bool(summary.isClosed)),
                ("incomplete", .bool(summary.isIncomplete)),
              ])
            }))
        return
      }
      for summary in sessions {
        let fields = [
          summary.session.description, TerminalText.escaped(summary.domain),
          TerminalText.escaped(summary.device), ISO8601.format(summary.startTime),
          Format.count(summary.eventCount, "event"), Format.duration(summary.lastTime),
          Format.bytes(summary.storedBytes),
        ]
        let state = summary.isClosed ? "" : summary.isIncomplete ? "  incomplete" : "  open"
        context.stdout.print(fields.joined(separator: "  ") + state)
      }
      if sessions.isEmpty { context.stderr.print(noSessions(among: all)) }
    }

    /// What `sessions` says when it lists none: that the server holds none, or that none
    /// of those it holds matches the options given (a domain matches exactly: the
    /// domains there are named).
    private func noSessions(among all: [SessionSummary]) -> String {
      guard !all.isEmpty else { return "No sessions." }
      let given =
        (domain.map { ["--domain \(Format.shellWord($0))"] } ?? [])
        + (since.map { ["--since \(Format.shellWord($0))"] } ?? [])
        + (device.map { ["--device \(Format.shellWord($0))"] } ?? [])
      var domains: [String] = []
      for summary in all where !domains.contains(summary.domain) { domains.append(summary.domain) }
      let named = domains.map { TerminalText.escaped($0) }.joined(separator: ", ")
      return
        "No sessions match \(TerminalText.escaped(given.joined(separator: " "))): the server holds \(Format.count(all.count, "session")), of the \(domains.count == 1 ? "domain" : "domains") \(named)\(domain.map { domains.contains($0) } == false ? " (--domain names one exactly)" : "")"
    }
  }
}

/// The options `push`, `pull` and `sessions` share: the server and how to connect to it.
struct ConnectionOptions: ParsableArguments {
  @Option(
    valueName: "url",
    help: "The server: nats://HOST:PORT or tls://HOST:PORT (commas between several).")
  var server: String
  @Option(help: "The user name.")
  var user: String?
  @Option(help: "The user's password (a word of the command line: see --password-file).")
  var password: String?
  @Option(valueName: "file", help: "Read the user's password from this file (its one line).")
  var passwordFile: String?
  @Option(valueName: "file", help: "A NATS credentials file.")
  var creds: String?
  @Option(valueName: "file", help: "Trust the certificate authorities of this PEM file (TLS).")
  var tlsCa: String?
  @Option(help: "The connection's name.")
  var name: String?
  @Option(
    valueName: "ms", help: "How long connecting and each request may take.",
    transform: { text throws(InvalidValue) in
      // libnats takes a 32-bit count: a larger one would wrap around (a number beyond 64
      // bits, which `groupedNumber` does not read, too).
      if groupedDigits(text) != nil, groupedNumber(text) ?? .max > UInt64(Int32.max) {
        throw InvalidValue(
          "expected a whole number of milliseconds from 1 to \(Format.count(Int32.max)) (24 days)")
      }
      return try parseCount(text, of: "milliseconds")
    })
  var timeout: Int = 5000

  /// Connects to the server the options name, with the credentials file and certificate
  /// authorities `NATS_CREDS` and `NATS_CA` name where the command line gives none
  /// (`--creds`, a user, `--tls-ca`: ``StreamServer/takingEnvironment(_:)``); in a
  /// process that cannot (the statically linked `rewind`), once the options are checked,
  /// runs the command line in `rewind-nats` instead
  /// (``NatsHelper/handOverToConnect(context:)``).
  /// - Parameter replicas: copies of the stream and buckets if this connection creates them.
  /// - Throws: ``UsageError`` for a password without a user, a user
  ///   given by both `--user` and the URL, or a `--server` that is not a server's address;
  ///   the store's error when the server cannot be reached or refuses.
  func connect(replicas: Int, context: Context) throws -> StreamStore {
    let address = try address(replicas: replicas, environment: context.environment)
    NatsHelper.handOverToConnect(context: context)
    return try StreamStore(address)
  }

  /// The server these options name, with the files the environment's `NATS_CREDS` and
  /// `NATS_CA` name where the command line gives none (`--creds`, a user, `--tls-ca`),
  /// checked (a usage error when they are not right; a ``CommandError``, exit 1, for a
  /// file that cannot be used, as for any file), without connecting.
  func address(replicas: Int, environment: [String: String]) throws -> StreamServer {
    let address = try address(replicas: replicas)
    do throws(StreamError) {
      return try address.takingEnvironment(environment)
    } catch {
      throw CommandError(error.message)
    }
  }

  /// The server these options name, checked (a usage error when they are not right; a
  /// ``CommandError``, exit 1, for a `--creds` or `--tls-ca` file that cannot be used,
  /// as for any file), without connecting.
  func address(replicas: Int) throws -> StreamServer {
    guard password == nil || passwordFile == nil else {
      throw UsageError("--password and --password-file both give the password; give one")
    }
    let passwordOption = password != nil ? "--password" : "--password-file"
    guard password == nil && passwordFile == nil || user != nil else {
      guard StreamServer(url: server).urlGivesUser else {
        throw UsageError("\(passwordOption) needs --user")
      }
      throw UsageError(
        "\(passwordOption) with a user in --server's URL: give the password in the URL (USER:PASSWORD@HOST), or --user and \(passwordOption) and no user in the URL"
      )
    }
    let address = StreamServer(
      url: server, user: user, password: password, passwordFile: passwordFile,
      credentialsFile: creds, certificateAuthorityFile: tlsCa, connectionName: name ?? "rewind",
      timeoutMilliseconds: Int64(timeout), replicas: replicas)
    if let problem = address.addressProblem {
      throw UsageError("--server \"\(address.displayURL)\": \(problem)")
    }
    // libnats takes a URL's user over --user's, without a word.
    guard user == nil || !address.urlGivesUser else {
      throw UsageError(
        "--user and --server's URL (USER@HOST) both give a user; give the user and password in one of them"
      )
    }
    if let problem = address.credentialsProblem { throw UsageError(problem) }
    // A file that is none (a directory, a device, empty) would connect without
    // credentials, into whatever account the server gives those who have none. Said as a
    // file that cannot be read is (exit 1), checked before connecting.
    for (option, what, file) in [
      ("--password-file", "the password file", passwordFile),
      ("--creds", "the credentials file", creds),
      ("--tls-ca", "the certificate authorities' file", tlsCa),
    ] {
      if let file, let problem = StreamServer.fileProblem(file) {
        throw CommandError("\(option) \(file): cannot use \(what): \(problem)")
      }
    }
    return address
  }
}
