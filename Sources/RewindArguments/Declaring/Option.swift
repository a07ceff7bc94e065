/// A named parameter with a value, `--at <point>`, declared as a property of a command.
///
/// The property's type says how the option is used:
///
/// ```swift
/// @Option(short: "o", valueName: "journal", help: "The journal to write.")
/// var output: String                    // required: --output <journal>
/// @Option(valueName: "point", help: "The point in the session.")
/// var at: Point = .end                  // optional, `(default: end)` in help
/// @Option(valueName: "name", help: "The domain to use.")
/// var domain: String?                   // optional, nil when not given
/// @Option(valueName: "kind", help: "Only events of this kind.")
/// var type: [String]                    // repeatable: --type a --type b
/// ```
///
/// The long name is the property's name in kebab case (`snapshotInterval` is
/// `--snapshot-interval`) unless `name` gives one; the value name (`<point>`) is the long
/// name unless `valueName` gives one. Values are read through ``ExpressibleByArgument``, or
/// through a `transform` given with the declaration. Accepted spellings: `--at 12`,
/// `--at=12`, and `-a 12` when the option has a short name.
///
/// The value is there once the command runs; reading it earlier traps.
@propertyWrapper
public struct Option<Value>: ParameterDeclaration {
  let box: ParameterBox<Value>

  var declared: any DeclaredParameter { box }

  /// The value given on the command line, else the default.
  public var wrappedValue: Value { box.wrappedValue }

  /// The option itself, `$at`, to ask ``isGiven``.
  public var projectedValue: Option<Value> { self }

  /// Whether the command line gave the option, rather than leaving it to its default.
  public var isGiven: Bool { box.isGiven }
}

extension Option where Value: ExpressibleByArgument {
  /// An option with a default, used when it is not given and shown in help as
  /// `(default: …)`, from ``ExpressibleByArgument/defaultValueDescription``.
  /// - Parameters:
  ///   - wrappedValue: The default.
  ///   - name: The long name, without dashes; the property's name in kebab case when nil.
  ///   - short: The one-letter name, if any (`o` for `-o`).
  ///   - valueName: The placeholder for the value in help (`point` in `--at <point>`); the
  ///     long name when nil.
  ///   - help: The one-line description.
  ///   - discussion: Extra lines of help under the description.
  public init(
    wrappedValue: Value, name: String? = nil, short: Character? = nil, valueName: String? = nil,
    help: String, discussion: String = ""
  ) {
    self.init(
      wrappedValue: wrappedValue, name: name, short: short, valueName: valueName, help: help,
      discussion: discussion, transform: Value.init(argument:))
    box.describeDefault { wrappedValue.defaultValueDescription }
  }

  /// An option that must be given.
  /// - Parameters:
  ///   - name: The long name, without dashes; the property's name in kebab case when nil.
  ///   - short: The one-letter name, if any (`o` for `-o`).
  ///   - valueName: The placeholder for the value in help; the long name when nil.
  ///   - help: The one-line description.
  ///   - discussion: Extra lines of help under the description.
  public init(
    name: String? = nil, short: Character? = nil, valueName: String? = nil, help: String,
    discussion: String = ""
  ) {
    self.init(
      name: name, short: short, valueName: valueName, help: help, discussion: discussion,
      transform: Value.init(argument:))
  }
}

extension Option {
  /// An option that may be left out: `nil` when it is not given.
  /// - Parameters:
  ///   - name: The long name, without dashes; the property's name in kebab case when nil.
  ///   - short: The one-letter name, if any (`o` for `-o`).
  ///   - valueName: The placeholder for the value in help; the long name when nil.
  ///   - help: The one-line description.
  ///   - discussion: Extra lines of help under the description.
  public init<Element: ExpressibleByArgument>(
    name: String? = nil, short: Character? = nil, valueName: String? = nil, help: String,
    discussion: String = ""
  ) where Value == Element? {
    self.init(
      name: name, short: short, valueName: valueName, help: help, discussion: discussion,
      transform: Element.init(argument:))
  }

  /// An option that may be given any number of times, each time adding a value, in
  /// command-line order.
  /// - Parameters:
  ///   - wrappedValue: The values when the option is not given, shown in help when there
  ///     are any.
  ///   - name: The long name, without dashes; the property's name in kebab case when nil.
  ///   - short: The one-letter name, if any (`o` for `-o`).
  ///   - valueName: The placeholder for the value in help; the long name when nil.
  ///   - help: The one-line description.
  ///   - discussion: Extra lines of help under the description.
  public init<Element: ExpressibleByArgument>(
    wrappedValue: [Element] = [], name: String? = nil, short: Character? = nil,
    valueName: String? = nil, help: String, discussion: String = ""
  ) where Value == [Element] {
    self.init(
      wrappedValue: wrappedValue, name: name, short: short, valueName: valueName, help: help,
      discussion: discussion, transform: Element.init(argument:))
    if !wrappedValue.isEmpty {
      box.describeDefault {
        wrappedValue.map(\.defaultValueDescription).joined(separator: ", ")
      }
    }
  }
}

