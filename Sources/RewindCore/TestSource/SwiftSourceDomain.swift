/// A domain that can write its events, rejections and state changes as Swift source:
/// what `rewind testgen` needs to turn a session into a test of `RewindTesting`'s
/// `TestStore`.
///
/// The domain writes expressions and statements; ``SwiftSourceNames`` collects the
/// constants they name (a catalog node `let grinders = domain.ref("grinders")`), so
/// that each step reads as a person would write it:
///
/// ```swift
/// store.send(.categorySelected(grinders)) {
///   $0.split.selectedCategory = grinders
///   $0.split.selectedItem = nil
/// }
/// ```
///
/// A generated test builds the domain from the session's settings
/// (``swiftDomainExpression``, by default through ``Domain/init(settingsJSON:)``) and
/// calls it `domain`; constants may use it.
public protocol SwiftSourceDomain: Domain {
  /// The event as a Swift expression of type `Event`, e.g. `.categorySelected(grinders)`.
  func swiftSource(of event: Event, names: inout SwiftSourceNames) -> String
  /// The rejection as a Swift expression of type `Rejection`, e.g. `.notExpandable`.
  func swiftSource(of rejection: Rejection, names: inout SwiftSourceNames) -> String
  /// The statements that turn `old` into `new`, each setting a stored property of
  /// `target` (`$0` in a step's closure), e.g. `$0.split.selectedItem = nil`; none when
  /// the states are equal. Derived fields are not set: they follow.
  func swiftAssignments(
    from old: State, to new: State, on target: String, names: inout SwiftSourceNames
  ) -> [String]
  /// The modules the generated file imports besides `Testing`, `RewindCore` and
  /// `RewindTesting`: by default the module that declares the domain.
  static var swiftModules: [String] { get }
  /// An expression that builds this domain value; may `try`. By default
  /// `try Type(settingsJSON: JSONValue(parsing: "…"))` with the session's settings, the
  /// type named without its module, which the file imports (`Todo.Todo` does not compile
  /// where the module `Todo` declares a type `Todo`: the name is the type's).
  var swiftDomainExpression: String { get }
}

extension SwiftSourceDomain {
  public static var swiftModules: [String] {
    let name = String(reflecting: Self.self)
    return name.split(separator: ".").first.map { [String($0)] } ?? []
  }

  public var swiftDomainExpression: String {
    // `Module.Outer.Type` less its module.
    let name = String(reflecting: Self.self).split(separator: ".").dropFirst().joined(
      separator: ".")
    return
      "try \(name)(settingsJSON: JSONValue(parsing: \(SwiftSource.stringLiteral(settingsJSON.compactText))))"
  }
}

/// The constants a generated test declares before its steps, each named once.
public struct SwiftSourceNames: Sendable {
  /// The declarations, in the order they were first asked for: name and expression.
  public private(set) var declarations: [(name: String, expression: String)] = []
  private var nameByExpression: [String: String] = [:]
  private var taken: Set<String>

  /// - Parameter reserved: names the generated code already uses.
  public init(reserved: Set<String> = ["domain", "store", "start"]) { taken = reserved }

  /// The name of a constant holding `expression`, declared on first use.
  /// - Parameters:
  ///   - suggestion: words the name is made of (`espresso-machines/leva` →
  ///     `espressoMachinesLeva`); a number is appended when it is taken.
  ///   - expression: the constant's value; may `try`.
  public mutating func constant(suggesting suggestion: String, _ expression: String) -> String {
    if let name = nameByExpression[expression] { return name }
    // The letters of every script kept, as in test names (`café/日本` → `café日本`, not `caf`).
    let base = SwiftSource.identifier(suggestion, everyScript: true)
    var name = base
    var number = 2
    while taken.contains(name) {
      name = "\(base)\(number)"
      number += 1
    }
    taken.insert(name)
    nameByExpression[expression] = name
    declarations.append((name, expression))
    return name
  }
}

