public import RewindCore
import RewindJournal

/// Scenario scripts: sessions written by hand, one interaction per line, for recordings
/// and tests (`rewind record`). The format is described in `ScenarioScript.help` (`rewind help
/// scenario`) and `Journals/README.md`.
///
/// ```
/// # iPhone: browse, go back, rotate
/// layout three-column
/// size compact
///
/// select category Grinders
/// +0.8s select item swift-mini
/// +1.2s back
/// ```
public enum ScenarioScript {
  /// The pause before an interaction whose line gives no time step.
  public static let defaultStep: UInt64 = 500_000

  /// The interactions a line can start with.
  package static let interactions = [
    "tap", "scroll", "resize", "select", "expand", "collapse", "visibility", "style", "size",
    "rotate", "back",
  ]

  /// Parses a script.
  ///
  /// - Parameters:
  ///   - text: the script.
  ///   - directory: where a `catalog FILE` setting is looked up.
  /// - Throws: `ScenarioError` with the line and column of the first problem and what
  ///   was expected there.
  public static func parse(_ text: String, directory: String = ".") throws(ScenarioError)
    -> Scenario<NavigationDomain>
  {
    var reader = Reader(directory: directory)
    return try reader.readAll(text)
  }

  /// A navigation script read a few lines at a time: ``NavigationDomain``'s scenario
  /// reader (`RecordableDomain.ScenarioReader`).
  public struct Reader: ScenarioScriptReader {
    var parser: ScenarioParser
    var lines = 0

    /// A reader of a script whose `catalog FILE` setting is looked up in `directory`.
    public init(directory: String = ".") { parser = ScenarioParser(directory: directory) }

    public mutating func read(
      _ text: Substring, _ visit: (ScenarioScriptLine<NavigationEvent>) -> Void
    ) throws(ScenarioError) {
      // "\r\n" is one Character: a line break too.
      for line in scriptLines(text, first: lines == 0, isBreak: { $0 == "\n" || $0 == "\r\n" }) {
        lines += 1
        if let read = try parser.parse(line: line, number: lines) { visit(read) }
      }
    }

    public func session() throws(ScenarioError) -> Scenario<NavigationDomain> {
      parser.session()
    }
  }
}

/// The words of one line, with the column each starts at.
struct ScenarioLine {
  var words: [(text: Substring, column: Int)]
  let number: Int

  init(_ line: Substring, number: Int) {
    self.number = number
    if let words = Self.asciiWords(line) {
      self.words = words
      return
    }
    var words: [(Substring, Int)] = []
    var content = line
    if let hash = content.firstIndex(of: "#") { content = content[..<hash] }
    var index = content.startIndex
    var column = 1
    while index < content.endIndex {
      if content[index].isWhitespace {
        index = content.index(after: index)
        column += 1
        continue
      }
      let start = index
      let startColumn = column
      while index < content.endIndex && !content[index].isWhitespace {
        index = content.index(after: index)
        column += 1
      }
      words.append((content[start..<index], startColumn))
    }
    self.words = words
  }

  /// The words of an ASCII line, cut byte by byte (a byte is a character, and the
  /// whitespace is tab, line feed, vertical tab, form feed, carriage return and space);
  /// nil for a line with another character, cut character by character.
  private static func asciiWords(_ line: Substring) -> [(text: Substring, column: Int)]? {
    let utf8 = line.utf8
    return utf8.withContiguousStorageIfAvailable { bytes -> [(text: Substring, column: Int)]? in
      var words: [(text: Substring, column: Int)] = []
      var start: Int?
      func cut(_ end: Int) {
        guard let first = start else { return }
        let from = utf8.index(utf8.startIndex, offsetBy: first)
        words.append((line[from..<utf8.index(from, offsetBy: end - first)], first + 1))
        start = nil
      }
      for index in 0..<bytes.count {
        let byte = bytes[index]
        if byte >= 0x80 { return nil }
        if byte == UInt8(ascii: "#") {
          // The rest is a comment, but the line is cut as text if it is not ASCII.
          cut(index)
          return bytes[index...].allSatisfy { $0 < 0x80 } ? words : nil
        }
        if byte == 0x20 || (0x09...0x0D).contains(byte) {
          cut(index)
        } else if start == nil {
          start = index
        }
      }
      cut(bytes.count)
      return words
    } ?? nil
  }

