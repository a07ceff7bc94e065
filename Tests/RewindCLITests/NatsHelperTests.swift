import Testing

@testable import RewindCLI

/// Which command lines a statically linked `rewind` hands to `rewind-nats`.
struct NatsHelperTests {
  @Test func commandLinesThatMayTalkToAServer() {
    for arguments in [
      ["push", "a.journal", "--server", "nats://127.0.0.1:4222"],
      ["pull", "bdc2", "--server", "localhost:4222", "-o", "s.journal"],
      ["sessions", "--server", "tls://nats.example:4222"],
      ["sessions"],
      ["check", "a.journal", "nats://127.0.0.1:4222/bdc215f2"],
      ["state", "tls://u:p@host:4222/bdc215f2", "--at", "end"],
      ["diff", "a.journal", "--against=nats://host:4222/bdc215f2"],
      ["check", "--", "nats://host:4222/bdc215f2"],
    ] {
      #expect(NatsHelper.mayConnect(arguments), "\(arguments)")
    }
  }

  @Test func commandLinesThatDoNot() {
    for arguments in [
      [], ["check", "a.journal"], ["info", "push"], ["log", "sessions.journal"],
      ["find", "a.journal", "--where", "split.selectedItem == nats"],
      ["push", "--help"], ["sessions", "-h"], ["--version"], ["help", "push"],
      ["check", "natsnats://x/y"], ["find", "a.journal", "--where=split.style == 1"],
    ] {
      #expect(!NatsHelper.mayConnect(arguments), "\(arguments)")
    }
  }

  @Test func theHelperIsTheProgramsPathWithNats() {
    #expect(NatsHelper.path(of: "/usr/local/bin/rewind") == "/usr/local/bin/rewind-nats")
    #expect(NatsHelper.path(of: "/opt/tools/mytool") == "/opt/tools/mytool-nats")
  }
}