/// Swift literals and names for generated source.
public enum SwiftSource {
  /// A string literal that reads back as `text`: quotes, backslashes and every
  /// character outside printable ASCII escaped (`\u{…}`).
  /// - Parameters:
  ///   - text: the string's value.
  ///   - keepingLetters: whether the letters, digits and marks of every script
  ///     (XID_Continue, never a control or space character) are kept as they are; the
  ///     invisible joiners U+200C and U+200D, format characters, are escaped still.
  public static func stringLiteral(_ text: String, keepingLetters: Bool = false) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case " "..."~": out.unicodeScalars.append(scalar)
      case _
      where keepingLetters && scalar.properties.isXIDContinue
        && scalar.properties.generalCategory != .format:
        out.unicodeScalars.append(scalar)
      default: out += "\\u{\(String(scalar.value, radix: 16))}"
      }
    }
    return out + "\""
  }

  /// A `Double` literal that reads back as the same bits: the shortest decimal form,
  /// `.infinity`, `-.infinity`, or `Double(bitPattern: …)` for a NaN and for a subnormal
  /// number (below `Double.leastNormalMagnitude`), whose decimal literal the compiler warns
  /// "underflows and loses precision" (an error in a target that treats warnings so).
  public static func doubleLiteral(_ value: Double) -> String {
    if value.isNaN || value.isSubnormal {
      return "Double(bitPattern: 0x\(String(value.bitPattern, radix: 16)))"
    }
    if value.isInfinite { return value < 0 ? "-.infinity" : ".infinity" }
    return "\(value)"
  }

  /// A lower camel case identifier made of the letters and digits of `words`
  /// (`espresso-machines/leva-x` → `espressoMachinesLevaX`), starting with a letter
  /// (`node` before a digit), never a keyword (`Node` after one).
  /// - Parameters:
  ///   - words: The text to make the identifier of.
  ///   - everyScript: Keep the letters and digits of every script, as Swift takes them in
  ///     an identifier (`café-menu` → `caféMenu`, `日本` → `日本`), not only ASCII's.
  ///   - kind: What the identifier names, before a digit (`node`, or a test's `test`) and
  ///     after a keyword (its capitalised form).
  public static func identifier(
    _ words: String, everyScript: Bool = false, kind: String = "node"
  ) -> String {
    var parts: [String] = []
    var current = ""
    for scalar in words.unicodeScalars {
      let kept =
        everyScript
        ? scalar.properties.isXIDContinue && scalar != "_"
        : scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar))
      if kept {
        current.unicodeScalars.append(scalar)
      } else if !current.isEmpty {
        parts.append(current)
        current = ""
      }
    }
    if !current.isEmpty { parts.append(current) }
    var name = parts.enumerated().map { index, part in
      index == 0
        ? part.prefix(1).lowercased() + part.dropFirst()
        : part.prefix(1).uppercased() + part.dropFirst()
    }.joined()
    if name.unicodeScalars.first?.properties.isXIDStart != true {
      name = kind + name.prefix(1).uppercased() + name.dropFirst()
    }
    return keywords.contains(name) ? name + kind.prefix(1).uppercased() + kind.dropFirst() : name
  }

  /// Whether `text` can name a declaration as it is written, without backquotes: a Swift
  /// identifier (its first scalar XID_Start or `_`, the others XID_Continue, not `_` alone)
  /// that is none of ``keywords``.
  public static func isIdentifier(_ text: String) -> Bool {
    guard let first = text.unicodeScalars.first, text != "_", !keywords.contains(text) else {
      return false
    }
    return (first == "_" || first.properties.isXIDStart)
      && text.unicodeScalars.dropFirst().allSatisfy(\.properties.isXIDContinue)
  }

  /// The words Swift does not take as a declared name without backquotes (the compiler's
  /// "keyword cannot be used as an identifier here"), `await` (a test of that name does not
  /// compile: the code `@Test` expands to reads it as the keyword), and `any`, `some`,
  /// `package` and `open`, which read as names only in some places.
  public static let keywords: Set<String> = [
    "as", "associatedtype", "await", "break", "case", "catch", "class", "continue", "default",
    "defer", "deinit", "do", "else", "enum", "extension", "fallthrough", "false", "fileprivate",
    "for", "func", "guard", "if", "import", "in", "init", "inout", "internal", "is", "let", "nil",
    "operator", "precedencegroup", "private", "protocol", "public", "repeat", "rethrows",
    "return", "self", "Self", "static", "struct", "subscript", "super", "switch", "throw",
    "throws", "true", "try", "typealias", "var", "where", "while", "Any", "any", "some",
    "package", "open",
  ]
}
