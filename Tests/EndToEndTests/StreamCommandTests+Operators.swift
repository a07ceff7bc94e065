import Foundation
import RewindJournal
import TestSupport
import Testing

/// What an operator meets running `push`, `pull` and `sessions`: the messages of a server
/// that cannot be reached or a session that cannot be told apart, the counts a push
/// reports, which credentials win, and the exit statuses.
extension StreamCommandTests {
  /// A server whose name does not resolve is said to be one, apart from a server that
  /// refuses or cannot be reached (a name under `.invalid` resolves nowhere, with no
  /// network asked); an address without a port is named with the port used, 4222.
  @Test func aNameThatDoesNotResolveIsSaidSo() throws {
    let start = Date()
    let unresolved = try rewind(
      "sessions", "--server", "nats://no-such-host.invalid:4222", "--timeout", "2000")
    expectFailure(
      unresolved,
      containing: "nats://no-such-host.invalid:4222: cannot resolve no-such-host.invalid")
    #expect(!unresolved.stderr.contains("refused"), "\(unresolved.stderr)")
    // Without a port: the one used is named, in --server and in a session's URL.
    let noPort = try rewind(
      "push", sample("day-menu.journal"), "--server", "nats://no-such-host.invalid", "--timeout",
      "2000")
    expectFailure(
      noPort, containing: "nats://no-such-host.invalid:4222: cannot resolve no-such-host.invalid")
    let session = try rewind("info", "nats://no-such-host.invalid/bdc215f2")
    expectFailure(
      session,
      containing:
        "nats://no-such-host.invalid:4222: session bdc215f2: cannot resolve no-such-host.invalid")
    // A server that refuses is said as before; in a list, each reason.
    let absent = "nats://127.0.0.1:\(NatsServer.freePort())"
    let refused = try rewind("sessions", "--server", absent, "--timeout", "2000")
    expectFailure(
      refused, containing: "\(absent): no server answers (connection refused or unreachable)")
    #expect(!refused.stderr.contains("resolve"), "\(refused.stderr)")
    let both = try rewind(
      "sessions", "--server", "\(absent),nats://no-such-host.invalid", "--timeout", "2000")
    expectFailure(
      both,
      containing:
        "\(absent),nats://no-such-host.invalid:4222: no server answers (connection refused or unreachable; cannot resolve no-such-host.invalid"
    )
    #expect(Date().timeIntervalSince(start) < 40)
  }