  /// The error `message` at word `word` (the line's end when nil); `choices` are what
  /// that word could have been (see `ScenarioError.choices`).
  func error(_ message: String, at word: Int? = nil, choices: [String] = []) -> ScenarioError {
    let column: Int
    if let word, word < words.count {
      column = words[word].column
    } else {
      column = words.last.map { $0.column + $0.text.count } ?? 1
    }
    let text =
      choices.isEmpty ? "" : word.flatMap { $0 < words.count ? String(words[$0].text) : nil }
    return ScenarioError(line: number, column: column, message, word: text ?? "", choices: choices)
  }

  /// The words from `index` on, joined by single spaces.
  func rest(from index: Int) -> String {
    words[index...].map { String($0.text) }.joined(separator: " ")
  }
}

struct ScenarioParser {
  let directory: String
  /// The layout a `layout` line gives; nil for the catalog file's, or three columns.
  var layout: SplitLayout?
  /// The size class a `size` line gives; nil for the device's (``DeviceProfile/naturalSizeClass``).
  var sizeClass: SizeClass?
  var orientation: Orientation?
  var catalogSource: Catalog?
  /// The whole settings, from a `settings JSON` line: the layout, size, orientation,
  /// catalog and the device's idiom and menu width are theirs.
  var settings: NavigationSettings?
  var device: String?
  var startTime: Int64?
  var time: UInt64 = 0
  var started = false
  /// The catalog interactions are checked against, fixed at the first interaction.
  var domain: NavigationDomain?
  /// The interactions read so far.
  var events = 0
  /// The files read (catalogs).
  var files: [String] = []
  /// The line of each setting given so far: each is given at most once.
  var settingLines: [Setting: Int] = [:]

  init(directory: String) { self.directory = directory }

  /// Reads a line: the event or expectation it gives, nil for a setting, a comment or a
  /// blank line.
  mutating func parse(line text: Substring, number: Int) throws(ScenarioError)
    -> ScenarioScriptLine<NavigationEvent>?
  {
    var line = ScenarioLine(text, number: number)
    guard let first = line.words.first else { return nil }
    if !started, let setting = Setting(rawValue: first.text.lowercased()) {
      if setting == .settings {
        // JSON to the line's end: a `#` in it is text, not a comment.
        let column = first.column + first.text.count
        try applySettings(String(text[text.index(text.startIndex, offsetBy: column - 1)...]), line)
      } else {
        try apply(setting, line)
      }
      return nil
    }
    if domain == nil { domain = makeDomain() }
    started = true
    if first.text.lowercased() == "expect" {
      let column = first.column + first.text.count
      let rest = text[text.index(text.startIndex, offsetBy: column - 1)...]
      let content = rest.firstIndex(of: "#").map { rest[..<$0] } ?? rest
      return .expectation(
        try ScenarioExpectation.parse(
          String(content), domain: domain!, line: number, column: column, afterEvents: events))
    }
    // A time step: +0.8s (after the previous interaction, or the start for the first) or
    // @12.5s (from the start). Without one, the first interaction is at the start.
    var step = events == 0 ? 0 : ScenarioScript.defaultStep
    var absolute: UInt64?
    if let timeStep = try ScriptTimeStep.parse(first.text, problem: { line.error($0, at: 0) }) {
      if case .at = timeStep { absolute = timeStep.amount } else { step = timeStep.amount }
      guard line.words.count > 1 else {
        throw line.error("expected an interaction after the time step")
      }
      if let absolute, absolute < time {
        throw line.error(
          "@\(Point.formatOffset(absolute)) is before the previous interaction at +\(Point.formatOffset(time))",
          at: 0)
      }
      line.words.removeFirst()
    }
    if let absolute {
      time = absolute
    } else {
      time += step
    }
    guard time <= ScriptTimeStep.latestTime else {
      throw line.error(
        ScriptTimeStep.tooLateMessage,
        at: 0)
    }
    let event = try interaction(line)
    events += 1
    return .event(TimedEvent(time: time, event: event))
  }

