import Navigation
import RewindCore

/// Reads arbitrary bytes as the JSON Lines of `rewind import`: the header, the domain it
/// names (with its settings) and the session, then every event up to the first bad line,
/// each played through ``DomainChecks``.
enum JSONLinesHarness {
  static func run(_ bytes: [UInt8]) throws(FuzzFailure) {
    let file = TextFileReader(bytes: bytes, name: "fuzzed.jsonl")
    let reader: JSONLines.Reader
    let domain: NavigationDomain
    do throws(TextFileError) {
      reader = try JSONLines.Reader(file)
      domain = try reader.domain(NavigationDomain.self, default: .sample)
    } catch {
      _ = error.description
      return
    }
    _ = reader.session(default: SessionInfo(startTime: 0, device: "fuzz"))
    var events: [NavigationDomain.Event] = []
    while let timed = try? reader.next(in: domain) { events.append(timed.event) }
    try DomainChecks.play(events, in: domain)
  }
}