extension Option {
  /// An option with a default, its value read by `transform`.
  /// - Parameters:
  ///   - wrappedValue: The default, shown in help with `String(describing:)`.
  ///   - name: The long name, without dashes; the property's name in kebab case when nil.
  ///   - short: The one-letter name, if any (`o` for `-o`).
  ///   - valueName: The placeholder for the value in help; the long name when nil.
  ///   - help: The one-line description.
  ///   - discussion: Extra lines of help under the description.
  ///   - transform: Reads the value; throws ``InvalidValue`` saying what was expected.
  public init(
    wrappedValue: Value, name: String? = nil, short: Character? = nil, valueName: String? = nil,
    help: String, discussion: String = "",
    transform: @escaping (String) throws(InvalidValue) -> Value
  ) {
    let parameter = Parameter.option(
      name ?? "", short: short, value: valueName ?? "", help: help, discussion: discussion)
    box = ParameterBox(
      single: parameter, isNamed: name != nil, isValueNamed: valueName != nil,
      fallback: wrappedValue, parse: transform, wrap: { $0 })
    collect()
    box.describeDefault { String(describing: wrappedValue) }
  }

  /// An option that must be given, its value read by `transform`.
  /// - Parameters:
  ///   - name: The long name, without dashes; the property's name in kebab case when nil.
  ///   - short: The one-letter name, if any (`o` for `-o`).
  ///   - valueName: The placeholder for the value in help; the long name when nil.
  ///   - help: The one-line description.
  ///   - discussion: Extra lines of help under the description.
  ///   - transform: Reads the value; throws ``InvalidValue`` saying what was expected.
  public init(
    name: String? = nil, short: Character? = nil, valueName: String? = nil, help: String,
    discussion: String = "", transform: @escaping (String) throws(InvalidValue) -> Value
  ) {
    let parameter = Parameter.option(
      name ?? "", short: short, value: valueName ?? "", help: help, required: true,
      discussion: discussion)
    box = ParameterBox(
      single: parameter, isNamed: name != nil, isValueNamed: valueName != nil, fallback: nil,
      parse: transform, wrap: { $0 })
    collect()
  }

  /// An option that may be left out (`nil` then), its value read by `transform`.
  /// - Parameters:
  ///   - name: The long name, without dashes; the property's name in kebab case when nil.
  ///   - short: The one-letter name, if any (`o` for `-o`).
  ///   - valueName: The placeholder for the value in help; the long name when nil.
  ///   - help: The one-line description.
  ///   - discussion: Extra lines of help under the description.
  ///   - transform: Reads the value; throws ``InvalidValue`` saying what was expected.
  public init<Element>(
    name: String? = nil, short: Character? = nil, valueName: String? = nil, help: String,
    discussion: String = "", transform: @escaping (String) throws(InvalidValue) -> Element
  ) where Value == Element? {
    let parameter = Parameter.option(
      name ?? "", short: short, value: valueName ?? "", help: help, discussion: discussion)
    box = ParameterBox(
      single: parameter, isNamed: name != nil, isValueNamed: valueName != nil,
      fallback: .some(nil), parse: transform, wrap: { $0 })
    collect()
  }

  /// An option that may be given any number of times, each value read by `transform`.
  /// - Parameters:
  ///   - wrappedValue: The values when the option is not given, shown in help with
  ///     `String(describing:)` when there are any.
  ///   - name: The long name, without dashes; the property's name in kebab case when nil.
  ///   - short: The one-letter name, if any (`o` for `-o`).
  ///   - valueName: The placeholder for the value in help; the long name when nil.
  ///   - help: The one-line description.
  ///   - discussion: Extra lines of help under the description.
  ///   - transform: Reads one value; throws ``InvalidValue`` saying what was expected.
  public init<Element>(
    wrappedValue: [Element] = [], name: String? = nil, short: Character? = nil,
    valueName: String? = nil, help: String, discussion: String = "",
    transform: @escaping (String) throws(InvalidValue) -> Element
  ) where Value == [Element] {
    let parameter = Parameter.option(
      name ?? "", short: short, value: valueName ?? "", help: help, repeatable: true,
      discussion: discussion)
    box = ParameterBox(
      repeated: parameter, isNamed: name != nil, isValueNamed: valueName != nil,
      fallback: wrappedValue, parse: transform)
    collect()
    if !wrappedValue.isEmpty {
      box.describeDefault { wrappedValue.map { String(describing: $0) }.joined(separator: ", ") }
    }
  }
}
