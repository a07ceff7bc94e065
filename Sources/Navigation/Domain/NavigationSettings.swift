public import RewindCore

/// What a navigation journal's header stores so that the session replays anywhere: the
/// catalog (with its layout and menu labels) and the size class the session started in.
///
/// Its one serialisation is JSON, `{"catalog": {...}, "sizeClass": "regular"}` (see
/// <doc:JSONNames>), which a journal header stores as compact UTF-8 text.
public struct NavigationSettings: Equatable, Hashable, Sendable {
  /// The catalog the session browses.
  public var catalog: Catalog
  /// The size class of the initial state.
  public var sizeClass: SizeClass

  public init(catalog: Catalog = .sample, sizeClass: SizeClass = .regular) {
    self.catalog = catalog
    self.sizeClass = sizeClass
  }

  /// The built-in sample: espresso equipment, three columns, regular width.
  public static let sample = NavigationSettings()

  /// The settings as a JSON object.
  public var json: JSONValue {
    .object([("catalog", catalog.json), ("sizeClass", .string(sizeClass.rawValue))])
  }

  /// Reads settings from the object ``json`` writes; `sizeClass` is optional (default
  /// `regular`), unknown keys are ignored.
  /// - Throws: `DomainError` naming the first bad value.
  public init(json: JSONValue) throws(DomainError) {
    guard case .object = json else {
      throw DomainError("navigation settings must be a JSON object, found \(json.typeName)")
    }
    guard let catalogJSON = json["catalog"] else {
      throw DomainError("navigation settings need a \"catalog\" object")
    }
    var sizeClass = SizeClass.regular
    if let value = json["sizeClass"] {
      guard let name = value.stringValue, let parsed = SizeClass(rawValue: name) else {
        throw DomainError("sizeClass must be \"regular\" or \"compact\"")
      }
      sizeClass = parsed
    }
    self.init(catalog: try Catalog(json: catalogJSON), sizeClass: sizeClass)
  }
}
