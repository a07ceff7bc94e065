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

  /// What to add to the error of more positional words than the command takes, given
  /// all the positional words (`state J 15`: that a point goes after `--at`), or nil
  /// for nothing; the default is nil.
  static func unexpectedArgumentsHint(positionals: [String]) -> String?
}

extension ParsableCommand {
  public static func unexpectedArgumentsHint(positionals: [String]) -> String? { nil }
}

/// The name and help of a ``ParsableCommand``.
public struct CommandConfiguration: Sendable {
  /// The word that selects the command (`state`).
  public var name: String
  /// The one-line summary shown in the tool's list of subcommands and as `OVERVIEW:`.
  public var abstract: String
  /// Longer help shown under the overview.
  public var discussion: String
  /// The exit statuses of this command that the tool's help does not give (its own, or
  /// what a shared one means here), listed under `EXIT STATUS:`.
  public var exitStatuses: [ExitStatusHelp]
  /// What to say of options the command does not have but a user may try, by spelling
  /// (`["--first": "find shows the first match by default; …"]`): the error of an
  /// unknown option given so says it in place of a near miss.
  public var unknownOptionHints: [String: String]

  /// A command's name and help.
  /// - Parameters:
  ///   - name: The word that selects the command.
  ///   - abstract: The one-line summary.
  ///   - discussion: Longer help shown under the overview; lines are wrapped at 80
  ///     columns, and line breaks in it are kept.
  ///   - exitStatuses: The command's own exit statuses, listed under `EXIT STATUS:`.
  ///   - unknownOptionHints: What to say of options the command does not have, by
  ///     spelling (`--first`, `-f`): `Unknown option '--first': <hint>`.
  public init(
    name: String, abstract: String, discussion: String = "", exitStatuses: [ExitStatusHelp] = [],
    unknownOptionHints: [String: String] = [:]
  ) {
    self.name = name
    self.abstract = abstract
    self.discussion = discussion
    self.exitStatuses = exitStatuses
    self.unknownOptionHints = unknownOptionHints
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
///
/// The declarations are not found by casting each property to a declaration: each first
/// cast of a type to a protocol looks through every conformance record of the binary (the
/// whole standard library's too, in a binary that links it statically), a tenth of a
/// short command's start. Each declaration's box says it was made while the command value
/// was (``DeclarationCollector``); the field walk (`storedFields(of:)`) then finds each
/// box's property by the box's address among the command's bytes, and names it. A box it
/// does not find there (one in a group that is a class, or behind an optional) sends the
/// whole value to the casts and `Mirror`, which read those as they always did.
struct DeclaredParameters {
  let declarations: [any DeclaredParameter]

  /// Makes a command value with `make` and reads its declarations.
  /// - Complexity: O(*n*) in the number of stored properties, groups' included, and of
  ///   words of the value.
  static func make<Value>(_ make: () throws -> Value) rethrows -> (
    value: Value, declared: DeclaredParameters
  ) {
    let collector = DeclarationCollector()
    let value = try DeclarationCollector.$current.withValue(collector) { try make() }
    return (value, DeclaredParameters(of: value, made: collector.boxes))
  }

  /// The declarations among `value`'s stored properties, which `boxes` (made with it)
  /// are the boxes of.
  private init<Value>(
    of value: Value, made boxes: [(box: any DeclaredParameter, wrapper: Any.Type)]
  ) {
    // No box made with the value: it has no declarations, or was made before `make` (a
    // value kept and handed out again), whose boxes only the casts find.
    if !boxes.isEmpty, let fields = Self.storedFields(of: Value.self) {
      let found = withUnsafeBytes(of: value) { bytes in
        // Where each box's address is held: a declaration holds nothing but its box.
        var places: [Place] = []
        let addresses = boxes.map { UInt(bitPattern: ObjectIdentifier($0.box)) }
        var offset = 0
        while offset + MemoryLayout<UInt>.size <= bytes.count {
          let word = bytes.loadUnaligned(fromByteOffset: offset, as: UInt.self)
          if let index = addresses.firstIndex(of: word) {
            places.append(
              Place(offset: offset, box: boxes[index].box, wrapper: boxes[index].wrapper))
          }
          offset += MemoryLayout<UInt>.alignment
        }
        var found: [any DeclaredParameter] = []
        Self.collect(in: fields, at: 0, size: bytes.count, places: places, into: &found)
        return found
      }
      // A box made with the value but not found in its bytes may sit in a group that is a
      // class or an optional: read the value as a class's is, through casts and `Mirror`,
      // which find those (and still skip a box the value does not hold at all).
      declarations = found.count < boxes.count ? Self.reflectedDeclarations(of: value) : found
    } else {
      declarations = Self.reflectedDeclarations(of: value)
    }
  }

  /// A box's address found among a command's bytes, and the type of the declaration
  /// that made it.
  private struct Place {
    let offset: Int
    let box: any DeclaredParameter
    let wrapper: Any.Type
  }

  /// Appends the declarations held by `fields` (a struct's, at `base` in the command's
  /// bytes, `size` bytes long), in their order, named after their properties; a struct
  /// property that holds declarations is a group, read in its place.
  private static func collect(
    in fields: [StoredField], at base: Int, size: Int, places: [Place],
    into found: inout [any DeclaredParameter]
  ) {
    for field in fields {
      let start = base + field.offset
      let end = base + (fields.lazy.map(\.offset).filter { $0 > field.offset }.min() ?? size)
      let inside = places.filter { $0.offset >= start && $0.offset < end }
      guard !inside.isEmpty else { continue }
      if let place = inside.first(where: {
        $0.offset == start && ObjectIdentifier($0.wrapper) == ObjectIdentifier(field.type)
      }) {
        place.box.adoptName(fromProperty: field.label)
        found.append(place.box)
      } else if let inner = storedFields(of: field.type) {
        collect(in: inner, at: start, size: end - start, places: inside, into: &found)
      }
    }
  }

  /// The declarations of a value that is not a struct (a class), read through `Mirror`
  /// and casts.
  private static func reflectedDeclarations<Value>(of value: Value) -> [any DeclaredParameter] {
    Mirror(reflecting: value).children.flatMap {
      reflectedDeclarations(in: $0.value, label: $0.label ?? "")
    }
  }

  /// The declaration a property holds, named after it; a group's declarations.
  private static func reflectedDeclarations(in value: Any, label: String)
    -> [any DeclaredParameter]
  {
    if let declaration = value as? any ParameterDeclaration {
      declaration.declared.adoptName(fromProperty: label)
      return [declaration.declared]
    }
    guard let group = value as? any ParsableArguments else { return [] }
    return reflectedDeclarations(of: group)
  }

  /// The parameters to read a command line against.
  var parameters: [Parameter] { declarations.map(\.parameter) }

  /// The parameters as help shows them, with the texts of their defaults.
  var documentedParameters: [Parameter] { declarations.map(\.documentedParameter) }

  /// Reads each declared property's value from the parsed command line.
  /// - Throws: ``UsageError`` for the first value, in declaration order, that is invalid.
  func fill(from parsed: ParsedArguments) throws(UsageError) {
    for (declaration, occurrences) in zip(declarations, parsed.occurrences) {
      try declaration.fill(occurrences)
    }
  }
}
