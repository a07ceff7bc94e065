/// A value given by its position on the command line, `<journal>`, declared as a property
/// of a command.
///
/// Positional arguments take the words that are not options, in declaration order. The
/// property's type says how many:
///
/// ```swift
/// @Argument(help: "The journal to read.")
/// var journal: String                   // exactly one: <journal>
/// @Argument(help: "The journal to read.")
/// var journal: String = "a.journal"     // zero or one: [<journal>], `(default: …)` in help
/// @Argument(help: "The journal to read.")
/// var journal: String?                  // zero or one, nil when not given
/// @Argument(name: "journal", help: "The journals to check.")
/// var journals: [String]                // one or more: <journal> ...
/// @Argument(help: "More files.")
/// var extra: [String] = []              // any number: [<extra> ...]
/// ```
///
/// The value name (`<journal>`) is the property's name in kebab case unless `name` gives
/// one. After an optional or repeated argument, no required one may follow, and a repeated
/// argument is the last; ``CommandLineTool`` checks this (see its `specProblems()`).
/// Values are read through ``ExpressibleByArgument``, or through a `transform` given with
/// the declaration.
///
/// The value is there once the command runs; reading it earlier traps.
@propertyWrapper
public struct Argument<Value>: ParameterDeclaration {
  let box: ParameterBox<Value>

  var declared: any DeclaredParameter { box }

  /// The value given on the command line, else the default.
  public var wrappedValue: Value { box.wrappedValue }

  /// The argument itself, `$journal`, to ask ``isGiven``.
  public var projectedValue: Argument<Value> { self }

  /// Whether the command line gave the argument, rather than leaving it to its default.
  public var isGiven: Bool { box.isGiven }
}

extension Argument where Value: ExpressibleByArgument {
  /// An argument that must be given.
  /// - Parameters:
  ///   - name: The value name, shown as `<name>`; the property's name in kebab case when
  ///     nil.
  ///   - help: The one-line description.
  ///   - discussion: Extra lines of help under the description.
  public init(name: String? = nil, help: String, discussion: String = "") {
    self.init(name: name, help: help, discussion: discussion, transform: Value.init(argument:))
  }

  /// An argument that may be left out, taking `wrappedValue` then; help shows it as
  /// `(default: …)`, from ``ExpressibleByArgument/defaultValueDescription``.
  /// - Parameters:
  ///   - wrappedValue: The default.
  ///   - name: The value name, shown as `<name>`; the property's name in kebab case when
  ///     nil.
  ///   - help: The one-line description.
  ///   - discussion: Extra lines of help under the description.
  public init(wrappedValue: Value, name: String? = nil, help: String, discussion: String = "") {
    self.init(
      wrappedValue: wrappedValue, name: name, help: help, discussion: discussion,
      transform: Value.init(argument:))
    box.describeDefault { wrappedValue.defaultValueDescription }
  }
}

extension Argument {
  /// An argument that may be left out: `nil` when it is not given.
  /// - Parameters:
  ///   - name: The value name, shown as `<name>`; the property's name in kebab case when
  ///     nil.
  ///   - help: The one-line description.
  ///   - discussion: Extra lines of help under the description.
  public init<Element: ExpressibleByArgument>(
    name: String? = nil, help: String, discussion: String = ""
  ) where Value == Element? {
    self.init(name: name, help: help, discussion: discussion, transform: Element.init(argument:))
  }

  /// An argument that takes every remaining positional word, at least one.
  /// - Parameters:
  ///   - name: The value name, shown as `<name> ...`; the property's name in kebab case
  ///     when nil.
  ///   - help: The one-line description.
  ///   - discussion: Extra lines of help under the description.
  public init<Element: ExpressibleByArgument>(
    name: String? = nil, help: String, discussion: String = ""
  ) where Value == [Element] {
    self.init(name: name, help: help, discussion: discussion, transform: Element.init(argument:))
  }

  /// An argument that takes every remaining positional word, none included.
  /// - Parameters:
  ///   - wrappedValue: The values when none is given; only an empty list passes the spec
  ///     checks (a repeated argument has no default).
  ///   - name: The value name, shown as `[<name> ...]`; the property's name in kebab case
  ///     when nil.
  ///   - help: The one-line description.
  ///   - discussion: Extra lines of help under the description.
  public init<Element: ExpressibleByArgument>(
    wrappedValue: [Element], name: String? = nil, help: String, discussion: String = ""
  ) where Value == [Element] {
    self.init(
      wrappedValue: wrappedValue, name: name, help: help, discussion: discussion,
      transform: Element.init(argument:))
    if !wrappedValue.isEmpty {
      box.describeDefault {
        wrappedValue.map(\.defaultValueDescription).joined(separator: ", ")
      }
    }
  }
}

