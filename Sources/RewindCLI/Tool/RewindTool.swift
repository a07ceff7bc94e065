public import RewindCore

/// The `rewind` tool for a set of domains: the commands that record, replay, inspect,
/// test and repair sessions.
///
/// `Tools/rewind/main.swift` is one line, `main(domains: [NavigationDomain.self])`; an app
/// with domains of its own links them in the same way.
public enum RewindTool {
  /// The tool's version, printed by `rewind --version`.
  public static let version = "0.1.0"

  /// The command-line tool for `domains` (the first is the default for new sessions).
  public static func cli(domains: [any RecordableDomain.Type]) -> CLI {
    precondition(!domains.isEmpty, "the tool needs at least one domain")
    let registry = DomainRegistry(domains: domains)
    return CLI(
      name: "rewind", version: version,
      abstract: "Record, replay, inspect and test event-sourced UI sessions.",
      discussion: """
        A journal (.journal) holds one recorded session: every event, compressed, with
        snapshots of the state. Points in a session are written \(Point.syntax).
        """,
      commands: [
        .record(registry), .generate(registry), .importEvents(registry), .export(registry),
        .info(registry), .log(registry), .state(registry), .diff(registry), .blame(registry),
        .find(registry), .check(registry), .verify(registry), .recover(registry),
      ])
  }
}

/// Runs the `rewind` tool as this process with `domains` and exits with its status.
public func main(domains: [any RecordableDomain.Type]) -> Never {
  RewindTool.cli(domains: domains).main()
}
