import Foundation
import TestSupport
import Testing

@Suite("Standard output that refuses what is written is an error")
struct StandardOutputTests {
  /// Runs `rewind` with its standard output redirected by the shell (`> /dev/full`,
  /// `>&-`), standard error captured.
  private func rewind(redirecting redirection: String, _ arguments: [String]) throws
    -> ProcessResult
  {
    try run(
      "/bin/sh", ["-c", "exec \"$0\" \"$@\" \(redirection)", rewindBinary] + arguments,
      environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"])
  }

  @Test("a full disk or a closed standard output fails the command, naming the error")
  func refused() throws {
    let journal = sample("generated-200k.journal")
    for arguments in [
      ["export", journal], ["log", journal, "--to", "2000"], ["info", journal],
      ["state", journal, "--json"], ["help", "conditions"],
    ] {
      let full = try rewind(redirecting: "> /dev/full", arguments)
      #expect(!full.signalled)
      #expect(full.status == 1, "\(arguments): \(full.stderr)")
      #expect(
        full.stderr.hasPrefix("Error: cannot write to standard output: No space left on device"),
        "\(arguments): \(full.stderr)")
      let closed = try rewind(redirecting: ">&-", arguments)
      #expect(closed.status == 1, "\(arguments): \(closed.stderr)")
      #expect(
        closed.stderr.hasPrefix("Error: cannot write to standard output: Bad file descriptor"),
        "\(arguments): \(closed.stderr)")
    }
  }

  @Test("a reader that stops reading is not an error")
  func closedPipe() throws {
    // `rewind log | head -1` with SIGPIPE ignored, so that rewind's writes fail (EPIPE)
    // once head has exited: rewind's own status is PIPESTATUS[0].
    let script = "trap '' PIPE; \"$0\" log \"$1\" | head -1 >/dev/null; exit ${PIPESTATUS[0]}"
    let result = try run(
      "/bin/bash", ["-c", script, rewindBinary, sample("generated-200k.journal")],
      environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"])
    #expect(result.status == 0)
    #expect(result.stderr.isEmpty, "\(result.stderr)")
  }
}
