public import RewindCore

/// What a navigation journal's header stores so that the session replays anywhere: the
/// catalog (with its layout and menu labels) and the size class the session started in.
///
/// Stored as UTF-8 JSON: `{"catalog": {...}, "sizeClass": "regular"}` (see
/// <doc:JSONNames>); `Codable` with the same keys.
public struct NavigationSettings: Equatable, Hashable, Sendable {
  /// The largest settings blob accepted, in bytes: headers are untrusted input.
  public static let maximumBlobSize = 1 << 20

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

  /// The settings blob: ``json`` as compact UTF-8 text, the same bytes on every platform.
  public var blob: [UInt8] { Array(json.compactText.utf8) }

  /// Reads settings from a blob ``blob`` wrote.
  /// - Throws: `DomainError` if the blob is larger than ``maximumBlobSize``, not UTF-8,
  ///   not JSON, or not valid settings.
  public init(blob: [UInt8]) throws(DomainError) {
    guard blob.count <= Self.maximumBlobSize else {
      throw DomainError(
        "navigation settings are \(blob.count) bytes; the limit is \(Self.maximumBlobSize)")
    }
    guard let text = String(validating: blob, as: UTF8.self) else {
      throw DomainError("navigation settings are not valid UTF-8")
    }
    let json: JSONValue
    do {
      json = try JSONValue(parsing: text)
    } catch {
      throw DomainError("navigation settings are not valid JSON: \(error)")
    }
    try self.init(json: json)
  }
}

extension NavigationSettings: Codable {
  private enum CodingKeys: String, CodingKey {
    case catalog
    case sizeClass
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      catalog: try container.decode(Catalog.self, forKey: .catalog),
      sizeClass: try container.decodeIfPresent(SizeClass.self, forKey: .sizeClass) ?? .regular)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(catalog, forKey: .catalog)
    try container.encode(sizeClass, forKey: .sizeClass)
  }
}
