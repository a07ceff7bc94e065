/// A command of a tool: a type whose properties declare what it accepts (``Argument``,
/// ``Option``, ``Flag``) and whose ``run(_:)`` does the work with the values given.
///
/// ```swift
/// struct Greet: ParsableCommand {
///   static let configuration = CommandConfiguration(
///     name: "greet", abstract: "Greet someone.")
///
///   @Argument(help: "Who to greet.")
///   var name: String
///   @Option(short: "n", help: "How many times.")
///   var times: Int = 1
///   @Flag(help: "Shout.")
///   var loud: Bool
///
///   func run(_ context: StandardStreams) throws {
///     for _ in 0..<times { context.writeOutput(loud ? "HELLO \(name)!\n" : "Hello \(name).\n") }
///   }
/// }
/// ```
///
/// The tool makes a fresh value for every run (``Command/command(discussion:_:)`` takes the function
/// that makes it), finds its declared properties by reflection, in declaration order,
/// reads the command line into them, then calls ``run(_:)``. Parameters several
/// commands share can be declared once in a ``ParsableArguments`` group. Other stored
/// properties (what the tool hands every command, say) are left alone. The help screen, the usage
/// line and every usage error come from the declarations.
///
/// A command reports a command line that parses but makes no sense by throwing
/// ``UsageError`` (exit 64, with the usage line), a failure while working by throwing
/// ``CommandError`` or any other error (exit 1), and a quiet exit with another status by
/// throwing an ``ExitCode``.
///
/// Commands run synchronously, on the caller's thread. The protocol refines
/// `SendableMetatype` so that a tool (which is `Sendable`) can hold the way to make and run
/// each of its commands; the command values themselves need not be `Sendable`.
public protocol ParsableCommand: SendableMetatype {
  /// What ``run(_:)`` is given besides the command line: the tool's streams and whatever
  /// else its commands share. ``CommandLineTool/run(arguments:context:)`` takes it.
  associatedtype Context

  /// The command's name and help.
  static var configuration: CommandConfiguration { get }

  /// Does the command's work; the declared properties hold the values given.
  /// - Parameter context: What the tool was run with.
  /// - Throws: ``UsageError``, ``ExitCode``, ``CommandError`` or any error, reported as
  ///   described above.
  func run(_ context: Context) throws
}

/// The name and help of a ``ParsableCommand``.
public struct CommandConfiguration: Sendable {
  /// The word that selects the command (`state`).
  public var name: String
  /// The one-line summary shown in the tool's list of subcommands and as `OVERVIEW:`.
  public var abstract: String
  /// Longer help shown under the overview.
  public var discussion: String

  /// A command's name and help.
  /// - Parameters:
  ///   - name: The word that selects the command.
  ///   - abstract: The one-line summary.
  ///   - discussion: Longer help shown under the overview; lines are wrapped at 80
  ///     columns, and line breaks in it are kept.
  public init(name: String, abstract: String, discussion: String = "") {
    self.name = name
    self.abstract = abstract
    self.discussion = discussion
  }
}

/// Parameters that several commands share, declared once: a type whose properties are
/// ``Argument``, ``Option`` and ``Flag`` declarations (each with a default where the
/// command line may leave it out), held by each command as one ordinary stored property.
///
/// ```swift
/// struct Connection: ParsableArguments {
///   @Option(help: "The user name.") var user: String?
///   @Option(valueName: "ms", help: "How long a request may take.") var timeout = 5000
/// }
///
/// struct Pull: ParsableCommand {
///   @Argument(help: "What to pull.") var session: String
///   var connection = Connection()
///   @Flag(help: "Print JSON.") var json: Bool
///   …
/// }
/// ```
///
/// The group's parameters take the group's place among the command's, in their own
/// declaration order (`pull <session> [--user <user>] [--timeout <ms>] [--json]`), are
/// named after the group's properties, and read as `connection.user`. A group may hold
/// groups.
public protocol ParsableArguments {}

/// The parameters a command value declares, found among its stored properties, in
/// declaration order (a ``ParsableArguments`` group's in its place), and named after them.
struct DeclaredParameters {
  let declarations: [any DeclaredParameter]

  /// - Complexity: O(*n*) in the number of stored properties, groups' included.
  init<Value>(of command: Value) {
    declarations = Self.declarations(of: command)
  }

  /// The declarations among a struct's stored properties, read by their offsets
  /// (`storedProperties(of:)`), or a class's, read through `Mirror`.
  static func declarations<Value>(of value: Value) -> [any DeclaredParameter] {
    if let properties = storedProperties(of: value) {
      return declarations(in: properties)
    }
    return Mirror(reflecting: value).children.flatMap {
      declarations(in: $0.value, label: $0.label ?? "")
    }
  }

  private static func declarations(in properties: [(label: String, value: Any)])
    -> [any DeclaredParameter]
  {
    properties.flatMap { declarations(in: $0.value, label: $0.label) }
  }

  /// The declaration a property holds, named after it; a group's declarations.
  ///
  /// Each cast of a type not cast before to a protocol looks through every conformance
  /// the binary holds (the whole standard library's too, in a binary that links it
  /// statically): the declarations are tried first, as most properties are, and only the
  /// rest is tried as a group.
  private static func declarations(in value: Any, label: String) -> [any DeclaredParameter] {
    if let declaration = value as? any ParameterDeclaration {
      declaration.declared.adoptName(fromProperty: label)
      return [declaration.declared]
    }
    guard let group = value as? any ParsableArguments else { return [] }
    if let properties = storedProperties(ofGroup: group) {
      return declarations(in: properties)
    }
    return Mirror(reflecting: group).children.flatMap {
      declarations(in: $0.value, label: $0.label ?? "")
    }
  }

  /// A group's stored properties, read by their offsets as a command's are
  /// (`storedProperties(of:)`); nil for a group that is not a struct. The group is opened
  /// to its own type first: as the existential `any ParsableArguments` it is no struct,
  /// and would be read through `Mirror`.
  static func storedProperties(ofGroup group: any ParsableArguments) -> [(
    label: String, value: Any
  )]? {
    func opened<Group: ParsableArguments>(_ group: Group) -> [(label: String, value: Any)]? {
      storedProperties(of: group)
    }
    return opened(group)
  }

  var parameters: [Parameter] { declarations.map(\.parameter) }

  /// Reads each declared property's value from the parsed command line.
  /// - Throws: ``UsageError`` for the first value, in declaration order, that is invalid.
  func fill(from parsed: ParsedArguments) throws(UsageError) {
    for (declaration, occurrences) in zip(declarations, parsed.occurrences) {
      try declaration.fill(occurrences)
    }
  }
}
