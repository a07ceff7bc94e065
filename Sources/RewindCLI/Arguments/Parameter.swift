/// One thing a command accepts on its command line: a positional argument, an option
/// that takes a value, or a flag.
///
/// Parameters are declared in a ``Command``'s spec, in the order they should appear in
/// the usage line; the help screen, the usage line, the parser and the error messages are
/// all generated from them, so what a command documents is what it accepts.
///
/// ```swift
/// .argument("journal", help: "The journal to read."),
/// .option("at", value: "point", help: "The point in the session.", default: "end"),
/// .flag("json", help: "Print JSON."),
/// ```
public struct Parameter: Sendable {
  /// How many values a positional argument takes.
  public enum Arity: Sendable, Equatable {
    /// Exactly one value; missing it is a usage error.
    case required
    /// Zero or one value.
    case optional
    /// One value or more (it must be the last positional argument).
    case oneOrMore
    /// Any number of values, none included (it must be the last positional argument).
    case zeroOrMore
  }

  /// What kind of parameter this is.
  public enum Kind: Sendable, Equatable {
    /// A value given by its position, `<journal>`.
    case argument(Arity)
    /// A named parameter with a value, `--at <point>`.
    case option
    /// A named switch without a value, `--json`.
    case flag
  }

  public var kind: Kind
  /// The name commands look the parameter up by: the long name of an option or flag
  /// (`at` for `--at`), the value name of an argument (`journal` for `<journal>`).
  public var name: String
  /// The one-letter name of an option or flag (`o` for `-o`), if it has one.
  public var shortName: Character?
  /// The placeholder shown for the value (`point` in `--at <point>`).
  public var valueName: String
  /// The one-line description shown in the help screen.
  public var help: String
  /// Extra help text shown on the lines under the parameter in the help screen.
  public var discussion: String
  /// The value used when the option or argument is not given, shown as
  /// `(default: …)` in help.
  public var defaultValue: String?
  /// Whether an option may be given more than once (each occurrence adds a value).
  public var isRepeatable: Bool
  /// Whether an option must be given.
  public var isRequired: Bool

  /// A positional argument.
  /// - Parameters:
  ///   - name: The value name, shown as `<name>`; also the key commands read it by.
  ///   - help: The one-line description.
  ///   - arity: How many values it takes.
  ///   - default: The value used when an optional argument is not given.
  ///   - discussion: Extra lines of help.
  public static func argument(
    _ name: String, help: String, arity: Arity = .required, default defaultValue: String? = nil,
    discussion: String = ""
  ) -> Parameter {
    Parameter(
      kind: .argument(arity), name: name, shortName: nil, valueName: name, help: help,
      discussion: discussion, defaultValue: defaultValue,
      isRepeatable: arity == .oneOrMore || arity == .zeroOrMore,
      isRequired: arity == .required || arity == .oneOrMore)
  }

  /// A named option that takes a value: `--name <value>`, `--name=<value>`, `-s <value>`.
  /// - Parameters:
  ///   - name: The long name, without dashes; also the key commands read it by.
  ///   - short: The one-letter name, if any.
  ///   - value: The placeholder shown for the value.
  ///   - help: The one-line description.
  ///   - default: The value used when the option is not given, shown in help.
  ///   - repeatable: Whether it may be given more than once.
  ///   - required: Whether it must be given.
  ///   - discussion: Extra lines of help.
  public static func option(
    _ name: String, short: Character? = nil, value: String, help: String,
    default defaultValue: String? = nil, repeatable: Bool = false, required: Bool = false,
    discussion: String = ""
  ) -> Parameter {
    Parameter(
      kind: .option, name: name, shortName: short, valueName: value, help: help,
      discussion: discussion, defaultValue: defaultValue, isRepeatable: repeatable,
      isRequired: required)
  }

  /// A named switch: present or not (`--json`, `-v`).
  /// - Parameters:
  ///   - name: The long name, without dashes; also the key commands read it by.
  ///   - short: The one-letter name, if any.
  ///   - help: The one-line description.
  ///   - discussion: Extra lines of help.
  public static func flag(
    _ name: String, short: Character? = nil, help: String, discussion: String = ""
  ) -> Parameter {
    Parameter(
      kind: .flag, name: name, shortName: short, valueName: "", help: help,
      discussion: discussion, defaultValue: nil, isRepeatable: true, isRequired: false)
  }
}

extension Parameter {
  var isPositional: Bool {
    if case .argument = kind { return true }
    return false
  }

  var takesValue: Bool { kind != .flag }

  /// The long name as typed, `--at`: how help and errors name the parameter.
  var preferredSpelling: String { "--\(name)" }

  /// `--at <point>`, `--json`, `<journal>`: how error messages name the parameter.
  var unadornedSynopsis: String {
    switch kind {
    case .argument: "<\(valueName)>"
    case .option: "\(preferredSpelling) <\(valueName)>"
    case .flag: preferredSpelling
    }
  }

  /// How the parameter appears in a usage line: `[--at <point>]`, `<journal> ...`.
  var usageSynopsis: String {
    var synopsis = unadornedSynopsis
    if isRepeatable && kind != .flag { synopsis += " ..." }
    return isRequired ? synopsis : "[\(synopsis)]"
  }

  /// The synopsis without the brackets of an optional parameter: `<journal> ...`, as
  /// "Missing expected argument" names it.
  var requiredSynopsis: String {
    isRepeatable && kind != .flag ? unadornedSynopsis + " ..." : unadornedSynopsis
  }

  /// How the parameter is labelled in the help screen: `-o, --output <file>`, `<journal>`.
  var helpLabel: String {
    switch kind {
    case .argument:
      return "<\(valueName)>"
    case .option, .flag:
      var label = shortName.map { "-\($0), " } ?? ""
      label += preferredSpelling
      if kind == .option { label += " <\(valueName)>" }
      return label
    }
  }

  /// The help line's text: the help, then `(default: …)` when there is a default.
  var helpText: String {
    [help, defaultValue.flatMap { $0.isEmpty ? nil : "(default: \($0))" }]
      .compactMap { $0 }
      .filter { !$0.isEmpty }
      .joined(separator: " ")
  }
}
