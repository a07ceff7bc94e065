import Foundation
import TestSupport
import Testing

/// The NATS commands and session URLs when the server, the URL or the connection fails:
/// each message names what went wrong and where, and never shows a password.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct FleetAndTerminalFailureTests {
  /// A password may hold a slash (a base64 one often does): the URL is read (the session
  /// on that server), and no message shows the password, neither an error's nor `check`'s
  /// FAIL line.
  @Test func aPasswordWithASlashIsNeverShown() throws {
    let url = "nats://ops:hun/ter2@127.0.0.1:\(NatsServer.freePort())/abc"
    for command in ["info", "export", "state"] {
      let result = try rewind(command, url)
      #expect(result.status == 1, "\(command): \(result.stderr)")
      #expect(
        result.stderr.hasPrefix("Error: nats://127.0.0.1:")
          && result.stderr.contains(": no server answers"), "\(command): \(result.stderr)")
      #expect(!result.stderr.contains("ter2"), "\(command): \(result.stderr)")
    }
    let checked = try rewind("check", url)
    #expect(checked.status == 1)
    #expect(checked.stdout.hasPrefix("FAIL nats://127.0.0.1:"), "\(checked.stdout)")
    #expect(!checked.stdout.contains("ter2") && !checked.stderr.contains("ter2"))
  }

  /// A journal that cannot be pushed (damaged, or with events lost) is said to be so
  /// before any server is connected to: with none answering, the file's problem, not "no
  /// server answers" (it was checked after connecting).
  @Test func aDamagedJournalIsSaidBeforeTheServer() throws {
    let directory = TemporaryDirectory()
    let journal = directory.file("damaged.journal")
    var bytes = try Data(contentsOf: URL(fileURLWithPath: sample("two-column.journal")))
    bytes[30] ^= 0x01
    try bytes.write(to: URL(fileURLWithPath: journal))
    let server = "nats://127.0.0.1:\(NatsServer.freePort())"
    let pushed = try rewind("push", journal, "--server", server)
    #expect(pushed.status == 1)
    #expect(
      pushed.stderr
        == "Error: \(journal): the journal is damaged; `rewind recover` it first, then push\n",
      "\(pushed.stderr)")
  }

  /// The server's failure to push one journal names the journal, as it does among several
  /// (it named the server only), and never the password.
  @Test func aServersFailureNamesTheJournalPushed() throws {
    let journal = sample("two-column.journal")
    let port = NatsServer.freePort()
    let pushed = try rewind(
      "push", journal, "--server", "nats://ops:s3cret@127.0.0.1:\(port)", "--timeout", "500")
    #expect(pushed.status == 1)
    #expect(
      pushed.stderr.hasPrefix("Error: \(journal): nats://ops:***@127.0.0.1:\(port): "),
      "\(pushed.stderr)")
    #expect(!pushed.stderr.contains("s3cret") && !pushed.stderr.contains(" not pushed"))
  }

  /// libnats writes the user, the password and the connection's name into its CONNECT
  /// message unescaped: a double quote or a control character made the server drop the
  /// connection ("cannot connect: Expected 'PONG', got ''"), and a backslash changed the
  /// password, which the server then refused. Each is refused before connecting, saying
  /// which, never showing the password.
  @Test func credentialsTheClientCannotSendAreRefused() throws {
    let server = "nats://127.0.0.1:\(NatsServer.freePort())"
    let cases: [([String], String)] = [
      (["--user", "ops", "--password", "hu\"nt"], "the password holds a double quote"),
      (["--user", "ops", "--password", "a\\b"], "the password holds a backslash"),
      (["--user", "o\tps"], "the user holds a control character (U+0009)"),
      (["--name", "a\nb"], "the connection's name holds a control character (U+000A)"),
    ]
    for (options, problem) in cases {
      let result = try rewind(["sessions", "--server", server] + options)
      expectUsageError(
        result,
        "\(problem), which the NATS client cannot send (it writes it into its CONNECT message unescaped)",
        command: "sessions")
      #expect(!result.stderr.contains("hu\"nt") && !result.stderr.contains("a\\b"))
    }
    let port = NatsServer.freePort()
    // In a session's URL too: a usage error, as in --server.
    let read = try rewind("info", "nats://ops:pa\\ss@127.0.0.1:\(port)/abc")
    expectUsageError(
      read,
      "nats://127.0.0.1:\(port): the password holds a backslash, which the NATS client cannot send (it writes it into its CONNECT message unescaped)",
      command: "info")
    #expect(!read.stderr.contains("pa\\ss"))
    // A bad port or no host in a session's URL, as in --server.
    expectUsageError(
      try rewind("info", "nats://127.0.0.1:70000/bdc2"),
      "nats://127.0.0.1:70000: the port 70000 is not a number from 1 to 65535", command: "info")
    expectUsageError(
      try rewind("log", "nats://:14222/bdc2"), "nats://:14222: no host (nats://HOST:PORT)",
      command: "log")
  }

  /// A key held down whose handling is slow (skipping an event replays the rest of the
  /// session) queued its repeats ahead of Ctrl-C, which waited for every one (about 10 s
  /// for 30 presses): Ctrl-C typed meanwhile ends the player after the key being handled,
  /// the terminal restored.
  @Test(.enabled(if: Tmux.isAvailable, "tmux is not installed"))
  func ctrlCIsNotQueuedBehindSlowKeys() throws {
    let directory = TemporaryDirectory()
    let terminal = try Tmux(
      script: "\"$REWIND\" play '\(sample("generated-200k.journal"))' --at 1000",
      in: directory.path, columns: 120, rows: 32)
    defer { terminal.kill() }
    try terminal.waitFor("event 1,000 of 200,000")
    terminal.send("x")
    try terminal.waitFor("Skipping event 1,000")
    for _ in 0..<30 { terminal.send("x") }
    terminal.send("C-c")
    try terminal.waitFor("DONE 130", timeout: 5)
    #expect(!terminal.alternateScreen)
  }
}