  /// A beginning that more than one session's id starts with: the sessions are named, so
  /// that the user sees how much more of the id to give.
  @Test func aBeginningSeveralSessionsShareNamesThem() throws {
    let server = try NatsServer()
    let paths = StreamCommandTests.samples.map { sample($0 + ".journal") }
    let pushed = try rewind(["push"] + paths + ["--server", server.url, "--json"])
    #expect(pushed.status == 0, "\(pushed.stderr)")
    let ids = try #require(try parseJSON(pushed.stdout) as? [[String: Any]]).compactMap {
      $0["session"] as? String
    }
    let shared = ids.filter { $0.hasPrefix("b") }.sorted()
    try #require(shared.count >= 2, "\(ids)")
    let named =
      "more than one session starts with b (\(shared.joined(separator: ", "))); give more of the id"
    let pulled = try rewind(
      "pull", "b", "--server", server.url, "-o", server.directory.file("b.journal"))
    expectFailure(pulled, containing: "\(server.url): session b: \(named)")
    let read = try rewind("info", "\(server.url)/b")
    expectFailure(read, containing: named)
  }

  /// Pushes of one journal at the same time store each frame once, and each says so: a
  /// frame another push stored first, which the server took for a duplicate, is one
  /// already there, not one sent (each push said it sent nearly every frame).
  @Test func concurrentPushesCountEachFrameOnce() throws {
    let server = try NatsServer()
    let directory = TemporaryDirectory()
    let path = try manyFramesJournal(in: directory)
    let frames = try JournalReader(path: path).frames.count
    let pushes = try (0..<3).map { _ in
      let process = Process()
      process.executableURL = URL(fileURLWithPath: rewindBinary)
      process.arguments = ["push", path, "--server", server.url, "--json"]
      let output = Pipe()
      process.standardOutput = output
      process.standardError = FileHandle.nullDevice
      try process.run()
      return (process, output)
    }
    var sent = 0
    for (process, output) in pushes {
      let text = String(
        decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      process.waitUntilExit()
      #expect(process.terminationStatus == 0, "\(text)")
      let report = try #require(try parseJSON(text) as? [[String: Any]]).first
      let (found, pushed) = (report?["framesFound"] as? Int, report?["framesSent"] as? Int)
      #expect((found ?? -1) + (pushed ?? -1) == frames, "\(text)")
      sent += pushed ?? 0
    }
    #expect(sent == frames)
    let listed = try rewind("sessions", "--server", server.url, "--json")
    let sessions = try #require(try parseJSON(listed.stdout) as? [[String: Any]])
    #expect(sessions.first?["frames"] as? Int == frames)
  }

  /// Credentials given on the command line (`--user` and `--password`, or in the URL)
  /// win over the environment's `NATS_CREDS`, as an option wins over a variable; the
  /// variable is taken when the command line gives none.
  @Test func commandLineCredentialsWinOverNATS_CREDS() throws {
    let server = try NatsServer(user: "rewind", password: "secret")
    let directory = TemporaryDirectory()
    let junk = directory.file("junk.creds")
    write(Array("hello\n".utf8), to: junk)
    let exported = ["NATS_CREDS": junk]
    let pushed = try rewind(
      "push", sample("day-menu.journal"), "--server", server.url, "--user", "rewind",
      "--password", "secret", environment: exported)
    #expect(pushed.status == 0, "\(pushed.stderr)")
    let inURL = "nats://rewind:secret@127.0.0.1:\(server.port)"
    let listed = try rewind("sessions", "--server", inURL, environment: exported)
    #expect(listed.status == 0, "\(listed.stderr)")
    let read = try rewind("info", "\(inURL)/bdc215f2", environment: exported)
    #expect(read.status == 0, "\(read.stderr)")
    // Not taken, the file the variable names is not looked at.
    let missing = try rewind(
      "sessions", "--server", inURL, environment: ["NATS_CREDS": "/nonexistent/x.creds"])
    #expect(missing.status == 0, "\(missing.stderr)")
    // No credentials on the command line: the variable's file is used, and named.
    let taken = try rewind("sessions", "--server", server.url, environment: exported)
    expectFailure(taken, containing: "\(junk)' (the credentials file NATS_CREDS names)")
    let help = try rewind("push", "--help").stdout
    let flat = help.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    #expect(flat.contains("--user and --password (or a user in the URL) win over NATS_CREDS"))
  }

  /// A password given without a word of the command line: `NATS_PASSWORD`, for the user
  /// `--user` or a session's URL gives, and `--password-file`, whose one line it is (a
  /// line ending after it or not). The command line wins: `--password`, `--password-file`
  /// or a password in the URL over the variable; the two options together are a usage
  /// error; and a user given still wins over `NATS_CREDS`.
  @Test func aPasswordFromTheEnvironmentOrAFile() throws {
    let server = try NatsServer(user: "ci", password: "s3cret")
    let directory = TemporaryDirectory()
    let journal = sample("day-menu.journal")
    let file = directory.file("password")
    write(Array("s3cret\n".utf8), to: file)
    let wrongFile = directory.file("wrong")
    write(Array("wrong".utf8), to: wrongFile)
    let junk = directory.file("junk.creds")
    write(Array("hello\n".utf8), to: junk)
    let exported = ["NATS_PASSWORD": "s3cret", "NATS_CREDS": junk]
    let user = ["--server", server.url, "--user", "ci"]
    let pushed = try rewind(["push", journal] + user, environment: exported)
    #expect(pushed.status == 0, "\(pushed.stderr)")
    let fromFile = try rewind(["sessions"] + user + ["--password-file", file])
    #expect(fromFile.status == 0 && fromFile.stdout.contains("bdc215f2"), "\(fromFile.stderr)")
    let session = "nats://ci@127.0.0.1:\(server.port)/bdc215f2"
    let read = try rewind("info", session, environment: exported)
    #expect(read.status == 0, "\(read.stderr)")
    // The command line wins over the variable.
    let given = try rewind(["sessions"] + user + ["--password", "wrong"], environment: exported)
    expectFailure(given, containing: "the server refused the credentials (authorization violation)")
    #expect(!given.stderr.contains("NATS_PASSWORD"), "\(given.stderr)")
    let filed = try rewind(
      ["sessions"] + user + ["--password-file", wrongFile], environment: exported)
    expectFailure(
      filed,
      containing:
        "the server refused the credentials (authorization violation) (the password \(wrongFile) holds)"
    )
    let inURL = try rewind(
      "sessions", "--server", "nats://ci:wrong@127.0.0.1:\(server.port)", environment: exported)
    expectFailure(inURL, containing: "the server refused the credentials")
    // The variable's password refused is said to be its.
    let wrong = try rewind(["sessions"] + user, environment: ["NATS_PASSWORD": "wrong"])
    expectFailure(
      wrong,
      containing:
        "the server refused the credentials (authorization violation) (the password NATS_PASSWORD holds)"
    )
    let both = try rewind(["sessions"] + user + ["--password", "s3cret", "--password-file", file])
    #expect(both.status == 64, "\(both.stderr)")
    #expect(
      both.stderr.hasPrefix(
        "Error: --password and --password-file both give the password; give one\n"))
    let alone = try rewind("sessions", "--server", server.url, "--password-file", file)
    #expect(alone.stderr.hasPrefix("Error: --password-file needs --user\n"))
    // A file that holds no password, or is none, is said before connecting (exit 1).
    let empty = directory.file("empty")
    write(Array("\n".utf8), to: empty)
    let noPassword = try rewind(["sessions"] + user + ["--password-file", empty])
    expectFailure(
      noPassword, containing: "cannot use the password file \(empty): it holds no password")
    let missing = try rewind(["sessions"] + user + ["--password-file", directory.file("none")])
    #expect(
      missing.stderr
        == "Error: --password-file \(directory.file("none")): cannot use the password file: no such file\n"
    )
    #expect(missing.status == 1)
    let help = try rewind("push", "--help").stdout
    let flat = help.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    #expect(flat.contains("--password-file or a password in the URL over NATS_PASSWORD"), "\(help)")
  }

  /// A credentials or authorities' file that cannot be used (missing, a directory, empty)
  /// fails as any file that cannot be read does (exit 1), whether an option or a variable
  /// names it, as `rewind help` says: it was a usage error (64) where the help said 1.
  @Test func aFileTheConnectionCannotUseFailsAsAFileDoes() throws {
    let absent = "nats://127.0.0.1:\(NatsServer.freePort())"
    let directory = TemporaryDirectory()
    let missing = directory.file("missing.creds")
    for (option, variable, what) in [
      ("--creds", "NATS_CREDS", "the credentials file"),
      ("--tls-ca", "NATS_CA", "the certificate authorities' file"),
    ] {
      let given = try rewind("sessions", "--server", absent, option, missing)
      #expect(given.stderr == "Error: \(option) \(missing): cannot use \(what): no such file\n")
      #expect(given.status == 1)
      let named = try rewind("sessions", "--server", absent, environment: [variable: missing])
      #expect(
        named.stderr
          == "Error: cannot use \(what) \(missing), which \(variable) names: no such file\n")
      #expect(named.status == 1)
      let read = try rewind("info", "\(absent)/bdc215f2", environment: [variable: directory.path])
      #expect(
        read.stderr
          == "Error: cannot use \(what) \(directory.path), which \(variable) names: it is a directory, not a file\n"
      )
      #expect(read.status == 1)
    }
    let root = try rewind("help").stdout
    let flat = root.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    #expect(
      flat.contains("a file missing, unreadable or damaged (a journal, or a credentials file"),
      "\(root)")
  }

  /// `push --help` says that --timeout must cover one frame's upload: each try sends the
  /// whole frame again, so a shorter timeout on a slow link never gets one through.
  @Test func pushHelpSaysTheTimeoutMustCoverAFramesUpload() throws {
    let help = try rewind("push", "--help").stdout
    let flat = help.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    #expect(flat.contains("--timeout must cover the upload of one frame"), "\(help)")
  }
}
