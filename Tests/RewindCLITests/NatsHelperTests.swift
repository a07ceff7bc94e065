import Testing

@testable import RewindCLI

/// Which command lines a statically linked `rewind` hands to `rewind-nats` before their
/// command runs (push, pull and sessions hand over as they connect).
struct NatsHelperTests {
  @Test func commandLinesThatNameAServer() {
    for arguments in [
      ["check", "a.journal", "nats://127.0.0.1:4222/bdc215f2"],
      ["state", "tls://u:p@host:4222/bdc215f2", "--at", "end"],
      ["diff", "a.journal", "--against=nats://host:4222/bdc215f2"],
      ["check", "--", "nats://host:4222/bdc215f2"],
    ] {
      #expect(NatsHelper.namesServer(arguments), "\(arguments)")
    }
  }

  @Test func commandLinesThatDoNot() {
    for arguments in [
      [], ["check", "a.journal"], ["info", "push"], ["log", "sessions.journal"],
      ["find", "a.journal", "--where", "split.selectedItem == nats"],
      ["push", "--help"], ["sessions", "-h"], ["--version"], ["help", "push"],
      ["check", "natsnats://x/y"], ["find", "a.journal", "--where=split.style == 1"],
      ["push", "a.journal", "--server", "nats://127.0.0.1:4222"],
      ["pull", "bdc2", "--server", "localhost:4222", "-o", "s.journal"],
      ["sessions", "--server", "tls://nats.example:4222"], ["sessions"],
    ] {
      #expect(!NatsHelper.namesServer(arguments), "\(arguments)")
    }
    for command in ["push", "pull", "sessions"] { #expect(NatsHelper.connects(command)) }
    for command in ["check", "state", "help"] { #expect(!NatsHelper.connects(command)) }
  }

  @Test func theHelperIsTheProgramsPathWithNats() {
    #expect(NatsHelper.path(of: "/usr/local/bin/rewind") == "/usr/local/bin/rewind-nats")
    #expect(NatsHelper.path(of: "/opt/tools/mytool") == "/opt/tools/mytool-nats")
  }

  /// The secrets of a command line handed to `rewind-nats` are hidden from its arguments,
  /// which any user of the machine reads (`ps`), and given back to it whole: a password
  /// given apart or in a URL (a list's, a session's, one without a scheme), and a user
  /// without a password, which libnats sends as a token.
  @Test func secretsAreHiddenFromTheHelpersArguments() {
    let cases: [([String], [String])] = [
      (
        ["push", "a.journal", "--server", "nats://ci:TopSecret@127.0.0.1:4222"],
        ["push", "a.journal", "--server", "nats://ci:***@127.0.0.1:4222"]
      ),
      (
        ["sessions", "--server", "h:1", "--user", "ci", "--password", "TopSecret"],
        ["sessions", "--server", "h:1", "--user", "ci", "--password", "***"]
      ),
      (
        ["pull", "bdc2", "--password=TopSecret", "--server=ci:TopSecret@h:1,tls://tok@h:2"],
        ["pull", "bdc2", "--password=***", "--server=ci:***@h:1,tls://***@h:2"]
      ),
      (
        ["check", "nats://ci:Top/Secret@h:1/bdc2", "--", "nats://TopSecret@h:1/bdc2"],
        ["check", "***", "--", "***"]
      ),
      (
        ["diff", "a.journal", "--against=tls://ci:TopSecret@h:1/bdc2@end"],
        ["diff", "a.journal", "--against=***"]
      ),
      // A cluster's nodes, the later ones without their scheme, each with the credentials
      // (a session's URL takes them so), and a password holding a space: the second
      // address's password and the space's were shown.
      (
        [
          "check", "nats://ci:TopSecret@h1:1,ci:TopSecret@h2:2/bdc2",
          "nats://h1:1,TopSecret@h2:2/bdc2",
        ],
        ["check", "***", "***"]
      ),
      (
        ["state", "nats://ci:Top Secret@h:1/bdc2", "--at", "3"],
        ["state", "***", "--at", "3"]
      ),
      (["info", "nats://h:1/bdc2", "a.journal"], ["info", "nats://h:1/bdc2", "a.journal"]),
      (
        ["check", "a.journal", "--", "--password", "b.journal"],
        ["check", "a.journal", "--", "--password", "b.journal"]
      ),
    ]
    for (arguments, expected) in cases {
      let shown = NatsHelper.hidingSecrets(arguments)
      #expect(shown == expected, "\(arguments)")
      #expect(!shown.joined(separator: " ").contains("TopSecret"), "\(shown)")
      let value = NatsHelper.hiddenWords(arguments, shown: shown, kept: [])
      #expect((value == nil) == (shown == arguments))
      #expect(!(value ?? "").contains("TopSecret"))
      #expect(NatsHelper.restoringHiddenWords(shown, from: value) == arguments, "\(arguments)")
    }
  }

  /// The variable gives words back only where they are hidden as `rewind` hides them: one
  /// left in the environment from elsewhere, or not such a value, changes nothing.
  @Test func hiddenWordsComeBackOnlyWhereTheyWereHidden() {
    let arguments = ["sessions", "--server", "h:1", "--user", "ci", "--password", "pw"]
    let shown = NatsHelper.hidingSecrets(arguments)
    let value = NatsHelper.hiddenWords(arguments, shown: shown, kept: [])
    #expect(value == "6:7077")
    #expect(NatsHelper.restoringHiddenWords(shown, from: value) == arguments)
    // Another command line, whose word 6 is not hidden; a word hidden otherwise.
    let other = ["sessions", "--server", "h:1", "--user", "ci", "--name", "***"]
    #expect(NatsHelper.restoringHiddenWords(other, from: value) == other)
    #expect(NatsHelper.restoringHiddenWords(shown, from: "6:7") == shown)
    #expect(NatsHelper.restoringHiddenWords(shown, from: "9:7077") == shown)
    #expect(NatsHelper.restoringHiddenWords(shown, from: "x") == shown)
    #expect(NatsHelper.restoringHiddenWords(shown, from: nil) == shown)
    // A word that is not UTF-8, kept as it is, is not handed over.
    #expect(NatsHelper.hiddenWords(arguments, shown: shown, kept: [6]) == nil)
  }
}
