extension Domain {
  /// Checks a condition against the domain's fields before any replay, and compiles it
  /// for evaluation: every path must be a field (or one of the event's words, `event`,
  /// `outcome`, `reason`), every value must be of its field's kind (a number for an
  /// integer field, one of an enum's values, an id the session has, an event kind the
  /// domain lists), and every operator must fit (`<` on numbers, `contains` on lists and
  /// strings).
  ///
  /// - Returns: the condition compiled against ``Domain/fields``: field indices
  ///   resolved, values checked.
  /// - Throws: ``ConditionError`` at the column of the path or the value, with the words
  ///   the mistake may be a slip of and, when it is certain, what was meant (the id of an
  ///   item whose name was written, `0` for `"0"`).
  @discardableResult
  package func check(_ written: WrittenCondition) throws(ConditionError) -> CompiledCondition {
    var compiler = ConditionCompiler(domain: self, places: written.places)
    let root = try compiler.compile(written.condition)
    return CompiledCondition(
      root: root, fields: compiler.fields, paths: compiler.fields.map { fields[$0].path },
      isAboutEvents: compiler.isAboutEvents, leaves: compiler.leaves)
  }

  /// What is wrong with `value` for a field of `kind`, nil when it fits.
  /// - Parameters:
  ///   - holder: what holds the value, with its verb: `split.style holds`, `each element
  ///     of split.expanded is`.
  ///   - suggesting: whether to look for the value that was meant (not while looking).
  func problem(
    with value: JSONValue, kind: FieldKind, path: String, holder: String? = nil,
    suggesting: Bool = true
  ) -> ValueProblem? {
    let holder = holder ?? "\(path) holds"
    switch (kind, value) {
    case (.any, _), (.optional, .null), (.integer, .int), (.number, .int), (.number, .double),
      (.boolean, .bool), (.string, .string):
      return nil
    case (.integer, .double) where value.intValue != nil:
      return nil
    case (.integer, .double(let number)) where number.isFinite && number.rounded() == number:
      // A whole number the parser could only keep as a double: past 64 bits (its text is
      // not kept: the double's would not be the one written).
      return ValueProblem(
        "\(holder) \(kind), and the whole number given is past the integers' range (\(Int64.min) to \(Int64.max))"
      )
    case (.optional(let wrapped), _):
      return problem(
        with: value, kind: wrapped, path: path, holder: holder, suggesting: suggesting)
    case (.oneOf(let values), .string(let text)):
      guard !values.contains(text) else { return nil }
      return ValueProblem(
        "\(holder) \(kind), not \(Format.quoted(text))", word: text, choices: values)
    case (.identifier(let noun), .string(let text)):
      guard let known = knownValues(for: path), !known.contains(where: { $0.value == text })
      else { return nil }
      // A name (or an id in other case) written where the id is needed.
      let lowered = text.lowercased()
      let meant = known.filter {
        $0.name?.lowercased() == lowered || $0.value.lowercased() == lowered
      }
      return ValueProblem(
        "\(Format.quoted(text)) is not the id of \(FieldKind.article(noun)) \(noun) in this session",
        word: text, choices: known.map(\.value),
        suggestion: meant.isEmpty ? nil : meant.prefix(3).map(\.value).joined(separator: "' or '"))
    case (.text(let noun), .string(let text)):
      guard let known = knownValues(for: path), !known.contains(where: { $0.value == text })
      else { return nil }
      // The text in other case: what was meant, certainly.
      let lowered = text.lowercased()
      let meant = known.filter { $0.value.lowercased() == lowered }
      return ValueProblem(
        "\(Format.quoted(text)) is not \(FieldKind.article(noun)) \(noun) in this session",
        word: text, choices: known.map(\.value),
        suggestion: meant.isEmpty ? nil : meant.prefix(3).map(\.value).joined(separator: "' or '"))
    case (.list(let element), .array(let elements)):
      for member in elements {
        if let problem = problem(
          with: member, kind: element, path: path, holder: "each element of \(path) is",
          suggesting: suggesting)
        {
          return problem
        }
      }
      return nil
    default:
      let found =
        value == .null
        ? "null" : "\(value.typeName) (\(Format.quoted(value.compactText, quote: "")))"
      return ValueProblem(
        "\(holder) \(kind), not \(found)",
        suggestion: suggesting ? rewritten(value, kind: kind, path: path)?.compactText : nil)
    }
  }

  /// The value a user most likely meant when they wrote `value` in the wrong form: `0`
  /// for `"0"`, `"3"` for `3`, `["a"]` for `a` in a list; nil when none fits.
  private func rewritten(_ value: JSONValue, kind: FieldKind, path: String) -> JSONValue? {
    var candidates: [JSONValue] = []
    switch value {
    case .string(let text):
      if let parsed = try? JSONValue(parsing: text) { candidates.append(parsed) }
    case .int, .double, .bool:
      candidates.append(.string(value.compactText))
    default: break
    }
    candidates += candidates.map { .array([$0]) } + [.array([value])]
    return candidates.first {
      problem(with: $0, kind: kind, path: path, suggesting: false) == nil
    }
  }
}

/// What is wrong with a condition's value, before its column is known.
struct ValueProblem: Equatable {
  var message: String
  var word = ""
  var choices: [String] = []
  var suggestion: String?

  init(_ message: String, word: String = "", choices: [String] = [], suggestion: String? = nil) {
    self.message = message
    self.word = word
    self.choices = choices
    self.suggestion = suggestion
  }
}