  enum Setting: String {
    case layout, size, orientation, catalog, device, start, settings
  }

  /// The settings `settings` gives whole, and those a `settings` line stands for.
  static let coveredBySettings: [Setting] = [.layout, .size, .orientation, .catalog]

  /// Notes that `setting` is given on `line`, refusing it when it was given before, or
  /// when it and a `settings` line would both set the same settings.
  mutating func note(_ setting: Setting, _ line: ScenarioLine) throws(ScenarioError) {
    if let earlier = settingLines[setting] {
      // `size` is an interaction too, but only after the first one.
      let hint =
        setting == .size ? "; after the first interaction, 'size' changes the size class" : ""
      throw line.error(
        "the '\(setting.rawValue)' setting is given twice, on line \(earlier) and here\(hint)",
        at: 0)
    }
    let others = setting == .settings ? Self.coveredBySettings : [.settings]
    if Self.coveredBySettings.contains(setting) || setting == .settings,
      let other = others.first(where: { settingLines[$0] != nil }),
      let earlier = settingLines[other]
    {
      throw line.error(
        "'settings' gives the whole settings, the layout, size, orientation and catalog among them: the '\(other.rawValue)' setting on line \(earlier) and '\(setting.rawValue)' here cannot both be given",
        at: 0)
    }
    settingLines[setting] = line.number
  }

  /// A `settings JSON` line: the session's settings, as a journal's header holds them
  /// (`rewind info --json` shows them under `settings`).
  mutating func applySettings(_ text: String, _ line: ScenarioLine) throws(ScenarioError) {
    try note(.settings, line)
    guard line.words.count >= 2 else {
      throw line.error("expected the settings' JSON after 'settings'")
    }
    let json: JSONValue
    do {
      json = try JSONValue(parsing: text)
    } catch {
      // The likely slip: a comment after the JSON, which is read as part of it.
      let comment =
        text.contains("#") ? "; a settings line is JSON to its end, a # in it not a comment" : ""
      throw line.error("the settings are not JSON: \(error)\(comment)", at: 1)
    }
    do throws(DomainError) {
      settings = try NavigationSettings(json: json)
    } catch {
      throw line.error("the settings are not the navigation domain's: \(error.message)", at: 1)
    }
  }

