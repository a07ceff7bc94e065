import RewindCore

extension Catalog {
  /// The bounds a catalog must stay within. Catalogs arrive in journal headers, which are
  /// untrusted input, so every size is bounded before anything is built from it.
  public enum Limits {
    /// The most nodes (categories and items together).
    public static let maximumNodes = 4_096
    /// The deepest nesting: categories are depth 0, so this allows 7 levels of items.
    public static let maximumDepth = 7
    /// The longest name, label or image name, in UTF-8 bytes.
    public static let maximumNameLength = 128
    /// The longest identifier, in UTF-8 bytes (also the binary codec's limit).
    public static let maximumIdentifierLength = 1_024
    /// The most menu labels.
    public static let maximumMenuLabels = 64
    /// The widest a menu label may be, in points.
    public static let maximumLabelWidth: Double = 10_000
  }

  /// The width of a menu label's cell when the catalog does not give one, in points: the
  /// system font at 17 points draws a label about 11 points a character, with 20 points
  /// of padding each side (characters counted as Unicode scalars, which do not depend on
  /// the platform's grapheme rules). `Monday` is 106 points, the sample's strip 830.
  public static func labelWidth(_ label: String) -> Double {
    Double(label.unicodeScalars.count * 11 + 40)
  }

  /// The identifier component made from a name: its letters and digits, in any script,
  /// lowercased; every run of other characters (spaces, punctuation, symbols and emoji)
  /// turned into one `-`, with no leading or trailing `-`. Combining marks stay with the
  /// letter they follow (the vowel signs of Devanagari, say).
  ///
  /// `"Espresso Machines"` → `espresso-machines`, `"Linea PB X"` → `linea-pb-x`,
  /// `"KB90"` → `kb90`, `"Café ☕"` → `café`, `"日本"` → `日本`.
  ///
  /// The name is normalised to NFC before and the slug after lowercasing, so a name
  /// typed with a combining accent (`e` + U+0301) and one typed precomposed (`é`) make
  /// the same id. The letters, digits and lowercase forms are Unicode's, as the standard
  /// library knows them; an ASCII name's slug never depends on them.
  /// - Returns: the slug; empty if the name has no letter or digit.
  public static func slug(_ name: String) -> String {
    asciiSlug(name) ?? unicodeSlug(name)
  }

