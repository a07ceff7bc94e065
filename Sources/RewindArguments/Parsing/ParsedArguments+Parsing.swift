extension ParsedArguments {
  /// Reads the words after a command's name against its parameters.
  ///
  /// Accepted forms, as in Swift's argument parser: `--name value`, `--name=value`,
  /// `-n value`, `--flag`, `-f`, positional values in declaration order, and `--`, after
  /// which every word is positional. An option's value is the next word even when it
  /// starts with `-` (`--at -5`), unless that word is `--`, starts with `--`, or is one of
  /// the command's short names; a word that is `-` or a negative number is positional.
  /// A flag may be given more than once; an option only when it is repeatable. Combined
  /// short flags (`-xv`) are not supported. `-h`/`--help` is handled by the caller before
  /// parsing.
  ///
  /// The first problem met, reading left to right, is thrown.
  ///
  /// - Parameters:
  ///   - words: The words after the command's name.
  ///   - parameters: What the command declares.
  /// - Throws: ``UsageError``.
  /// - Complexity: O(*n* · *p*) for *n* words and *p* parameters.
  init(parsing words: ArraySlice<String>, for parameters: [Parameter]) throws(UsageError) {
    self.init(parameters: parameters)
    var positionals: [String] = []
    var index = words.startIndex
    var afterTerminator = false

    while index < words.endIndex {
      let word = words[index]
      index += 1
      if afterTerminator || !isOptionLike(word) {
        positionals.append(word)
        continue
      }
      if word == "--" {
        afterTerminator = true
        continue
      }

      let spelling: String
      let inlineValue: String?
      let found: Int?
      if word.hasPrefix("--") {
        let body = word.dropFirst(2)
        if let equals = body.firstIndex(of: "=") {
          spelling = "--" + body[..<equals]
          inlineValue = String(body[body.index(after: equals)...])
        } else {
          spelling = word
          inlineValue = nil
        }
        let name = spelling.dropFirst(2)
        found = parameters.firstIndex { !$0.isPositional && $0.name == name }
      } else {
        spelling = word
        inlineValue = nil
        found =
          word.count == 2
          ? parameters.firstIndex { !$0.isPositional && $0.shortName == word.last } : nil
      }
      guard let found else {
        if let inlineValue, spelling == "--help" {
          throw .unexpectedValue(inlineValue, forFlag: spelling)
        }
        throw .unknownOption(spelling, among: parameters + [.help])
      }
      let parameter = parameters[found]

      if parameter.kind == .flag {
        if let inlineValue { throw .unexpectedValue(inlineValue, forFlag: spelling) }
        occurrences[found].append(Occurrence(value: "", spelling: spelling))
        continue
      }
      let value: String
      if let inlineValue {
        value = inlineValue
      } else if index < words.endIndex, canBeValue(words[index], parameters: parameters) {
        value = words[index]
        index += 1
      } else {
        throw .missingValue(parameter, spelling: spelling)
      }
      if !parameter.isRepeatable && !occurrences[found].isEmpty {
        throw .duplicateOption(parameter, spelling: spelling)
      }
      occurrences[found].append(Occurrence(value: value, spelling: spelling))
    }

    try assignPositionals(positionals)
    for (index, parameter) in parameters.enumerated()
    where parameter.kind == .option && parameter.isRequired && occurrences[index].isEmpty {
      throw .missingArgument(parameter)
    }
  }

  /// Hands the positional words to the positional parameters in declaration order; a
  /// repeated parameter (always the last) takes all that remain.
  private mutating func assignPositionals(_ words: [String]) throws(UsageError) {
    var remaining = words[...]
    for (index, parameter) in parameters.enumerated() {
      guard case .argument(let arity) = parameter.kind else { continue }
      let taken: ArraySlice<String>
      switch arity {
      case .required, .oneOrMore:
        guard !remaining.isEmpty else { throw .missingArgument(parameter) }
        taken = arity == .required ? remaining.prefix(1) : remaining
      case .optional:
        taken = remaining.prefix(1)
      case .zeroOrMore:
        taken = remaining
      }
      occurrences[index] = taken.map { Occurrence(value: $0, spelling: nil) }
      remaining = remaining.dropFirst(taken.count)
    }
    if !remaining.isEmpty { throw .unexpectedArguments(Array(remaining), of: words) }
  }
}

/// Whether a word reads as an option or flag: it starts with `-` and is neither `-`
/// alone (conventionally standard input) nor a negative number.
func isOptionLike(_ word: String) -> Bool {
  var utf8 = word.utf8.makeIterator()
  guard utf8.next() == UInt8(ascii: "-"), let second = utf8.next() else { return false }
  return !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(second) && second != UInt8(ascii: ".")
}

/// Whether the word after an option may be its value: anything but `--`, a long option
/// or one of the command's (or the built-in) short names.
private func canBeValue(_ word: String, parameters: [Parameter]) -> Bool {
  if word.hasPrefix("--") { return false }
  if word.count == 2, word.first == "-", let letter = word.last {
    return letter != "h" && !parameters.contains { $0.shortName == letter }
  }
  return true
}
