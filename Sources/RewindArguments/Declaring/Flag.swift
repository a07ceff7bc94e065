/// A named switch without a value, `--json`, declared as a `Bool` property of a command:
/// true when the command line gives it (once or more), false otherwise.
///
/// ```swift
/// @Flag(help: "Print JSON.")
/// var json: Bool
/// @Flag(short: "v", help: "Say what is happening.")
/// var verbose: Bool
/// ```
///
/// The long name is the property's name in kebab case unless `name` gives one.
///
/// The value is there once the command runs; reading it earlier traps.
@propertyWrapper
public struct Flag: ParameterDeclaration {
  let box: ParameterBox<Bool>

  var declared: any DeclaredParameter { box }

  /// Whether the command line gave the flag.
  public var wrappedValue: Bool { box.wrappedValue }

  /// A flag, off unless given.
  /// - Parameters:
  ///   - name: The long name, without dashes; the property's name in kebab case when nil.
  ///   - short: The one-letter name, if any (`v` for `-v`).
  ///   - help: The one-line description.
  ///   - discussion: Extra lines of help under the description.
  public init(
    name: String? = nil, short: Character? = nil, help: String, discussion: String = ""
  ) {
    let parameter = Parameter.flag(name ?? "", short: short, help: help, discussion: discussion)
    box = ParameterBox(parameter, isNamed: name != nil, isValueNamed: true) {
      (occurrences, _) throws(UsageError) in !occurrences.isEmpty
    }
    collect()
  }
}
