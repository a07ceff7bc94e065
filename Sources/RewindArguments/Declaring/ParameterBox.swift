/// What the parser reaches of an ``Argument``, ``Option`` or ``Flag`` property: its spec,
/// and the slot its value is read into.
protocol DeclaredParameter: AnyObject {
  /// The spec, named after the property once ``adoptName(fromProperty:)`` ran; without the
  /// text of its default, which only help shows (``documentedParameter``).
  var parameter: Parameter { get }
  /// The spec with the text of its default, `(default: …)`, made now: for help and the
  /// spec checks.
  var documentedParameter: Parameter { get }
  /// Names the parameter after its property (`_snapshotInterval` gives
  /// `snapshot-interval`), unless the declaration named it.
  func adoptName(fromProperty label: String)
  /// Reads the value from the words the command line gave the parameter.
  /// - Throws: ``UsageError`` when a word is not a valid value.
  func fill(_ occurrences: [ParsedArguments.Occurrence]) throws(UsageError)
}

/// A property wrapper of this library, holding nothing but its box.
protocol ParameterDeclaration {
  var declared: any DeclaredParameter { get }
}

extension ParameterDeclaration {
  /// Tells the command value being made (``DeclarationCollector``) of this declaration;
  /// every initializer calls it once its box is made.
  func collect() {
    DeclarationCollector.current?.add(declared, wrapper: Self.self)
  }
}

/// The reference a property wrapper shares with the parser: the parameter's spec and,
/// once the command line is read, its value.
///
/// A command's properties are wrappers (values) holding one box each; the command is
/// copied freely, and every copy sees the value the parser put in the box.
final class ParameterBox<Value>: DeclaredParameter {
  private(set) var parameter: Parameter
  private let isNamed: Bool
  private let isValueNamed: Bool
  private let read:
    (_ occurrences: [ParsedArguments.Occurrence], _ parameter: Parameter) throws(UsageError) ->
      Value
  private var value: Value?
  /// Makes the text help shows as the default; nil when help shows none.
  private var defaultText: (() -> String)?
  /// Whether the command line gave the parameter (rather than leaving it to its default).
  private(set) var isGiven = false

  /// - Parameters:
  ///   - parameter: The spec; its name is replaced by the property's when `isNamed` is
  ///     false, its value name too when `isValueNamed` is false.
  ///   - read: Reads the value from the words given (none when the parameter is absent).
  init(
    _ parameter: Parameter, isNamed: Bool, isValueNamed: Bool,
    read:
      @escaping (_ occurrences: [ParsedArguments.Occurrence], _ parameter: Parameter)
      throws(UsageError) -> Value
  ) {
    self.parameter = parameter
    self.isNamed = isNamed
    self.isValueNamed = isValueNamed
    self.read = read
  }

  /// The value read from the command line. Reading it before the command runs (in a
  /// command's `init`, say) is a programming error and traps.
  var wrappedValue: Value {
    guard let value else {
      preconditionFailure(
        "\(declarationDescription) was read before the command line was parsed;"
          + " read it in run(_:)")
    }
    return value
  }

  /// `--at <point>`, or before the parameter is named after its property, what it was
  /// declared with.
  private var declarationDescription: String {
    guard parameter.name.isEmpty else { return parameter.unadornedSynopsis }
    let kind: String
    switch parameter.kind {
    case .argument: kind = "an argument"
    case .option: kind = "an option"
    case .flag: kind = "a flag"
    }
    return "\(kind) declared with help '\(parameter.help)'"
  }

  func adoptName(fromProperty label: String) {
    let name = commandLineName(ofProperty: label)
    if !isNamed {
      parameter.name = name
      if parameter.isPositional { parameter.valueName = name }
    }
    if !isValueNamed && parameter.kind == .option { parameter.valueName = parameter.name }
  }

  func fill(_ occurrences: [ParsedArguments.Occurrence]) throws(UsageError) {
    value = try read(occurrences, parameter)
    isGiven = !occurrences.isEmpty
  }

  /// Sets how help shows the default, `(default: …)`; an empty text shows none. The text
  /// is made when help asks for it (``documentedParameter``), not when a command starts:
  /// `String(describing:)` of a value looks its type's conformances up, each first time a
  /// walk through every conformance record of the binary.
  func describeDefault(_ text: @escaping () -> String) {
    defaultText = text
  }

  var documentedParameter: Parameter {
    var documented = parameter
    documented.defaultValue = defaultText?()
    return documented
  }
}

extension ParameterBox {
  /// A box for a parameter with one value: the last given, else `fallback` (which is nil
  /// only for a required parameter, which the parser never leaves without a value).
  /// - Parameters:
  ///   - parse: Reads one word.
  ///   - wrap: Makes the property's value from what `parse` read.
  convenience init<Element>(
    single parameter: Parameter, isNamed: Bool, isValueNamed: Bool, fallback: Value?,
    parse: @escaping (String) throws(InvalidValue) -> Element,
    wrap: @escaping (Element) -> Value
  ) {
    self.init(parameter, isNamed: isNamed, isValueNamed: isValueNamed) {
      (occurrences, parameter) throws(UsageError) in
      guard let occurrence = occurrences.last else {
        guard let fallback else {
          preconditionFailure("\(parameter.unadornedSynopsis) is required but was not given")
        }
        return fallback
      }
      return wrap(try readValue(occurrence, of: parameter, with: parse))
    }
  }

  /// A box for a parameter with any number of values: each one given, in command-line
  /// order, else `fallback`.
  /// - Parameter parse: Reads one word.
  convenience init<Element>(
    repeated parameter: Parameter, isNamed: Bool, isValueNamed: Bool, fallback: [Element],
    parse: @escaping (String) throws(InvalidValue) -> Element
  ) where Value == [Element] {
    self.init(parameter, isNamed: isNamed, isValueNamed: isValueNamed) {
      (occurrences, parameter) throws(UsageError) in
      if occurrences.isEmpty { return fallback }
      var values: [Element] = []
      values.reserveCapacity(occurrences.count)
      for occurrence in occurrences {
        values.append(try readValue(occurrence, of: parameter, with: parse))
      }
      return values
    }
  }
}

/// Reads one word with `parse`, turning its ``InvalidValue`` into the usage error that
/// names the value, the parameter as it was spelled, and the reason.
private func readValue<Element>(
  _ occurrence: ParsedArguments.Occurrence, of parameter: Parameter,
  with parse: (String) throws(InvalidValue) -> Element
) throws(UsageError) -> Element {
  do {
    return try parse(occurrence.value)
  } catch {
    throw .invalidValue(
      occurrence.value, for: parameter, spelling: occurrence.spelling, reason: error.reason)
  }
}

/// The command-line name of a property: `_snapshotInterval` (as `Mirror` labels a wrapped
/// property) gives `snapshot-interval`, `jsonURL` gives `json-url`.
///
/// - Complexity: O(*n*) in the length of the label.
func commandLineName(ofProperty label: String) -> String {
  let characters = Array(label.drop { $0 == "_" })
  var name = ""
  for (index, character) in characters.enumerated() {
    if character.isUppercase && index > 0 {
      let previous = characters[index - 1]
      let next = index + 1 < characters.count ? characters[index + 1] : nil
      // A word starts at an upper-case letter after a lower-case one or a digit, or at the
      // last capital of an acronym followed by a lower-case letter (`URLPath`: `url-path`).
      if previous.isLowercase || previous.isNumber
        || (previous.isUppercase && next?.isLowercase == true)
      {
        name.append("-")
      }
    }
    name += character.lowercased()
  }
  return name
}