  mutating func apply(_ setting: Setting, _ line: ScenarioLine) throws(ScenarioError) {
    try note(setting, line)
    guard line.words.count >= 2 else {
      throw line.error("expected a value after '\(setting.rawValue)'")
    }
    let value = line.words[1].text
    switch setting {
    case .layout:
      guard let parsed = Self.layout(value) else {
        throw line.error(
          "expected three-column or two-column, found \(Format.quoted(value))", at: 1,
          choices: ["three-column", "two-column"])
      }
      layout = parsed
    case .size:
      sizeClass = try Self.sizeClass(value, line, at: 1)
    case .orientation:
      guard let parsed = Self.orientation(value) else {
        throw line.error(
          "expected portrait or landscape, found \(Format.quoted(value))", at: 1,
          choices: ["portrait", "landscape"])
      }
      orientation = parsed
    case .catalog:
      // A keyword in any case, as the others (a file of that name is `./Sample`).
      if value.lowercased() == "sample" {
        catalogSource = nil
      } else {
        let path = value.hasPrefix("/") ? String(value) : directory + "/" + value
        let text: String
        do throws(TextFileError) {
          // A catalog is stored in the journal's settings, which have a size bound.
          text = try TextFileReader.text(
            ofFile: path, atMost: JournalLimits.maximumSettingsSize, describedAs: "a catalog file")
        } catch {
          throw line.error("cannot read the catalog file: \(error)", at: 1)
        }
        files.append(path)
        do {
          catalogSource = try Catalog(json: JSONValue(parsing: text))
        } catch {
          throw line.error("the catalog file \(path) is not a valid catalog: \(error)", at: 1)
        }
      }
    case .device:
      let text = line.rest(from: 1)
      if let problem = TerminalText.controlCharacterProblem(in: text, describedAs: "the device") {
        throw line.error(problem, at: 1)
      }
      guard text.utf8.count <= JournalLimits.maximumDeviceLength else {
        throw line.error(
          "the device is \(Format.count(text.utf8.count)) bytes long; a journal holds at most \(Format.count(JournalLimits.maximumDeviceLength))",
          at: 1)
      }
      device = text
    case .start:
      guard let time = ISO8601.parse(String(value)) else {
        throw line.error("expected an ISO-8601 time such as 2026-11-30T09:00:00Z", at: 1)
      }
      startTime = time
    case .settings: preconditionFailure("a settings line is read by applySettings")
    }
    guard line.words.count == 2 || setting == .device else {
      throw line.error(
        "unexpected \(Format.quoted(line.words[2].text)) after the \(setting.rawValue)", at: 2)
    }
  }

  /// The session's domain: the catalog in the script's layout, on the device it names
  /// (``DeviceProfile/init(device:)``), which gives the idiom and, with the orientation,
  /// the menu viewport's width.
  func makeDomain() -> NavigationDomain {
    if let settings { return NavigationDomain(settings) }
    let catalog: Catalog
    if let source = catalogSource {
      catalog =
        (try? Catalog(
          layout: layout ?? source.layout, menuLabels: source.menuLabels,
          menuLabelWidths: source.menuLabelWidths,
          categories: source.tree))
        ?? source
    } else {
      catalog = .sample(layout: layout ?? .threeColumn)
    }
    let profile = DeviceProfile(device: device ?? "")
    return NavigationDomain(
      NavigationSettings(
        catalog: catalog, device: profile, sizeClass: sizeClass ?? profile.naturalSizeClass,
        orientation: orientation))
  }

  /// The session the settings read so far set up, without events or expectations.
  func session() -> Scenario<NavigationDomain> {
    Scenario(
      domain: domain ?? makeDomain(), device: device, startTime: startTime, events: [],
      files: files)
  }

  /// Whether `text` is written as an integer (`12`, `-3`, `99999999999999999999`), whether
  /// or not it fits in an `Int`.
  static func isWholeNumber(_ text: String) -> Bool {
    let digits = text.first == "-" || text.first == "+" ? text.dropFirst() : Substring(text)
    return !digits.isEmpty && digits.allSatisfy { $0.isASCII && $0.isNumber }
  }

  /// Lowercased, without dashes or underscores: `double-column` → `doublecolumn`.
  static func normalized(_ word: Substring) -> String {
    word.lowercased().filter { $0 != "-" && $0 != "_" }
  }

  /// The layout a word names, as the `layout` setting and `rewind live --layout` read it:
  /// `three-column` or `threeColumn` (any case, with `-`, `_` or nothing between the
  /// words), or `three`; likewise for two columns. Nil for any other word.
  static func layout(_ value: Substring) -> SplitLayout? {
    switch normalized(value) {
    case "threecolumn", "three": .threeColumn
    case "twocolumn", "two": .twoColumn
    default: nil
    }
  }

  static func orientation(_ value: Substring) -> Orientation? {
    switch normalized(value) {
    case "portrait": .portrait
    case "landscape": .landscape
    default: nil
    }
  }

