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
}
