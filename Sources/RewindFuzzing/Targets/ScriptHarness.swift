import Navigation
import RewindCore

/// Reads arbitrary bytes as a scenario script, as `rewind record` does (a text file, then
/// the domain's script parser), and plays its events through ``DomainChecks``.
enum ScriptHarness {
  /// A navigation scenario script (``ScenarioScript``).
  ///
  /// A script that names a catalog file other than `sample` is not parsed: the parser
  /// would read that file, and a fuzzer must not read the files of the machine it runs
  /// on (`/dev/stdin` would wait forever). Catalogs are JSON, read by the ``json``
  /// target's parser, and journal headers carry them to the ``journal`` targets.
  static func runScenario(_ bytes: [UInt8]) throws(FuzzFailure) {
    guard let text = text(bytes), !namesCatalogFile(text) else { return }
    let scenario: Scenario<NavigationDomain>
    do {
      scenario = try ScenarioScript.parse(text, directory: "/nonexistent-rewind-fuzz")
    } catch {
      _ = error.description
      return
    }
    try DomainChecks.play(scenario.events.map(\.event), in: scenario.domain)
  }

  /// The generic ``EventScript`` for the navigation domain: events written as their
  /// JSON is, `settings:` as a journal header's.
  static func runEventScript(_ bytes: [UInt8]) throws(FuzzFailure) {
    guard let text = text(bytes) else { return }
    let scenario: Scenario<NavigationDomain>
    do {
      scenario = try EventScript.parse(text, as: NavigationDomain.self)
    } catch {
      _ = error.description
      return
    }
    try DomainChecks.play(scenario.events.map(\.event), in: scenario.domain)
  }

  /// The text of a script file, read as `rewind record` reads it; nil when it is not
  /// text.
  static func text(_ bytes: [UInt8]) -> String? {
    try? TextFileReader(bytes: bytes, name: "fuzzed.scenario").remainingText()
  }

  /// Whether a line of the script is `catalog FILE` with a file other than `sample`.
  static func namesCatalogFile(_ text: String) -> Bool {
    text.split(whereSeparator: \.isNewline).contains { line in
      let words = line.prefix { $0 != "#" }.split(whereSeparator: \.isWhitespace)
      return words.first?.lowercased() == "catalog" && words.count > 1 && words[1] != "sample"
    }
  }
}