  static func sizeClass(_ value: Substring, _ line: ScenarioLine, at index: Int)
    throws(ScenarioError) -> SizeClass
  {
    switch normalized(value) {
    case "compact": return .compact
    case "regular": return .regular
    default:
      throw line.error(
        "expected compact or regular, found \(Format.quoted(value))", at: index,
        choices: ["compact", "regular"])
    }
  }

  func interaction(_ line: ScenarioLine) throws(ScenarioError) -> NavigationEvent {
    let verb = line.words[0].text.lowercased()
    func argument(_ index: Int, _ what: String) throws(ScenarioError) -> Substring {
      guard index < line.words.count else { throw line.error("expected \(what)") }
      return line.words[index].text
    }
    func noMore(after index: Int) throws(ScenarioError) {
      guard line.words.count <= index + 1 else {
        throw line.error("unexpected \(Format.quoted(line.words[index + 1].text))", at: index + 1)
      }
    }
    switch verb {
    case "tap":
      let label = line.rest(from: 1)
      guard !label.isEmpty else { throw line.error("expected a tab label or index after 'tap'") }
      if let index = Int(label) { return .menuTabTapped(index: index) }
      let labels = domain!.catalog.menuLabels
      if Self.isWholeNumber(label) {
        // A number too large for an index: no tab has it, and no event can carry it.
        throw line.error(
          "\(label) is not a tab index: the menu has \(NavigationRejection.tabs(labels.count))",
          at: 1)
      }
      // The label as written (canonically equal), else in any case; one tab either way.
      var matches = labels.indices.filter { labels[$0] == label }
      if matches.isEmpty {
        matches = labels.indices.filter { labels[$0].lowercased() == label.lowercased() }
      }
      guard let index = matches.first else {
        throw line.error(
          "no tab is labelled \(Format.quoted(label)); the tabs are \(labels.joined(separator: ", "))",
          at: 1, choices: labels)
      }
      guard matches.count == 1 else {
        let tabs = matches.map { "\($0) (\(Format.quoted(labels[$0])))" }
        throw line.error(
          "\(Format.quoted(label)) labels several tabs: \(tabs.joined(separator: ", ")); tap one by its index",
          at: 1)
      }
      return .menuTabTapped(index: index)
    case "scroll":
      let text = try argument(1, "an offset in points after 'scroll'")
      guard let offset = Double(text) else {
        throw line.error(
          "expected an offset in points such as 140.5, found \(Format.quoted(text))", at: 1)
      }
      try noMore(after: 1)
      return .menuScrolled(offset: offset)
    case "select":
      let what = try argument(1, "'category' or 'item' after 'select'").lowercased()
      let name = line.rest(from: 2)
      guard !name.isEmpty else { throw line.error("expected a name, an id or 'none'") }
      switch what {
      case "category":
        return .categorySelected(name.lowercased() == "none" ? nil : try node(name, line, at: 2))
      case "item":
        return .itemSelected(name.lowercased() == "none" ? nil : try node(name, line, at: 2))
      default:
        throw line.error(
          "expected 'category' or 'item', found \(Format.quoted(line.words[1].text))", at: 1,
          choices: ["category", "item"])
      }
    case "expand", "collapse":
      let name = line.rest(from: 1)
      guard !name.isEmpty else { throw line.error("expected an item's name or id after '\(verb)'") }
      let ref = try node(name, line, at: 1)
      return verb == "expand" ? .itemExpanded(ref) : .itemCollapsed(ref)
    case "visibility":
      let value = try argument(1, "automatic, all, double-column or detail-only")
      try noMore(after: 1)
      switch Self.normalized(value) {
      case "automatic": return .columnVisibilityChanged(.automatic)
      case "all": return .columnVisibilityChanged(.all)
      case "doublecolumn": return .columnVisibilityChanged(.doubleColumn)
      case "detailonly": return .columnVisibilityChanged(.detailOnly)
      default:
        throw line.error(
          "expected automatic, all, double-column or detail-only, found \(Format.quoted(value))",
          at: 1, choices: ["automatic", "all", "double-column", "detail-only"])
      }
    case "style":
      let value = try argument(1, "automatic, balanced or prominent-detail")
      try noMore(after: 1)
      switch Self.normalized(value) {
      case "automatic": return .splitStyleChanged(.automatic)
      case "balanced": return .splitStyleChanged(.balanced)
      case "prominentdetail": return .splitStyleChanged(.prominentDetail)
      default:
        throw line.error(
          "expected automatic, balanced or prominent-detail, found \(Format.quoted(value))", at: 1,
          choices: ["automatic", "balanced", "prominent-detail"])
      }
    case "rotate":
      let value = try argument(1, "portrait or landscape (or compact or regular)")
      try noMore(after: 1)
      if let orientation = Self.orientation(value) { return .orientationChanged(orientation) }
      // An iPhone's rotation, as scripts of schema 1 wrote it: a size-class change.
      guard Self.normalized(value) == "compact" || Self.normalized(value) == "regular" else {
        throw line.error(
          "expected portrait or landscape (or compact or regular), found \(Format.quoted(value))",
          at: 1, choices: ["portrait", "landscape", "compact", "regular"])
      }
      return .sizeClassChanged(try Self.sizeClass(value, line, at: 1))
    case "size":
      let value = try argument(1, "compact or regular")
      try noMore(after: 1)
      return .sizeClassChanged(try Self.sizeClass(value, line, at: 1))
    case "resize":
      let text = try argument(1, "the menu viewport's new width in points after 'resize'")
      guard let width = Double(text) else {
        throw line.error(
          "expected a width in points such as 834, found \(Format.quoted(text))", at: 1)
      }
      try noMore(after: 1)
      return .menuViewportResized(width: width)
    case "back":
      try noMore(after: 0)
      return .backTapped
    case "layout", "catalog", "device", "start", "orientation":
      throw line.error("the '\(verb)' setting must come before the first interaction", at: 0)
    default:
      throw line.error(
        "expected an interaction (\(ScenarioScript.interactions.joined(separator: ", "))), found \(Format.quoted(line.words[0].text))",
        at: 0, choices: ScenarioScript.interactions)
    }
  }

