/// One thing a command accepts on its command line: a positional argument, an option
/// that takes a value, or a flag; the spec of one ``Argument``, ``Option`` or ``Flag``
/// property.
///
/// A command's parameters are its declared properties in declaration order, the order of
/// the usage line; the help screen, the usage line, the parser and the error messages are
/// all generated from them, so what a command documents is what it accepts.
struct Parameter: Sendable {
  /// How many values a positional argument takes.
  enum Arity: Sendable, Equatable {
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
  enum Kind: Sendable, Equatable {
    /// A value given by its position, `<journal>`.
    case argument(Arity)
    /// A named parameter with a value, `--at <point>`.
    case option
    /// A named switch without a value, `--json`.
    case flag
  }

  var kind: Kind
  /// The long name of an option or flag (`at` for `--at`), the value name of an argument
  /// (`journal` for `<journal>`).
  var name: String
  /// The one-letter name of an option or flag (`o` for `-o`), if it has one.
  var shortName: Character?
  /// The placeholder shown for the value (`point` in `--at <point>`).
  var valueName: String
  /// The one-line description shown in the help screen.
  var help: String
  /// Extra help text shown on the lines under the parameter in the help screen.
  var discussion: String
  /// The value used when the option or argument is not given, shown as
  /// `(default: …)` in help.
  var defaultValue: String?
  /// Whether an option may be given more than once (each occurrence adds a value).
  var isRepeatable: Bool
  /// Whether an option must be given.
  var isRequired: Bool

  /// A positional argument.
  /// - Parameters:
  ///   - name: The value name, shown as `<name>`.
  ///   - help: The one-line description.
  ///   - arity: How many values it takes.
  ///   - default: The value used when an optional argument is not given.
  ///   - discussion: Extra lines of help.
  static func argument(
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
  ///   - name: The long name, without dashes.
  ///   - short: The one-letter name, if any.
  ///   - value: The placeholder shown for the value.
  ///   - help: The one-line description.
  ///   - default: The value used when the option is not given, shown in help.
  ///   - repeatable: Whether it may be given more than once.
  ///   - required: Whether it must be given.
  ///   - discussion: Extra lines of help.
  static func option(
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
  ///   - name: The long name, without dashes.
  ///   - short: The one-letter name, if any.
  ///   - help: The one-line description.
  ///   - discussion: Extra lines of help.
  static func flag(
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
