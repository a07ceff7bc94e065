public import RewindCore

/// What a navigation journal's header stores so that the session replays anywhere: the
/// catalog (with its layout, menu labels and their widths), the device's idiom, and how
/// the session started: its size class, orientation and menu viewport.
///
/// Its one serialisation is JSON (see <doc:JSONNames>), which a journal header stores as
/// compact UTF-8 text:
/// `{"catalog": {...}, "idiom": "pad", "sizeClass": "regular", "orientation": "landscape",
/// "menu": {"viewportWidth": 375.0, "scrollsTappedTabIntoView": true}}`.
public struct NavigationSettings: Equatable, Hashable, Sendable {
  /// The catalog the session browses.
  public var catalog: Catalog
  /// iPhone or iPad: whether the split view follows the orientation.
  public var idiom: DeviceIdiom
  /// The size class of the initial state.
  public var sizeClass: SizeClass
  /// The orientation of the initial state.
  public var orientation: Orientation
  /// The menu strip's visible width at the start, in points.
  public var menuViewportWidth: Double
  /// Whether tapping a tab that is partly out of view scrolls it into view. True for
  /// sessions recorded with schema 2; sessions of schema 1 were recorded by apps that
  /// recorded their own scrolling as `menuScrolled`, and are upcast with false.
  public var scrollsTappedTabIntoView: Bool

  public init(
    catalog: Catalog = .sample, idiom: DeviceIdiom = .pad, sizeClass: SizeClass = .regular,
    orientation: Orientation = .landscape,
    menuViewportWidth: Double = DeviceProfile.generic.landscapeWidth,
    scrollsTappedTabIntoView: Bool = true
  ) {
    precondition(
      Self.isValidViewportWidth(menuViewportWidth),
      "a menu viewport is wider than 0 and at most \(Self.maximumViewportWidth) points")
    self.catalog = catalog
    self.idiom = idiom
    self.sizeClass = sizeClass
    self.orientation = orientation
    self.menuViewportWidth = menuViewportWidth
    self.scrollsTappedTabIntoView = scrollsTappedTabIntoView
  }

  /// The settings of a session on `device`: its idiom, and the menu viewport as wide as
  /// its screen in `orientation` (by default the orientation the device is usually held
  /// in).
  public init(
    catalog: Catalog = .sample, device: DeviceProfile, sizeClass: SizeClass = .regular,
    orientation: Orientation? = nil
  ) {
    let orientation = orientation ?? device.naturalOrientation
    self.init(
      catalog: catalog, idiom: device.idiom, sizeClass: sizeClass, orientation: orientation,
      menuViewportWidth: device.width(in: orientation))
  }

  /// The built-in sample: espresso equipment, three columns, regular width, on the
  /// ``DeviceProfile/generic`` device.
  public static let sample = NavigationSettings()

  /// The widest menu viewport, in points: far beyond any screen, small enough that widths
  /// in sixths of a point stay exact.
  public static let maximumViewportWidth: Double = 1_000_000

  /// Whether `width` is a menu viewport width: finite, above 0, at most
  /// ``maximumViewportWidth``.
  static func isValidViewportWidth(_ width: Double) -> Bool {
    width > 0 && width <= maximumViewportWidth
  }

  /// The settings as a JSON object, every default written out.
  public var json: JSONValue {
    .object([
      ("catalog", catalog.json), ("idiom", .string(idiom.rawValue)),
      ("sizeClass", .string(sizeClass.rawValue)), ("orientation", .string(orientation.rawValue)),
      (
        "menu",
        .object([
          ("viewportWidth", .double(menuViewportWidth)),
          ("scrollsTappedTabIntoView", .bool(scrollsTappedTabIntoView)),
        ])
      ),
    ])
  }

  /// Reads settings from the object ``json`` writes. Everything but the catalog is
  /// optional: the defaults are those of the ``DeviceProfile/generic`` device (`pad`,
  /// `regular`, `landscape`, a 375-point viewport, taps scrolling into view); unknown
  /// keys are ignored.
  /// - Throws: `DomainError` naming the first bad value.
  public init(json: JSONValue) throws(DomainError) {
    try self.init(json: json, readsMenu: true) { NavigationSettings(catalog: $0) }
  }

  /// Reads the settings of schema 1 (`{"catalog": {...}, "sizeClass": "regular"}`) and
  /// upcasts them: what schema 1 did not record comes from the recording `device` (see
  /// ``DeviceProfile/init(device:)``): its idiom, the orientation it is usually held in,
  /// the viewport as wide as its screen in that orientation. Taps do not scroll the
  /// strip: schema 1's apps recorded their own scrolling.
  /// - Throws: `DomainError` naming the first bad value.
  public init(schema1 json: JSONValue, device: String) throws(DomainError) {
    let profile = DeviceProfile(device: device)
    try self.init(json: json, readsMenu: false) { catalog in
      var defaults = NavigationSettings(catalog: catalog, device: profile)
      defaults.scrollsTappedTabIntoView = false
      return defaults
    }
  }

  /// - Parameter defaults: The settings with the catalog read and everything else
  ///   defaulted (made from the catalog read, so that the sample's is never built only to
  ///   be replaced: reading a journal's header does not pay for it).
  private init(
    json: JSONValue, readsMenu: Bool, defaults makeDefaults: (Catalog) -> NavigationSettings
  ) throws(DomainError) {
    guard case .object = json else {
      throw DomainError("navigation settings must be a JSON object, found \(json.typeName)")
    }
    guard let catalogJSON = json["catalog"] else {
      throw DomainError("navigation settings need a \"catalog\" object")
    }
    let defaults = makeDefaults(try Catalog(json: catalogJSON))
    var settings = defaults
    settings.sizeClass = try Self.enumValue(json, "sizeClass", default: defaults.sizeClass)
    guard readsMenu else {
      self = settings
      return
    }
    settings.idiom = try Self.enumValue(json, "idiom", default: defaults.idiom)
    settings.orientation = try Self.enumValue(json, "orientation", default: defaults.orientation)
    if let menu = json["menu"] {
      guard case .object = menu else {
        throw DomainError("menu must be an object, found \(menu.typeName)")
      }
      if let value = menu["viewportWidth"] {
        guard let width = value.doubleValue, Self.isValidViewportWidth(width) else {
          throw DomainError(
            "menu.viewportWidth must be a number of points above 0 and at most \(Int(Self.maximumViewportWidth))"
          )
        }
        settings.menuViewportWidth = width
      }
      if let value = menu["scrollsTappedTabIntoView"] {
        guard case .bool(let flag) = value else {
          throw DomainError("menu.scrollsTappedTabIntoView must be true or false")
        }
        settings.scrollsTappedTabIntoView = flag
      }
    }
    self = settings
  }

  private static func enumValue<Value: RawRepresentable & CaseIterable>(
    _ json: JSONValue, _ key: String, default value: Value
  ) throws(DomainError) -> Value where Value.RawValue == String {
    guard let member = json[key] else { return value }
    guard let name = member.stringValue, let parsed = Value(rawValue: name) else {
      let names = Value.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: " or ")
      throw DomainError("\(key) must be \(names)")
    }
    return parsed
  }
}