  /// A catalog node named by its id, its name, or the last part of its id; `id:TEXT` is
  /// taken as an id even if the catalog lacks it (to record invalid interactions).
  func node(_ name: String, _ line: ScenarioLine, at index: Int) throws(ScenarioError) -> NodeRef {
    let domain = domain!
    let catalog = domain.catalog
    if name.hasPrefix("id:") {
      do throws(DomainError) {
        return try domain.inputRef(String(name.dropFirst(3)))
      } catch {
        throw line.error(error.message, at: index)
      }
    }
    // A control character is never part of a name; matching the rest would hide it.
    if let problem = TerminalText.controlCharacterProblem(in: name, describedAs: "the name") {
      throw line.error(problem, at: index)
    }
    if let ref = catalog.ref(of: name) { return ref }
    let lowered = name.lowercased()
    let slug = Catalog.slug(name)
    let matches = catalog.allNodes.filter { ref in
      catalog.name(of: ref).lowercased() == lowered
        || catalog.id(of: ref).split(separator: "/").last.map(String.init) == slug
    }
    if matches.count == 1 { return matches[0] }
    if matches.isEmpty {
      var error = line.error(
        "nothing in the catalog is called \(Format.quoted(name)); write its id (e.g. espresso-machines/leva) or id:TEXT for an id the catalog lacks",
        at: index)
      // The names, then the ids: a name misspelt is most likely meant by its name.
      (error.word, error.choices) = (
        name,
        catalog.allNodes.map { catalog.name(of: $0) } + catalog.allNodes.map { catalog.id(of: $0) }
      )
      throw error
    }
    throw line.error(
      "\(Format.quoted(name)) is ambiguous: \(matches.map { catalog.id(of: $0) }.joined(separator: ", ")); write the id",
      at: index)
  }
}
