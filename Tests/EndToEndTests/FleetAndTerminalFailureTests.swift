import Foundation
import TestSupport
import Testing

/// The NATS commands and session URLs when the server, the URL or the connection fails:
/// each message names what went wrong and where, and never shows a password.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct FleetAndTerminalFailureTests {
  /// A password may hold a slash (a base64 one often does): the URL is refused, and no
  /// message shows the password, neither an error's nor `check`'s FAIL line.
  @Test func aPasswordWithASlashIsNeverShown() throws {
    let url = "nats://ops:hun/ter2@127.0.0.1:\(NatsServer.freePort())/abc"
    for command in ["info", "export", "state"] {
      let result = try rewind(command, url)
      #expect(result.status == 64, "\(command): \(result.stderr)")
      #expect(
        result.stderr.hasPrefix("Error: nats://ops:***@127.0.0.1:"), "\(command): \(result.stderr)")
      #expect(!result.stderr.contains("ter2"), "\(command): \(result.stderr)")
    }
    let checked = try rewind("check", url)
    #expect(checked.status == 1)
    #expect(checked.stdout.hasPrefix("FAIL nats://ops:***@127.0.0.1:"), "\(checked.stdout)")
    #expect(!checked.stdout.contains("ter2") && !checked.stderr.contains("ter2"))
  }
}