extension Argument {
  /// An argument that must be given, its value read by `transform`.
  /// - Parameters:
  ///   - name: The value name, shown as `<name>`; the property's name in kebab case when
  ///     nil.
  ///   - help: The one-line description.
  ///   - discussion: Extra lines of help under the description.
  ///   - transform: Reads the value; throws ``InvalidValue`` saying what was expected.
  public init(
    name: String? = nil, help: String, discussion: String = "",
    transform: @escaping (String) throws(InvalidValue) -> Value
  ) {
    let parameter = Parameter.argument(name ?? "", help: help, discussion: discussion)
    box = ParameterBox(
      single: parameter, isNamed: name != nil, isValueNamed: name != nil, fallback: nil,
      parse: transform, wrap: { $0 })
    collect()
  }

  /// An argument that may be left out, taking `wrappedValue` then, its value read by
  /// `transform`.
  /// - Parameters:
  ///   - wrappedValue: The default, shown in help with `String(describing:)`.
  ///   - name: The value name, shown as `<name>`; the property's name in kebab case when
  ///     nil.
  ///   - help: The one-line description.
  ///   - discussion: Extra lines of help under the description.
  ///   - transform: Reads the value; throws ``InvalidValue`` saying what was expected.
  public init(
    wrappedValue: Value, name: String? = nil, help: String, discussion: String = "",
    transform: @escaping (String) throws(InvalidValue) -> Value
  ) {
    let parameter = Parameter.argument(
      name ?? "", help: help, arity: .optional, discussion: discussion)
    box = ParameterBox(
      single: parameter, isNamed: name != nil, isValueNamed: name != nil,
      fallback: wrappedValue, parse: transform, wrap: { $0 })
    collect()
    box.describeDefault { String(describing: wrappedValue) }
  }

  /// An argument that may be left out (`nil` then), its value read by `transform`.
  /// - Parameters:
  ///   - name: The value name, shown as `<name>`; the property's name in kebab case when
  ///     nil.
  ///   - help: The one-line description.
  ///   - discussion: Extra lines of help under the description.
  ///   - transform: Reads the value; throws ``InvalidValue`` saying what was expected.
  public init<Element>(
    name: String? = nil, help: String, discussion: String = "",
    transform: @escaping (String) throws(InvalidValue) -> Element
  ) where Value == Element? {
    let parameter = Parameter.argument(
      name ?? "", help: help, arity: .optional, discussion: discussion)
    box = ParameterBox(
      single: parameter, isNamed: name != nil, isValueNamed: name != nil,
      fallback: .some(nil), parse: transform, wrap: { $0 })
    collect()
  }

  /// An argument that takes every remaining positional word, at least one, each read by
  /// `transform`.
  /// - Parameters:
  ///   - name: The value name, shown as `<name> ...`; the property's name in kebab case
  ///     when nil.
  ///   - help: The one-line description.
  ///   - discussion: Extra lines of help under the description.
  ///   - transform: Reads one value; throws ``InvalidValue`` saying what was expected.
  public init<Element>(
    name: String? = nil, help: String, discussion: String = "",
    transform: @escaping (String) throws(InvalidValue) -> Element
  ) where Value == [Element] {
    let parameter = Parameter.argument(
      name ?? "", help: help, arity: .oneOrMore, discussion: discussion)
    box = ParameterBox(
      repeated: parameter, isNamed: name != nil, isValueNamed: name != nil, fallback: [],
      parse: transform)
    collect()
  }

  /// An argument that takes every remaining positional word, none included, each read
  /// by `transform`.
  /// - Parameters:
  ///   - wrappedValue: The values when none is given; only an empty list passes the spec
  ///     checks (a repeated argument has no default).
  ///   - name: The value name, shown as `[<name> ...]`; the property's name in kebab case
  ///     when nil.
  ///   - help: The one-line description.
  ///   - discussion: Extra lines of help under the description.
  ///   - transform: Reads one value; throws ``InvalidValue`` saying what was expected.
  public init<Element>(
    wrappedValue: [Element], name: String? = nil, help: String, discussion: String = "",
    transform: @escaping (String) throws(InvalidValue) -> Element
  ) where Value == [Element] {
    let parameter = Parameter.argument(
      name ?? "", help: help, arity: .zeroOrMore, discussion: discussion)
    box = ParameterBox(
      repeated: parameter, isNamed: name != nil, isValueNamed: name != nil,
      fallback: wrappedValue, parse: transform)
    collect()
    if !wrappedValue.isEmpty {
      box.describeDefault { wrappedValue.map { String(describing: $0) }.joined(separator: ", ") }
    }
  }
}
