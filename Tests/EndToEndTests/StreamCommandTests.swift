import Foundation
import JournalFixtures
import Navigation
import RewindCore
import RewindJournal
import TestSupport
import Testing

/// `rewind push`, `pull` and `sessions` against nats-servers the tests start on loopback.
@Suite(.serialized, .timeLimit(.minutes(5)))
struct StreamCommandTests {
  static let samples = [
    "day-menu", "generated-200k", "ipad-three-column", "iphone-compact", "rejected-interactions",
    "two-column",
  ]

  @Test func samplesPushedListedAndPulledBack() throws {
    let server = try NatsServer()
    let directory = TemporaryDirectory()
    let paths = StreamCommandTests.samples.map { sample($0 + ".journal") }
    let pushed = try rewind(["push"] + paths + ["--server", server.url, "--json"])
    #expect(pushed.status == 0, "\(pushed.stderr)")
    let reports = try #require(try parseJSON(pushed.stdout) as? [[String: Any]])
    #expect(reports.count == paths.count)

    let listed = try rewind("sessions", "--server", server.url, "--json")
    #expect(listed.status == 0, "\(listed.stderr)")
    let sessions = try #require(try parseJSON(listed.stdout) as? [[String: Any]])
    #expect(sessions.count == paths.count)
    for (path, report) in zip(paths, reports) {
      let id = try #require(report["session"] as? String)
      let info = try parseObject(try rewind("info", path, "--json").stdout)
      let listing = try #require(sessions.first { $0["session"] as? String == id })
      let events = try #require(info["events"] as? Int)
      #expect(listing["events"] as? Int == events)
      #expect(listing["start"] as? String == (try #require(info["start"] as? String)))
      #expect(listing["device"] as? String == (try #require(info["device"] as? String)))
      #expect(
        listing["durationMicroseconds"] as? Int
          == (try #require(info["durationMicroseconds"] as? Int)))
      #expect(listing["closed"] as? Bool == true)

      let output = directory.file(id + ".journal")
      let pulled = try rewind("pull", id, "--server", server.url, "-o", output)
      #expect(pulled.status == 0, "\(pulled.stderr)")
      #expect(try rewind("verify", output).status == 0)
      // The same events and the same states.
      #expect(try rewind("export", output).stdout == (try rewind("export", path).stdout))
      for point in ["end", "1", "\(max(1, events / 2))"] {
        let fromServer = try rewind("state", output, "--at", point, "--json")
        #expect(fromServer.status == 0)
        #expect(fromServer.stdout == (try rewind("state", path, "--at", point, "--json").stdout))
      }
    }

    // Listed by domain, start and device.
    let filtered = try rewind(
      "sessions", "--server", server.url, "--since", "2026-11-30T12:00:00Z", "--device", "iPad")
    #expect(filtered.lines.count == 2, "\(filtered.stdout)")
    #expect(filtered.lines.allSatisfy { $0.contains("iPad") })
    // In any case (walk of the fleet, F15: `--device ipad` matched none).
    let anyCase = try rewind(
      "sessions", "--server", server.url, "--since", "2026-11-30T12:00:00Z", "--device", "IPAD")
    #expect(anyCase.stdout == filtered.stdout)
    // A date alone is its midnight, UTC.
    let midnight = try rewind("sessions", "--server", server.url, "--since", "2026-11-30T00:00:00Z")
    #expect(midnight.lines.count >= 2, "\(midnight.stdout)")
    #expect(
      try rewind("sessions", "--server", server.url, "--since", "2026-11-30").stdout
        == midnight.stdout)
    let later = try rewind("sessions", "--server", server.url, "--since", "2030-01-01")
    #expect(later.status == 0 && later.stdout.isEmpty, "\(later.stderr)")
    expectUsageError(
      try rewind("sessions", "--server", server.url, "--since", "2026-11-31"),
      "--since: '2026-11-31' is not a time (YYYY-MM-DD, or YYYY-MM-DDTHH:MM:SS[.ffffff](Z|±HH:MM))",
      command: "sessions")
    let none = try rewind("sessions", "--server", server.url, "--domain", "nav")
    #expect(none.status == 0)
    #expect(none.stdout.isEmpty)
    // The domains there named: --domain names one exactly.
    #expect(
      none.stderr.hasPrefix(
        "No sessions match --domain nav: the server holds "), "\(none.stderr)")
    #expect(
      none.stderr.hasSuffix(
        " sessions, of the domain navigation (--domain names one exactly)\n"), "\(none.stderr)")
    #expect(later.stderr.hasPrefix("No sessions match --since 2030-01-01: the server holds "))
  }

  /// A journal that cannot be pushed does not stop the others: each is tried and its
  /// outcome said, the JSON lists every one, and the command fails, saying how many.
  @Test func everyJournalIsPushedOrSaysWhyNot() throws {
    let server = try NatsServer()
    let directory = TemporaryDirectory()
    let missing = directory.file("missing.journal")
    let notJournal = directory.file("notes.journal")
    write(Array("not a journal\n".utf8), to: notJournal)
    let (first, last) = (sample("day-menu.journal"), sample("two-column.journal"))
    let arguments = ["push", first, missing, notJournal, last, "--server", server.url]

    let pushed = try rewind(arguments)
    #expect(pushed.status == 1)
    #expect(pushed.lines.count == 2, "\(pushed.stdout)")
    #expect(pushed.lines.first?.hasPrefix("\(first): session ") == true, "\(pushed.stdout)")
    #expect(pushed.lines.last?.hasPrefix("\(last): session ") == true, "\(pushed.stdout)")
    let errors = pushed.stderr.split(separator: "\n").map(String.init)
    #expect(errors.count == 3, "\(pushed.stderr)")
    #expect(errors.first == "Error: \(missing): no such file (No such file or directory (errno 2))")
    #expect(
      errors.dropFirst().first?.hasPrefix("Error: \(notJournal): not a Rewind journal") == true)
    #expect(errors.last == "Error: 2 of 4 journals were not pushed")

    let again = try rewind(arguments + ["--json"])
    #expect(again.status == 1)
    #expect(again.stderr == "Error: 2 of 4 journals were not pushed\n")
    let reports = try #require(try parseJSON(again.stdout) as? [[String: Any]])
    #expect(reports.map { $0["journal"] as? String } == [first, missing, notJournal, last])
    #expect(reports.map { $0["pushed"] as? Bool } == [true, false, false, true])
    #expect(reports[0]["framesSent"] as? Int == 0)
    #expect(reports[3]["framesSent"] as? Int == 0)
    #expect((reports[1]["error"] as? String)?.hasPrefix("\(missing): no such file") == true)
    #expect((reports[2]["error"] as? String)?.hasPrefix("\(notJournal): not a Rewind") == true)
    let sessions = try rewind("sessions", "--server", server.url, "--json")
    #expect((try parseJSON(sessions.stdout) as? [[String: Any]])?.count == 2)
  }

  /// A journal of format 1.0 (no copies of its header) is pushed with its header as 1.1,
  /// as a pull writes it back (with the copies): the pulled journal, format 1.1, is then
  /// the same session, pushed again sending nothing, where it was refused as "another
  /// journal under this session's id"; pulled again it is the same file.
  @Test func aFormat10JournalPulledBackIsTheSameSession() throws {
    let server = try NatsServer()
    let directory = TemporaryDirectory()
    let original = sample("format-1.0/day-menu.journal")
    let pushed = try rewind("push", original, "--server", server.url, "--json")
    #expect(pushed.status == 0, "\(pushed.stderr)")
    let id = try #require(
      (try parseJSON(pushed.stdout) as? [[String: Any]])?.first?["session"] as? String)
    let pulled = directory.file("pulled.journal")
    let pull = try rewind("pull", id, "--server", server.url, "-o", pulled)
    #expect(pull.status == 0, "\(pull.stderr)")
    #expect(try rewind("info", pulled).stdout.contains("format 1.1"))
    #expect(try rewind("export", pulled).stdout == (try rewind("export", original).stdout))
    let again = try rewind("push", pulled, "--server", server.url)
    #expect(again.status == 0, "\(again.stderr)")
    #expect(again.stdout.contains("0 frames sent (1 frame already there)"), "\(again.stdout)")
    let original2 = try rewind("push", original, "--server", server.url)
    #expect(original2.status == 0, "\(original2.stderr)")
    let second = directory.file("second.journal")
    #expect(try rewind("pull", id, "--server", server.url, "-o", second).status == 0)
    #expect(bytes(of: second) == bytes(of: pulled))
  }

  /// `rewind log URL | head`: the reader of the pipe stopped, the command ends by SIGPIPE
  /// (141) as it does on a file, though libnats ignores the signal for its sockets (walk
  /// of the fleet, F2: it went on fetching every frame and exited 0); where the user
  /// ignored it, it goes on and exits 0 as on a file.
  #if os(Linux)  // GNU env's --default-signal
    @Test func aClosedPipeEndsASessionsReaderBySIGPIPE() throws {
      let server = try NatsServer()
      let path = sample("generated-200k.journal")
      #expect(try rewind("push", path, "--server", server.url).status == 0)
      let id = try JournalReader(path: path).header.sessionID.description
      // The signal's action set for rewind: the test process may run with it ignored.
      for (trap, status) in [("--default-signal=PIPE", 141), ("--ignore-signal=PIPE", 0)] {
        for source in [path, "\(server.url)/\(id.prefix(8))"] {
          let script =
            "/usr/bin/env \(trap) \"$0\" log \"$1\" | head -1 >/dev/null; exit ${PIPESTATUS[0]}"
          let result = try run(
            "/bin/bash", ["-c", script, rewindBinary, source],
            environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"])
          #expect(result.status == Int32(status), "\(trap)\(source): \(result.stderr)")
          #expect(result.stderr.isEmpty, "\(result.stderr)")
        }
      }
    }
  #endif

  @Test func pushingAgainSendsNothing() throws {
    let server = try NatsServer()
    let path = sample("generated-200k.journal")
    let first = try rewind("push", path, "--server", server.url, "--json")
    let second = try rewind("push", path, "--server", server.url, "--json")
    let reports = try [first, second].map {
      try #require(try parseJSON($0.stdout) as? [[String: Any]]).first
    }
    let frames = try JournalReader(path: path).frames.count
    #expect(reports[0]?["framesSent"] as? Int == frames)
    #expect(reports[1]?["framesSent"] as? Int == 0)
    #expect(reports[1]?["framesFound"] as? Int == frames)
    let listed = try rewind("sessions", "--server", server.url, "--json")
    let sessions = try #require(try parseJSON(listed.stdout) as? [[String: Any]])
    #expect(sessions.count == 1)
    #expect(sessions.first?["frames"] as? Int == frames)
  }

  /// A copy of a journal taken before it was closed, pushed after the closed journal (a
  /// device's periodic push, late), adds nothing and leaves the session closed: the
  /// session pulled back is the closed journal, byte for byte.
  @Test func aStaleCopyLeavesAClosedSessionClosed() throws {
    let server = try NatsServer()
    let closed = sample("two-column.journal")
    let whole = bytes(of: closed)
    // Its trailer cut: not closed, the same frames.
    let copy = server.directory.file("copy.journal")
    write(Array(whole.prefix(whole.count - 50)), to: copy)
    #expect(try rewind("push", closed, "--server", server.url).status == 0)
    let late = try rewind("push", copy, "--server", server.url, "--json")
    #expect(late.status == 0, "\(late.stderr)")
    let report = try #require(try parseJSON(late.stdout) as? [[String: Any]]).first
    #expect(report?["framesSent"] as? Int == 0)
    #expect(report?["closed"] as? Bool == true)
    let id = try #require(report?["session"] as? String)
    let back = server.directory.file("back.journal")
    #expect(try rewind("pull", id, "--server", server.url, "-o", back).status == 0)
    #expect(bytes(of: back) == whole)
  }

  /// `--replicas` on a server whose stream of sessions is there with fewer copies: the
  /// push goes on, and says once that the stream keeps its own.
  @Test func replicasOfAStreamThereAlreadyAreSaid() throws {
    let server = try NatsServer()
    let first = try rewind("push", sample("day-menu.journal"), "--server", server.url)
    #expect(first.status == 0, "\(first.stderr)")
    #expect(!first.stderr.contains("warning"), "\(first.stderr)")
    let more = try rewind(
      "push", sample("two-column.journal"), sample("iphone-compact.journal"), "--server",
      server.url, "--replicas", "3")
    #expect(more.status == 0, "\(more.stderr)")
    #expect(
      more.stderr.components(separatedBy: "warning: ").count == 2
        && more.stderr.hasPrefix(
          "warning: the server's stream of sessions keeps 1 copy, fewer than --replicas 3 asks"),
      "\(more.stderr)")
    let same = try rewind("push", sample("ipad-three-column.journal"), "--server", server.url)
    #expect(same.status == 0 && same.stderr.isEmpty, "\(same.stderr)")
  }

  /// A journal of 150,000 events in frames of 1 KiB (over 500 of them), in `directory`.
  func manyFramesJournal(in directory: TemporaryDirectory) throws -> String {
    let path = directory.file("many-frames.journal")
    let writer = try JournalWriter.create(
      at: path, header: header(interval: 100), options: JournalWriterOptions(frameSize: 1024))
    try appendEvents(writer, 1...150_000)
    try writer.close()
    return path
  }

  /// `rewind push PATH --server URL ARGUMENTS`, started and not waited for; its standard
  /// error to `errors` (or nowhere).
  func pushInBackground(
    _ path: String, _ server: NatsServer, _ arguments: [String] = [], errors: Pipe? = nil
  ) throws -> Process {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: rewindBinary)
    process.arguments = ["push", path, "--server", server.url] + arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = errors ?? FileHandle.nullDevice
    try process.run()
    return process
  }

  /// The frames `sessions` lists for the server's first session once they are at least
  /// `least`, while `process` runs (within a minute); 0 when it ended first.
  func framesListed(atLeast least: Int, on server: NatsServer, while process: Process) throws
    -> Int
  {
    let deadline = Date().addingTimeInterval(60)
    while process.isRunning, Date() < deadline {
      let listed = try rewind("sessions", "--server", server.url, "--json")
      if listed.status == 0, let sessions = try? parseJSON(listed.stdout) as? [[String: Any]],
        let count = sessions.first?["frames"] as? Int, count >= least
      {
        return count
      }
      usleep(20_000)
    }
    return 0
  }

  /// A push whose server goes part way through fails, after trying again for its 30 s,
  /// saying that pushing again resumes (what the server took is kept, though the session
  /// is not listed until its index is written).
  @Test func aPushCutOffSaysThatPushingAgainResumes() throws {
    let server = try NatsServer()
    let directory = TemporaryDirectory()
    let path = try manyFramesJournal(in: directory)
    let errors = Pipe()
    let process = try pushInBackground(path, server, ["--timeout", "500"], errors: errors)
    _ = try framesListed(atLeast: 20, on: server, while: process)
    #expect(process.isRunning, "the push ended before its server went")
    server.kill()
    let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 1, "\(said)")
    #expect(said.contains("tried again for 30 s"), "\(said)")
    #expect(
      said.hasSuffix(
        "; pushing again resumes: what the server took is kept (the session is listed once its index is written: incomplete, or open for a journal not closed, until a push completes it)\n"
      ), "\(said)")
  }

  /// A push killed (SIGKILL) part way through resumes where it stopped, and the session
  /// pulled back is the journal, byte for byte.
  @Test func aKilledPushResumes() throws {
    let server = try NatsServer()
    let directory = TemporaryDirectory()
    let path = try manyFramesJournal(in: directory)
    let frames = try JournalReader(path: path).frames.count
    #expect(frames > 500)

    let process = try pushInBackground(path, server)
    let seen = try framesListed(atLeast: 20, on: server, while: process)
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
    #expect(process.terminationReason == .uncaughtSignal, "the push ended before it was killed")
    #expect(seen >= 20 && seen < frames)
    // Listed incomplete, not open: the journal pushed was closed (walk of the fleet, F1: a
    // push cut short was taken for a recording whose writer stopped).
    let cut = try #require(
      try parseJSON(try rewind("sessions", "--server", server.url, "--json").stdout)
        as? [[String: Any]]
    ).first
    #expect(
      cut?["incomplete"] as? Bool == true && cut?["closed"] as? Bool == false, "\(cut ?? [:])")
    #expect(try rewind("sessions", "--server", server.url).stdout.hasSuffix("  incomplete\n"))
    let part = directory.file("part.journal")
    let partial = try rewind(
      "pull", try #require(cut?["session"] as? String), "--server", server.url, "-o", part)
    #expect(partial.status == 0, "\(partial.stderr)")
    // Read on the server, it is said incomplete, not a journal to close (said as it is
    // opened: the test's domain is none this rewind reads).
    let cutID = try #require(cut?["session"] as? String)
    let read = try rewind("log", "\(server.url)/\(cutID.prefix(8))", "--to", "1")
    #expect(
      read.stderr.contains(
        ": its push is incomplete on the server: the journal pushed was closed, and the server holds "
      ), "\(read.stderr)")
    #expect(
      partial.stdout.hasSuffix(
        "frames (its push is incomplete: the journal pushed was closed, and the server holds these of its frames; pushing it again completes the session)\n"
      ), "\(partial.stdout)")

    let resumed = try rewind("push", path, "--server", server.url, "--json")
    #expect(resumed.status == 0, "\(resumed.stderr)")
    let report = try #require(try parseJSON(resumed.stdout) as? [[String: Any]]).first
    let found = try #require(report?["framesFound"] as? Int)
    #expect(found >= seen)
    #expect(found + (report?["framesSent"] as? Int ?? -1) == frames)

    let output = directory.file("pulled.journal")
    let id = try #require(report?["session"] as? String)
    #expect(try rewind("pull", id, "--server", server.url, "-o", output).status == 0)
    #expect(bytes(of: output) == bytes(of: path))
    let whole = try #require(
      try parseJSON(try rewind("sessions", "--server", server.url, "--json").stdout)
        as? [[String: Any]]
    ).first
    #expect(whole?["incomplete"] as? Bool == false && whole?["closed"] as? Bool == true)
  }

  /// `check` of a session on a server that fails names the session once on its line, as a
  /// file's line names the file (`FAIL s.journal: no such file …`), and never with the
  /// password its URL gave: as its PASS line names it.
  @Test func checkNamesAFailingSessionOnce() throws {
    let server = try NatsServer(user: "rewind", password: "secret")
    let withPassword = "nats://rewind:secret@127.0.0.1:\(server.port)"
    let pushed = try rewind(
      "push", sample("day-menu.journal"), "--server", withPassword, "--json")
    #expect(pushed.status == 0, "\(pushed.stderr)")
    let reports = try #require(try parseJSON(pushed.stdout) as? [[String: Any]])
    let id = try #require(reports.first?["session"] as? String)
    let absent = "nats://127.0.0.1:\(NatsServer.freePort())"
    let wrong = "nats://rewind:wrong@127.0.0.1:\(server.port)"
    let result = try rewind(
      "check", "\(withPassword)/\(id.prefix(8))", "\(withPassword)/0000", "\(absent)/abc",
      "\(wrong)/\(id.prefix(8))")
    #expect(result.status == 1)
    #expect(
      result.lines == [
        "PASS \(server.url)/\(id): 25 events, 0 snapshots",
        "  no expected state (give --expect FILE); no state is compared (no snapshot after the first event either): only each event's outcome and changed fields are",
        "FAIL \(server.url)/0000: no such session on the server (`rewind sessions` lists them)",
        "FAIL \(absent)/abc: no server answers (connection refused or unreachable)",
        "FAIL \(server.url)/\(id.prefix(8)): the server refused the credentials (authorization violation)",
        "1 passed, 3 failed",
      ], "\(result.stdout)")
    #expect(!result.stdout.contains("secret"), "\(result.stdout)")
    // A reading command names the session too (walk of the fleet, F10: the server alone).
    expectFailure(
      try rewind("log", "\(wrong)/\(id.prefix(8))"),
      containing:
        "\(server.url): session \(id.prefix(8)): the server refused the credentials (authorization violation)"
    )
    // The JSON names it as the line does; its "error" keeps the whole message.
    let json = try parseObject(try rewind("check", "\(withPassword)/0000", "--json").stdout)
    let entry = try #require((json["journals"] as? [[String: Any]])?.first)
    #expect(entry["path"] as? String == "\(server.url)/0000")
    #expect(
      entry["error"] as? String
        == "\(server.url): session 0000: no such session on the server (`rewind sessions` lists them)"
    )
  }

  /// A session URL with a user and password works where a journal is read, `diff`'s
  /// `URL@POINT` included (the point's `@` follows the session), and no message shows the
  /// password; the commands that read a journal file itself say so and how to get one.
  /// A password with a slash (a base64 one often has one) reads in a session's URL as
  /// typed, as it does in `--server`.
  @Test func aPasswordWithASlash() throws {
    let server = try NatsServer(user: "rewind", password: "s3cr/t")
    let pushed = try rewind(
      "push", sample("day-menu.journal"), "--server",
      "nats://rewind:s3cr/t@127.0.0.1:\(server.port)", "--json")
    #expect(pushed.status == 0, "\(pushed.stderr)")
    for password in ["s3cr/t"] {
      let url = "nats://rewind:\(password)@127.0.0.1:\(server.port)/bdc2"
      let info = try rewind("info", url, "--json")
      #expect(info.status == 0, "\(password): \(info.stderr)")
      #expect(try parseObject(info.stdout)["events"] as? Int == 25)
      #expect(!info.stdout.contains("s3cr"))
      // diff reads it too: the `@` of the credentials is no point.
      let day = sample("day-menu.journal")
      for arguments in [
        ["diff", url, "--from", "1", "--to", "3"], ["diff", url, day],
        ["diff", url, day, "--align"],
      ] {
        let result = try rewind(arguments)
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        #expect(!(result.stdout + result.stderr).contains("s3cr"), "\(arguments)")
      }
      // A journal edited from it, and a test made of it, hold no password: the parent is
      // the session's URL without its user and password, with its whole id (the start of
      // it typed).
      let id = try #require(
        (try parseJSON(pushed.stdout) as? [[String: Any]])?.first?["session"] as? String)
      // diff names it by its whole id too (walk of the fleet, F13: by the prefix typed).
      let named = try rewind("diff", url, day)
      #expect(
        named.stdout.contains("127.0.0.1:\(server.port)/\(id)@end (event 25)"),
        "\(named.stdout)")
      let edited = server.directory.file("edited.journal")
      let state = try rewind("state", url, "--at", "3", "--skip", "1", "-o", edited)
      #expect(state.status == 0, "\(state.stderr)")
      #expect(!bytes(of: edited).contains(Array("s3cr".utf8)))
      let parent = try parseObject(try rewind("info", edited, "--json").stdout)["parent"]
      #expect(
        (parent as? [String: Any])?["path"] as? String
          == "nats://127.0.0.1:\(server.port)/\(id)", "\(String(describing: parent))")
      let test = server.directory.file("T.swift")
      #expect(try rewind("testgen", url, "-o", test).status == 0)
      #expect(!bytes(of: test).contains(Array("s3cr".utf8)))
    }
  }

  @Test func credentialsInSessionURLs() throws {
    let server = try NatsServer(user: "rewind", password: "s3cret")
    let withPassword = "nats://rewind:s3cret@127.0.0.1:\(server.port)"
    let pushed = try rewind(
      "push", sample("day-menu.journal"), sample("ipad-three-column.journal"), "--server",
      withPassword, "--json")
    #expect(pushed.status == 0, "\(pushed.stderr)")
    let ids = try #require(try parseJSON(pushed.stdout) as? [[String: Any]]).compactMap {
      $0["session"] as? String
    }
    try #require(ids.count == 2)
    let (menu, ipad) = ("\(withPassword)/\(ids[0])", "\(withPassword)/\(ids[1])")
    // Two sessions on the server at points, as two files would be.
    let diff = try rewind("diff", "\(menu)@10", "\(ipad)@end")
    let files = try rewind(
      "diff", "\(sample("day-menu.journal"))@10", "\(sample("ipad-three-column.journal"))@end")
    #expect(diff.status == files.status, "\(diff.stderr)")
    #expect(
      diff.stdout.split(separator: "\n").dropFirst()
        == files.stdout.split(separator: "\n").dropFirst())
    #expect(!diff.stdout.contains("s3cret") && !diff.stderr.contains("s3cret"))
    let aligned = try rewind("diff", "--align", menu, ipad)
    let alignedFiles = try rewind(
      "diff", "--align", sample("day-menu.journal"), sample("ipad-three-column.journal"))
    #expect(aligned.status == alignedFiles.status, "\(aligned.stderr)")
    #expect(aligned.lines.count == alignedFiles.lines.count && aligned.lines.count > 2)
    #expect(!aligned.stdout.contains("s3cret") && !aligned.stderr.contains("s3cret"))
    // Errors quote the URL as typed, without the password.
    let missing = "\(withPassword)/0000"
    for arguments in [
      ["info", missing], ["diff", "\(missing)@2", "\(menu)@end"],
      ["import", missing, "-o", server.directory.file("i.journal")],
      ["recover", sample("day-menu.journal"), "-o", "\(missing)/x.journal"],
    ] {
      let result = try rewind(arguments)
      #expect(result.status != 0, "\(arguments)")
      #expect(result.stderr.contains("Error:"), "\(arguments): \(result.stderr)")
      #expect(!result.stderr.contains("s3cret"), "\(arguments): \(result.stderr)")
    }
    // verify, recover and push read a journal file itself.
    for command in ["verify", "recover", "push"] {
      let extra = command == "push" ? ["--server", withPassword] : []
      expectUsageError(
        try rewind([command, menu] + extra),
        "\(server.url)/\(ids[0]) is a session on a server; \(command) reads a journal file: `rewind pull \(ids[0]) --server \(server.url) -o FILE` writes one",
        command: command)
    }
    #expect(!FileManager.default.fileExists(atPath: server.directory.file("i.journal")))
  }

  @Test func errorsNameTheServerAndExitWithOne() throws {
    let server = try NatsServer(user: "rewind", password: "secret")
    let journal = sample("day-menu.journal")
    let start = Date()
    let refused = try rewind(
      "push", journal, "--server", server.url, "--user", "rewind", "--password", "wrong")
    expectFailure(refused, containing: "\(server.url): the server refused the credentials")
    // None given: said so (there were none to refuse).
    expectFailure(
      try rewind("sessions", "--server", server.url),
      containing: "\(server.url): the server asks for credentials, and none were given")

    let missing = try rewind(
      "pull", "bdc215f2", "--server", server.url, "--user", "rewind", "--password", "secret",
      "-o", server.directory.file("x.journal"))
    expectFailure(missing, containing: "\(server.url): session bdc215f2: the server has no stream")
    #expect(!FileManager.default.fileExists(atPath: server.directory.file("x.journal")))

    let pushed = try rewind(
      "push", journal, "--server", server.url, "--user", "rewind", "--password", "secret")
    #expect(pushed.status == 0, "\(pushed.stderr)")
    let unknown = try rewind(
      "pull", "0000", "--server", server.url, "--user", "rewind", "--password", "secret", "-o",
      server.directory.file("x.journal"))
    expectFailure(unknown, containing: "session 0000: no such session on the server")
    let empty = try rewind(
      "pull", "", "--server", server.url, "--user", "rewind", "--password", "secret", "-o",
      server.directory.file("x.journal"))
    // Said before connecting, as a usage error.
    expectUsageError(
      empty, "the session's id is empty; give it, or its unique beginning", command: "pull")
    // A path, or a session's URL, given for the id (walk of the fleet, F11: the server was
    // asked, and said it had no such session).
    for (session, message) in [
      (
        "day-menu.journal",
        "'day-menu.journal' is no session id, which is hex digits and dashes (or their beginning), as `rewind sessions` lists them"
      ),
      (
        "\(server.url)/bdc2",
        "\(server.url)/bdc2 is a URL: pull takes a session's id, the server in --server (rewind pull ID --server nats://HOST:PORT -o FILE)"
      ),
      // Any scheme, its password hidden (the review of session 68: quoted in clear).
      (
        "NATS://u:secret@h:4222/abc",
        "NATS://***@h:4222/abc is a URL: pull takes a session's id, the server in --server (rewind pull ID --server nats://HOST:PORT -o FILE)"
      ),
      (
        "ｄ５５",
        "'ｄ５５' is no session id, which is hex digits and dashes (or their beginning), as `rewind sessions` lists them"
      ),
    ] {
      let refused = try rewind(
        "pull", session, "--server", server.url, "-o", server.directory.file("x.journal"))
      expectUsageError(refused, message, command: "pull")
    }

    let absent = "nats://127.0.0.1:\(NatsServer.freePort())"
    // Values out of range are usage errors of the usual shape, said before connecting.
    expectUsageError(
      try rewind("sessions", "--server", absent, "--timeout", "0"),
      "The value '0' is invalid for '--timeout <ms>': expected a whole number of milliseconds, 1 or more",
      command: "sessions")
    for huge in ["2147483648", "99999999999999999999999"] {
      expectUsageError(
        try rewind("sessions", "--server", absent, "--timeout", huge),
        "The value '\(huge)' is invalid for '--timeout <ms>': expected a whole number of milliseconds from 1 to 2,147,483,647 (24 days)",
        command: "sessions")
    }
    expectUsageError(
      try rewind("push", journal, "--server", absent, "--replicas", "6"),
      "The value '6' is invalid for '--replicas <n>': expected a number of copies from 1 to 5",
      command: "push")
    // Leading zeros are no larger number.
    expectFailure(
      try rewind("sessions", "--server", absent, "--timeout", "000000000001000"),
      containing: "\(absent): no server answers")
    let unreachable = try rewind("sessions", "--server", absent, "--timeout", "1000")
    expectFailure(unreachable, containing: "\(absent): no server answers")
    // A journal that is not there is said as such, whatever the server; with --json every
    // journal has its entry, the server's failure too.
    let nowhere = server.directory.file("nowhere.journal")
    let notThere = try rewind("push", nowhere, "--server", absent, "--timeout", "1000")
    expectFailure(notThere, containing: "\(nowhere): no such file")
    let both = try rewind(
      "push", journal, nowhere, "--server", absent, "--timeout", "1000", "--json")
    #expect(both.status == 1)
    let entries = try #require(try parseJSON(both.stdout) as? [[String: Any]])
    #expect(entries.map { $0["pushed"] as? Bool } == [false, false])
    #expect((entries[0]["error"] as? String ?? "").contains("\(absent): no server answers"))
    #expect((entries[1]["error"] as? String ?? "").contains("\(nowhere): no such file"))
    #expect(Date().timeIntervalSince(start) < 30)
  }

  /// A `--server` that is not a server's address is a usage error that says what is wrong
  /// with it, before anything is tried (a space crashed the client library; a port out of
  /// range, another scheme or a path were "no server answers"); a password is never shown.
  @Test func aServerAddressThatIsNoneIsAUsageError() throws {
    let cases: [(String, String)] = [
      ("", "an empty server address"),
      (" ", "an empty server address"),
      ("nats://127.0.0.1:4222,,", "entry 2 of the list: an empty server address"),
      ("nats://127.0.0.1:99999", "the port 99999 is not a number from 1 to 65535"),
      ("http://127.0.0.1:4222", "the scheme is http, not nats or tls"),
      ("nats://:4222", "no host (nats://HOST:PORT)"),
      ("nats://[::1", "the IPv6 address has no closing ]"),
      (
        "nats://127.0.0.1:4222/6f0c",
        "a server's address has no path (/6f0c): a session on a server is nats://HOST:PORT/SESSION-ID, read by the commands that read a journal"
      ),
    ]
    for (server, problem) in cases {
      expectUsageError(
        try rewind("sessions", "--server", server),
        "--server \"\(server)\": \(problem)", command: "sessions")
    }
    let secret = try rewind(
      "sessions", "--server", "nats://ops:hunter2@127.0.0.1:0", "--timeout", "1000")
    expectUsageError(
      secret,
      "--server \"nats://ops:***@127.0.0.1:0\": the port 0 is not a number from 1 to 65535",
      command: "sessions")
    let absent = "127.0.0.1:\(NatsServer.freePort())"
    let unreachable = try rewind(
      "sessions", "--server", "nats://ops:hunter2@\(absent)", "--timeout", "1000")
    expectFailure(unreachable, containing: "nats://ops:***@\(absent): no server answers")
    #expect(!unreachable.stderr.contains("hunter2"))
    // A password for the URL's user, given apart: where it goes.
    let apart = try rewind("sessions", "--server", "nats://ops@\(absent)", "--password", "pw")
    expectUsageError(
      apart,
      "--password with a user in --server's URL: give the password in the URL (USER:PASSWORD@HOST), or --user and --password and no user in the URL",
      command: "sessions")
    // A user given twice: libnats would take the URL's without a word.
    for url in ["nats://ops:hunter2@\(absent)", "nats://\(absent),tls://ops@\(absent)"] {
      let twice = try rewind("sessions", "--server", url, "--user", "other")
      expectUsageError(
        twice,
        "--user and --server's URL (USER@HOST) both give a user; give the user and password in one of them",
        command: "sessions")
      #expect(!twice.stderr.contains("hunter2"))
    }

    // A reading command's argument that starts as a session's URL but is none.
    for text in ["nats:///6f0c", "nats://host/a/b"] {
      let result = try rewind("info", text)
      #expect(result.status == 64, "\(result.stderr)")
      #expect(
        result.stderr.hasPrefix(
          "Error: \(text) is neither a file nor a session on a server (nats://[USER:PASSWORD@]HOST:PORT/SESSION-ID"
        ), "\(result.stderr)")
    }
    // Another scheme, or this one in capitals (walk of the fleet, F14: "no such file").
    for (url, message) in [
      (
        "NATS://ops:hunter2@127.0.0.1:4222/bdc",
        "NATS://***@127.0.0.1:4222/bdc: write the scheme in lower case, nats://"
      ),
      (
        "http://127.0.0.1:4222/bdc",
        "http://127.0.0.1:4222/bdc is neither a file nor a session on a server, whose URL starts nats:// or tls://, not http://"
      ),
    ] {
      expectUsageError(try rewind("info", url), message, command: "info")
    }
    // A space or a control character in it, a password's say: no part of the password is
    // quoted (walk of the fleet, F4: it was, in clear).
    for (url, shown) in [
      ("nats://alice:my secret@127.0.0.1:4222/bdc", "nats://***@127.0.0.1:4222/bdc"),
      ("nats://alice:my\tsecret@127.0.0.1:4222/bdc", "nats://***@127.0.0.1:4222/bdc"),
      (
        "nats://alice:s3cr/et@x:y@127.0.0.1:4222,nats://bob:pa ss@127.0.0.1:4222/bdc",
        "nats://***@127.0.0.1:4222,nats://***@127.0.0.1:4222/bdc"
      ),
    ] {
      let result = try rewind("info", url)
      expectUsageError(
        result,
        "\(shown): a session's URL holds no space or control character; a password holding one is given in NATS_PASSWORD, the user alone before the host in the URL (USER@HOST:PORT)",
        command: "info")
      #expect(!result.stderr.contains("secret") && !result.stderr.contains("pa ss"))
    }
    // A space that no password holds: no word of one.
    expectUsageError(
      try rewind("info", "nats://127.0.0.1:4222/abc def"),
      "nats://127.0.0.1:4222/abc def: a session's URL holds no space or control character",
      command: "info")
    // A server's URL whose session is no id: said so (it was said to be no URL, though
    // the README says a URL takes the id as `pull` does).
    expectUsageError(
      try rewind("log", "nats://u:pw@127.0.0.1:4222/zzzz"),
      "nats://u:***@127.0.0.1:4222/zzzz: 'zzzz' is no session id, which is hex digits and dashes (or their beginning), as `rewind sessions` lists them",
      command: "log")
    expectUsageError(
      try rewind("info", "nats://127.0.0.1:4222/"),
      "nats://127.0.0.1:4222/: no session after the slash", command: "info")
    // A password holding a slash and no session: no part of it is quoted (its end was
    // quoted as the id, or its start as the port).
    for url in ["nats://ci:se/cret@127.0.0.1:4222", "nats://ci:se/cafe@127.0.0.1:4222"] {
      let result = try rewind("state", url)
      expectUsageError(
        result, "nats://ci:***@127.0.0.1:4222: no session after the host and port",
        command: "state")
    }
    // A cluster's nodes, each with the credentials: each password masked (the second was
    // shown, on check's FAIL line too).
    let cluster = try rewind("check", "nats://ci:pw2x@127.0.0.1:1,ci:pw2x@127.0.0.1:2/zzzz")
    #expect(cluster.status == 1)
    #expect(
      cluster.stdout.hasPrefix(
        "FAIL nats://ci:***@127.0.0.1:1,ci:***@127.0.0.1:2/zzzz: 'zzzz' is no session id"),
      "\(cluster.stdout)")
    #expect(!(cluster.stdout + cluster.stderr).contains("pw2x"))
    // A session's URL with an address that is none: a usage error, as in --server.
    expectUsageError(
      try rewind("info", "nats://127.0.0.1:99999/6f0c"),
      "nats://127.0.0.1:99999: the port 99999 is not a number from 1 to 65535", command: "info")
  }

  /// libnats' messages reach users without the place in its sources they start with.
  @Test func libnatsErrorsAreShownWithoutItsSourceFileAndLine() throws {
    let absent = "nats://127.0.0.1:\(NatsServer.freePort())"
    let authorities = try rewind(
      "sessions", "--server", absent, "--tls-ca", "/etc/passwd", "--timeout", "1000")
    expectFailure(
      authorities,
      containing:
        "\(absent): cannot load the certificate authorities of /etc/passwd: Error loading trusted certificates '/etc/passwd': no certificate or crl found"
    )
    #expect(authorities.stderr.firstMatch(of: /\(\w+\.c:\d+\)/) == nil, "\(authorities.stderr)")
    // A file that cannot be read is said to be one (libnats says `(null)`).
    let missing = "/nonexistent/ca.pem"
    for (option, what) in [
      ("--tls-ca", "the certificate authorities' file"), ("--creds", "the credentials file"),
    ] {
      let result = try rewind("sessions", "--server", absent, option, missing, "--timeout", "1000")
      expectFailure(result, containing: "\(option) \(missing): cannot use \(what): no such file")
      #expect(!result.stderr.contains("(null)"), "\(result.stderr)")
    }
  }

  /// A credentials file that is none (a directory, as a Kubernetes Secret is mounted; a
  /// device; an empty file), from `--creds` or `NATS_CREDS`, and an authorities' file
  /// likewise, fails naming the option or variable, before connecting (exit 1, as a file
  /// that cannot be read does): it was taken, and the push went without credentials into
  /// the account the server's `no_auth_user` gives (exit 0).
  @Test func aCredentialsFileThatIsNoneIsRefused() throws {
    let server = try NatsServer(
      configuration: """
        accounts {
          APP { jetstream: enabled, users = [ {user: ci, password: secret} ] }
          GUEST { jetstream: enabled, users = [ {user: guest, password: guest} ] }
        }
        no_auth_user: guest

        """)
    let directory = TemporaryDirectory()
    let empty = directory.file("empty.creds")
    write([], to: empty)
    let journal = sample("two-column.journal")
    for (file, problem) in [
      (directory.path, "it is a directory, not a file"),
      ("/dev/null", "it is a device, not a file"),
      (empty, "it is empty"),
    ] {
      for (option, variable, what) in [
        ("--creds", "NATS_CREDS", "the credentials file"),
        ("--tls-ca", "NATS_CA", "the certificate authorities' file"),
      ] {
        let given = try rewind("push", journal, "--server", server.url, option, file)
        #expect(given.status == 1)
        #expect(given.stderr == "Error: \(option) \(file): cannot use \(what): \(problem)\n")
        let named = try rewind(
          "push", journal, "--server", server.url, environment: [variable: file])
        #expect(named.status == 1)
        #expect(
          named.stderr == "Error: cannot use \(what) \(file), which \(variable) names: \(problem)\n"
        )
        let read = try rewind("info", "\(server.url)/bedf844b", environment: [variable: file])
        #expect(read.status == 1)
        #expect(
          read.stderr == "Error: cannot use \(what) \(file), which \(variable) names: \(problem)\n")
      }
    }
    // Nothing reached the guest's account.
    let guest = try rewind(
      "sessions", "--server", server.url, "--user", "guest", "--password", "guest")
    expectFailure(guest, containing: "has no stream REWIND")
  }

  /// A server with TLS from a private authority: reached by `push`, `sessions` and `pull`
  /// with `--tls-ca` or the environment's `NATS_CA`, and by the reading commands, whose
  /// session URL has no room for a file, with `NATS_CA` only; never without it.
  @Test func aPrivateAuthorityIsTrustedFromTheOptionOrNATS_CA() throws {
    let directory = TemporaryDirectory()
    let certificates = try TestCertificates(in: directory)
    let server = try NatsServer(tls: certificates)
    let url = "tls://127.0.0.1:\(server.port)"
    let trusted = ["NATS_CA": certificates.authority]
    let file = sample("day-menu.journal")

    // Not trusted: libnats checks the certificate against the system's authorities.
    let untrusted = try rewind("sessions", "--server", url, "--timeout", "2000")
    expectFailure(untrusted, containing: url)
    #expect(untrusted.stderr.contains("unable to get local issuer certificate"))
    #expect(untrusted.stderr.contains("--tls-ca FILE, or NATS_CA=FILE"), "\(untrusted.stderr)")

    let pushed = try rewind("push", file, "--server", url, "--tls-ca", certificates.authority)
    #expect(pushed.status == 0, "\(pushed.stderr)")
    let listed = try rewind("sessions", "--server", url, "--json", environment: trusted)
    #expect(listed.status == 0, "\(listed.stderr)")
    let sessions = try #require(try parseJSON(listed.stdout) as? [[String: Any]])
    let id = try #require(sessions.first?["session"] as? String)

    // A reading command: the same state as the file's, with NATS_CA; refused without it.
    let session = "\(url)/\(id.prefix(8))"
    let fromServer = try rewind("state", session, "--at", "end", "--json", environment: trusted)
    #expect(fromServer.status == 0, "\(fromServer.stderr)")
    #expect(fromServer.stdout == (try rewind("state", file, "--at", "end", "--json").stdout))
    let refused = try rewind("info", session)
    expectFailure(refused, containing: url)
    #expect(refused.stdout.isEmpty)

    // An option given wins over the variable; an empty variable names no file.
    let option = try rewind(
      "sessions", "--server", url, "--tls-ca", certificates.authority,
      environment: ["NATS_CA": "/nonexistent/ca.pem"])
    #expect(option.status == 0, "\(option.stderr)")
    let empty = try rewind("info", session, environment: ["NATS_CA": ""])
    expectFailure(empty, containing: url)

    // A variable naming a file that cannot be read is said to, before connecting.
    for (variable, what) in [
      ("NATS_CA", "the certificate authorities' file"), ("NATS_CREDS", "the credentials file"),
    ] {
      let missing = "/nonexistent/\(variable).file"
      for arguments in [["info", session], ["sessions", "--server", url]] {
        let result = try rewind(arguments, environment: [variable: missing])
        expectFailure(
          result, containing: "cannot use \(what) \(missing), which \(variable) names: no such file"
        )
      }
    }

    let pulled = directory.file("pulled.journal")
    let pull = try rewind("pull", id, "--server", url, "-o", pulled, environment: trusted)
    #expect(pull.status == 0, "\(pull.stderr)")
    #expect(try rewind("export", pulled).stdout == (try rewind("export", file).stdout))

    // NATS_CA asks for TLS, which a server without it does not offer: said so.
    let plain = try NatsServer()
    let clear = try rewind("sessions", "--server", plain.url, environment: trusted)
    expectFailure(
      clear,
      containing:
        "the server does not offer TLS (TLS was asked for by NATS_CA=\(certificates.authority) in the environment; unset it for this server)"
    )
    // A file NATS_CREDS names that holds no credentials is said to be the one it names
    // (read as the client connects); given by --creds, it is the option's.
    let junk = directory.file("junk.creds")
    write(Array("hello\n".utf8), to: junk)
    let badCredentials = try rewind(
      "sessions", "--server", plain.url, environment: ["NATS_CREDS": junk])
    expectFailure(badCredentials, containing: "\(junk)' (the credentials file NATS_CREDS names)")
    let optionCredentials = try rewind("sessions", "--server", plain.url, "--creds", junk)
    expectFailure(optionCredentials, containing: junk)
    #expect(!optionCredentials.stderr.contains("NATS_CREDS"), "\(optionCredentials.stderr)")
    // A server that sends its whole chain (the authority's certificate after its own):
    // untrusted, said with the same hint.
    let chain = directory.file("chain.pem")
    write(bytes(of: certificates.serverCertificate) + bytes(of: certificates.authority), to: chain)
    let chained = try NatsServer(tls: certificates, certificate: chain)
    let selfSigned = try rewind("sessions", "--server", "tls://127.0.0.1:\(chained.port)")
    expectFailure(selfSigned, containing: "self-signed certificate in certificate chain")
    #expect(selfSigned.stderr.contains("--tls-ca FILE, or NATS_CA=FILE"), "\(selfSigned.stderr)")
  }

  /// Every reading command takes a session on a server where it takes a file, and
  /// prints what it prints for the file; time travel from the server equals time travel
  /// from the file at 100 random points.
  @Test func readingCommandsReadSessionsOnTheServer() throws {
    let server = try NatsServer()
    let file = sample("generated-200k.journal")
    let pushed = try rewind("push", file, "--server", server.url, "--json")
    let report = try #require(try parseJSON(pushed.stdout) as? [[String: Any]]).first
    let id = try #require(report?["session"] as? String)
    let url = "\(server.url)/\(id.prefix(8))"
    let shown = "\(server.url)/\(id)"
    func same(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
      let fromServer = try rewind(arguments.map { $0 == "J" ? url : $0 })
      let fromFile = try rewind(arguments.map { $0 == "J" ? file : $0 })
      #expect(fromServer.status == fromFile.status, sourceLocation: sourceLocation)
      #expect(fromServer.status == 0, "\(fromServer.stderr)", sourceLocation: sourceLocation)
      #expect(
        fromServer.stdout.replacingOccurrences(of: shown, with: "J")
          == fromFile.stdout.replacingOccurrences(of: file, with: "J"), "\(arguments)",
        sourceLocation: sourceLocation)
    }
    try same(["log", "J", "--from", "1000", "--to", "1200"])
    try same(["export", "J"])
    try same(["find", "J", "--where", "changed(menu.selectedIndex)", "--jobs", "2"])
    try same(["blame", "J", "menu.selectedIndex", "--at", "150000"])
    try same(["diff", "J", "--from", "100", "--to", "90000"])
    try same(["state", "J", "--json"])
    let info = try parseObject(try rewind("info", url, "--json").stdout)
    #expect(info["events"] as? Int == 200_000)
    #expect(info["closed"] as? Bool == true)
    #expect(info["integrity"] as? [String] == ["closed, index present"])
    // Its size is not on a disk: its header and frames, as a journal file holds them.
    let infoText = try rewind("info", url)
    #expect(infoText.stdout.contains(" in its header and frames, "), "\(infoText.stdout)")
    // A session pushed before its journal was closed is not closed on the server, and
    // info says so, in the text as in the JSON.
    // (A journal cut short, as a recording killed leaves it: its whole frames are pushed.)
    let open = server.directory.file("open.journal")
    #expect(try rewind("generate", "--events", "30000", "--seed", "77", "-o", open).status == 0)
    let whole = bytes(of: open)
    write(Array(whole.prefix(whole.count / 2)), to: open)
    let openPush = try rewind("push", open, "--server", server.url, "--json")
    #expect(openPush.status == 0, "\(openPush.stderr)")
    // Said in the text too.
    let again = try rewind("push", open, "--server", server.url)
    #expect(
      again.stdout.hasSuffix(
        "; the session stays open on the server until the journal, once closed (by its recording, or by `rewind recover`), is pushed again\n"
      ), "\(again.stdout)")
    let openID = try #require(
      (try parseJSON(openPush.stdout) as? [[String: Any]])?.first?["session"] as? String)
    let openInfo = try parseObject(
      try rewind("info", "\(server.url)/\(openID)", "--json").stdout)
    #expect(openInfo["closed"] as? Bool == false)
    let integrity = openInfo["integrity"] as? [String] ?? []
    #expect(integrity.count == 1)
    #expect(
      integrity.first?.hasPrefix("not closed on the server: it holds ") == true
        && integrity.first?.hasSuffix(
          "; pushing the journal again once it is closed closes it") == true,
      "\(integrity)")
    let checked = try rewind("check", url)
    #expect(checked.status == 0, "\(checked.stderr)")
    #expect(checked.stdout.hasPrefix("PASS \(shown): 200,000 events"))
    // The page of the session on the server is the page of the file, byte for byte
    // (the file named as the session, since a page shows the name it was made from): by
    // default named after the session's whole id, the start of it typed.
    let named = server.directory.file(id)
    write(bytes(of: file), to: named)
    let here = TemporaryDirectory()
    let fromServer = try run(
      rewindBinary, ["html", url], environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"],
      currentDirectory: here.path)
    #expect(fromServer.status == 0, "\(fromServer.stderr)")
    #expect(fromServer.stdout.hasPrefix("Wrote \(id).html: 200,000 events"), "\(fromServer.stdout)")
    let pages = (here.file("\(id).html"), server.directory.file("file.html"))
    #expect(try rewind("html", named, "-o", pages.1).status == 0)
    #expect(bytes(of: pages.0).count > 500_000)
    #expect(bytes(of: pages.0) == bytes(of: pages.1))

    var random = SplitMix64(seed: testSeed("readingCommandsReadSessionsOnTheServer"))
    for _ in 0..<100 {
      let point = String(UInt64.random(in: 0...200_000, using: &random))
      try same(["state", "J", "--at", point, "--json"])
    }

    let missing = try rewind("state", "\(server.url)/0123", "--at", "5")
    expectFailure(missing, containing: "\(server.url): session 0123: no such session on the server")
  }

  /// `play --follow` of a session on a server is refused before anything is read: nothing
  /// would tell the player of frames pushed later.
  @Test func followingASessionOnAServerIsRefused() throws {
    expectUsageError(
      try rewind("play", "nats://rewind:s3cret@127.0.0.1:1/bdc2", "--follow"),
      "The value 'nats://127.0.0.1:1/bdc2' is invalid for '<journal>': --follow watches a journal file another process is recording; a session on a server is played as it is when opened (play it again to see what was pushed since)",
      command: "play")
  }

  /// `rewind play` of a session on the server, in a real terminal: the screen, steps and
  /// seeks as for the file.
  @Test(.enabled(if: Tmux.isAvailable, "tmux is not installed"))
  func playsASessionOnTheServer() throws {
    let server = try NatsServer()
    let file = sample("iphone-compact.journal")
    let pushed = try rewind("push", file, "--server", server.url, "--json")
    #expect(pushed.status == 0, "\(pushed.stderr)")
    let report = try #require(try parseJSON(pushed.stdout) as? [[String: Any]]).first
    let id = try #require(report?["session"] as? String)
    let directory = TemporaryDirectory()
    let terminal = try Tmux(
      script: "\"$REWIND\" play '\(server.url)/\(id.prefix(8))' --at 2", in: directory.path,
      columns: 120, rows: 32)
    defer { terminal.kill() }
    var screen = try terminal.waitFor("event 2 of 20")
    #expect(terminal.alternateScreen)
    #expect(screen.contains("rewind play"))
    #expect(screen.contains("State after event 2"))
    terminal.send("Right")
    screen = try terminal.waitUntil("a step") {
      $0.contains("event 3 of 20") && $0.contains("Event 3 changed")
    }
    #expect(screen.contains(" 3   +4.500s  backTapped"))
    #expect(screen.contains("split.selectedItem: \"grinders/swift\" → null"))
    // Seeks: the end, the start, and a click on the bar's last column.
    terminal.send("End")
    try terminal.waitFor("event 20 of 20")
    terminal.send("Home")
    screen = try terminal.waitFor("event 0 of 20")
    #expect(screen.contains("Initial state"))
    terminal.click(column: 118, row: 29)
    try terminal.waitFor("event 20 of 20")
    terminal.send("q")
    try terminal.waitFor("DONE 0")
    #expect(!terminal.alternateScreen)

    // The session on the server shows at a point as the file does.
    let fromFile = try Tmux(
      script: "\"$REWIND\" play '\(file)' --at 7", in: directory.path, columns: 120, rows: 32)
    defer { fromFile.kill() }
    let fromServer = try Tmux(
      script: "\"$REWIND\" play '\(server.url)/\(id)' --at 7", in: directory.path, columns: 120,
      rows: 32)
    defer { fromServer.kill() }
    let fileScreen = try fromFile.waitFor("event 7 of 20")
    let serverScreen = try fromServer.waitFor("event 7 of 20")
    // Below the title line, which names the journal.
    #expect(
      fileScreen.split(separator: "\n").dropFirst()
        == serverScreen.split(separator: "\n").dropFirst())
  }
}

/// A journal an older Rewind wrote from a session URL may name its parent with the URL's
/// password: info never shows it.
@Suite struct OlderParentPathTests {
  @Test func infoMasksAPasswordInAParentPath() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("older.journal")
    let recorder = try JournalRecorder.create(
      at: path, domain: NavigationDomain(),
      session: SessionInfo(
        startTime: 0, device: "test",
        parent: ParentSession(
          path: "/tmp/nats://rewind:s3cret@127.0.0.1:4222/bdc2", sessionID: .random(),
          sequence: 0)))
    _ = try recorder.record(.menuTabTapped(index: 1), at: 1_000)
    try recorder.close()
    for arguments in [["info", path], ["info", path, "--json"]] {
      let result = try rewind(arguments)
      #expect(result.status == 0, "\(result.stderr)")
      #expect(result.stdout.contains("nats://rewind:***@127.0.0.1:4222/bdc2"), "\(result.stdout)")
      #expect(!result.stdout.contains("s3cret"))
    }
  }
}