  /// ``slug(_:)`` of an ASCII name, from its bytes: its letters and digits lowercased,
  /// every run of other bytes one `-` (ASCII has no marks, and is its own NFC); nil when
  /// the name is not ASCII.
  static func asciiSlug(_ name: String) -> String? {
    var name = name
    return name.withUTF8 { bytes -> String? in
      var kept: [UInt8] = []
      kept.reserveCapacity(bytes.count)
      var pendingDash = false
      for byte in bytes {
        guard byte < 0x80 else { return nil }
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
          if pendingDash && !kept.isEmpty { kept.append(UInt8(ascii: "-")) }
          pendingDash = false
          kept.append(byte)
        case UInt8(ascii: "A")...UInt8(ascii: "Z"):
          if pendingDash && !kept.isEmpty { kept.append(UInt8(ascii: "-")) }
          pendingDash = false
          kept.append(byte + 0x20)
        default:
          pendingDash = true
        }
      }
      return String(decoding: kept, as: UTF8.self)
    }
  }

  /// ``slug(_:)`` of any name, by Unicode's categories.
  static func unicodeSlug(_ name: String) -> String {
    var kept = String.UnicodeScalarView()
    var pendingDash = false
    var previousKept = false
    for scalar in nfc(name).unicodeScalars {
      let keep: Bool
      switch scalar.properties.generalCategory {
      case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
        .decimalNumber:
        keep = true
      case .nonspacingMark, .spacingMark, .enclosingMark:
        keep = previousKept
      default:
        keep = false
      }
      if keep {
        if pendingDash && !kept.isEmpty { kept.append("-") }
        pendingDash = false
        kept.append(scalar)
      } else {
        pendingDash = true
      }
      previousKept = keep
    }
    return nfc(String(kept).lowercased())
  }

  /// `text` in Unicode's Normalization Form C, as the standard library normalises strings
  /// to compare them, without linking Foundation. The standard library makes it public
  /// only under an underscored name: `SlugNormalizationTests` holds it to Foundation's
  /// `precomposedStringWithCanonicalMapping` on every toolchain the tests run on. They
  /// differ only in Hangul, where Foundation on Linux strays from Unicode's composition:
  /// it leaves a precomposed syllable and a following final consonant apart, and composes
  /// archaic vowels into syllables they do not belong to.
  private static func nfc(_ text: String) -> String {
    String(decoding: text._nfcCodeUnits, as: UTF8.self)
  }

  /// Checks a display text (name, label, image name): bounded, and without control
  /// characters (see `TerminalText.isControl(_:)`), which a terminal would obey and no
  /// name can mean.
  /// - Parameter what: What the text is, as a sentence starts: `the menu label 3`.
  static func validateText(_ text: String, _ what: @autoclosure () -> String, allowEmpty: Bool)
    throws(DomainError)
  {
    if text.isEmpty && !allowEmpty { throw DomainError("\(what()) is empty") }
    guard text.utf8.count <= Limits.maximumNameLength else {
      throw DomainError(
        "\(what()) is \(text.utf8.count) bytes long; the limit is \(Limits.maximumNameLength)")
    }
    // `what` is made only for a text that has a control character.
    if TerminalText.firstControlCharacter(in: text) != nil,
      let problem = TerminalText.controlCharacterProblem(in: text, describedAs: what())
    {
      throw DomainError(problem)
    }
  }

  /// The flat tables built from a tree, validated.
  struct Tables {
    var nodes: [NodeInfo] = []
    var childIndices: [UInt32] = []
    var categoryIndices: [UInt32] = []
    var ids: [String] = []
    var names: [String] = []
    var images: [String] = []
    var indexByID: [String: UInt32] = [:]

    init(menuLabels: [String], categories: [Node]) throws(DomainError) {
      guard (1...Limits.maximumMenuLabels).contains(menuLabels.count) else {
        throw DomainError(
          "the menu needs 1 to \(Limits.maximumMenuLabels) labels, found \(menuLabels.count)")
      }
      for (position, label) in menuLabels.enumerated() {
        try validateText(label, "the menu label \(position + 1)", allowEmpty: false)
      }
      guard !categories.isEmpty else { throw DomainError("the catalog has no categories") }
      guard categories.count <= Limits.maximumNodes else {
        throw DomainError(tooManyNodes)
      }
      for (position, category) in categories.enumerated() {
        categoryIndices.append(UInt32(nodes.count))
        try add(category, position: position, parent: nil, parentID: "", depth: 0)
      }
    }

    private var tooManyNodes: String {
      "the catalog has more than \(Limits.maximumNodes) nodes"
    }

    /// Adds `node` and its subtree in pre-order; recursion is bounded by the depth limit.
    /// A node's children are appended to `childIndices` as one run once they are all added.
    private mutating func add(
      _ node: Node, position: Int, parent: UInt32?, parentID: String, depth: Int
    ) throws(DomainError) {
      // Where the node is, as errors name it; made only for an error.
      func place() -> String {
        parentID.isEmpty
          ? "top-level category \(position + 1)"
          : "item \(position + 1) of \(Format.quoted(parentID, quote: "\""))"
      }
      guard depth <= Limits.maximumDepth else {
        throw DomainError(
          "the catalog is nested deeper than \(Limits.maximumDepth + 1) levels at \(place())")
      }
      guard nodes.count < Limits.maximumNodes else { throw DomainError(tooManyNodes) }
      try validateText(node.name, "the name of \(place())", allowEmpty: false)
      let slug = Catalog.slug(node.name)
      guard !slug.isEmpty else {
        throw DomainError(
          "the name \(Format.quoted(node.name, quote: "\"")) of \(place()) has no letter or digit to make an id from; "
            + "give it one")
      }
      let id = parentID.isEmpty ? slug : parentID + "/" + slug
      guard id.utf8.count <= Limits.maximumIdentifierLength else {
        throw DomainError(
          "the id of \(place()) is longer than \(Limits.maximumIdentifierLength) bytes")
      }
      try validateText(
        node.image, "the image name of \(Format.quoted(id, quote: "\""))", allowEmpty: true)
      let index = UInt32(nodes.count)
      if let existing = indexByID.updateValue(index, forKey: id) {
        throw DomainError(
          "duplicate id \(Format.quoted(id, quote: "\"")): the names \(Format.quoted(names[Int(existing)], quote: "\"")) and \(Format.quoted(node.name, quote: "\"")) "
            + "make the same slug; rename one")
      }
      let category = parent.map { nodes[Int($0)].category } ?? index
      // A placeholder row until the subtree is known.
      nodes.append(
        NodeInfo(
          parent: parent ?? .max, category: category, subtreeEnd: 0, firstChild: 0,
          childCount: 0, depth: UInt8(depth)))
      ids.append(id)
      names.append(node.name)
      images.append(node.image)
      var children: [UInt32] = []
      children.reserveCapacity(node.children.count)
      for (childPosition, child) in node.children.enumerated() {
        children.append(UInt32(nodes.count))
        try add(child, position: childPosition, parent: index, parentID: id, depth: depth + 1)
      }
      nodes[Int(index)] = NodeInfo(
        parent: parent ?? .max, category: category, subtreeEnd: UInt32(nodes.count),
        firstChild: UInt32(childIndices.count), childCount: UInt32(children.count),
        depth: UInt8(depth))
      childIndices.append(contentsOf: children)
    }
  }
}
