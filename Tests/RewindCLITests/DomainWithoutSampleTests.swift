import RewindCLI
import RewindCore
import TestSupport
import Testing

/// A domain with a setting, as an app writes one: a default value in Swift, which its
/// settings' JSON must still give (a `Codable` property the JSON lacks is missing).
struct Till: RecordableDomain, Codable {
  enum Event: Codable, Equatable, Sendable { case rang(cents: Int) }

  static let identifier = "till"
  static let schemaVersion: UInt32 = 1
  var currency: String = "EUR"

  var initialState: Int { 0 }

  func reduce(_ state: inout Int, _ event: Event) -> Outcome<DomainRejection> {
    guard case .rang(let cents) = event, cents > 0 else { return .rejected("nothing to ring") }
    state += cents
    return .applied
  }
}

/// A domain with no sample (it cannot be built from `{}`) where a command needs one: the
/// command says so and what to give, and stops with status 1 (it trapped, status 132).
@Suite("A domain without a sample")
struct DomainWithoutSampleTests {
  let tool = RewindTool.cli(domains: [Till.self])
  let directory = TemporaryDirectory()

  func rewind(_ arguments: String...) -> (status: Int32, output: String) {
    runInProcess(tool, arguments, shortening: directory)
  }

  @Test func recordSaysTheScriptNeedsItsSettings() {
    let script = directory.file("till.txt")
    write(Array("+1s rang cents=100\n".utf8), to: script)
    let refused = rewind("record", script, "-o", directory.file("till.journal"))
    #expect(refused.status == 1)
    #expect(
      refused.output
        == #"Error: till.txt:1:1: the script has no `settings:` line, and the 'till' domain cannot be built from empty settings ({}): missing "currency"; give it a `static var sample: Till { … }` that builds it"#
        + "\n")
    write(Array("settings: {\"currency\":\"EUR\"}\n+1s rang cents=100\n".utf8), to: script)
    let recorded = rewind("record", script, "-o", directory.file("till.journal"))
    #expect(recorded.status == 0, "\(recorded.output)")
  }

  @Test func importSaysTheHeaderNeedsItsSettings() {
    let lines = directory.file("till.jsonl")
    write(
      Array(
        """
        {"header":{"domain":"till","schemaVersion":1}}
        {"seq":1,"time_us":0,"event":"rang","cents":5}

        """.utf8), to: lines)
    let refused = rewind("import", lines, "-o", directory.file("till.journal"))
    #expect(refused.status == 1)
    #expect(
      refused.output
        == #"Error: till.jsonl:1: the header gives no settings, and the 'till' domain cannot be built from empty settings ({}): missing "currency"; give it a `static var sample: Till { … }` that builds it, or the file a header with its settings ({"header":{…,"settings":{…}}}); nothing was written"#
        + "\n")
  }
}
