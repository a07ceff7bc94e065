import Navigation
import RewindCore
import Testing

@Suite("Settings: the journal header's catalog")
struct SettingsTests {
  @Test("the header stores the compact JSON, which round-trips")
  func blob() throws {
    let domain = NavigationDomain(catalog: .sample(layout: .twoColumn), sizeClass: .compact)
    let text = String(decoding: domain.settingsBlob, as: UTF8.self)
    #expect(text.hasPrefix(#"{"catalog":{"layout":"twoColumn","menuLabels":["Monday","#))
    #expect(text.contains(#""menuLabelWidths":[106.0,117.0,139.0,128.0,106.0,128.0,106.0]"#))
    #expect(
      text.hasSuffix(
        #""idiom":"pad","sizeClass":"compact","orientation":"landscape","menu":{"viewportWidth":375.0,"scrollsTappedTabIntoView":true}}"#
      ))
    let reloaded = try NavigationDomain(settingsBlob: domain.settingsBlob)
    #expect(reloaded.catalog == domain.catalog)
    #expect(reloaded.initialSizeClass == .compact)
    #expect(reloaded.settingsBlob == domain.settingsBlob)
    #expect(reloaded.initialState == domain.initialState)
    let fromJSON = try NavigationDomain(settingsJSON: domain.settingsJSON)
    #expect(fromJSON.settingsJSON == domain.settingsJSON)
  }

  @Test("everything but the catalog is optional in the settings")
  func defaults() throws {
    let json = JSONValue.object([("catalog", Catalog.sample.json)])
    #expect(try NavigationSettings(json: json) == .sample)
    #expect(try NavigationSettings(json: Fixtures.schema1Settings) == .sample)
    let menu = try JSONValue(
      parsing: #"{"catalog":{"menuLabels":["A"],"categories":[{"name":"A"}]},"menu":{}}"#)
    #expect(try NavigationSettings(json: menu).menuViewportWidth == 375)
  }

  @Test(
    "schema 1's settings are upcast from the recording device",
    arguments: [
      ("iPhone 15, iOS 18.1", DeviceIdiom.phone, Orientation.portrait, 393.0),
      ("iPhone 15 Pro Max, iOS 18.1", .phone, .portrait, 430),
      ("iPad Pro 11-inch (M4), iPadOS 18.1", .pad, .landscape, 1210),
      ("iPad mini, iPadOS 18.1", .pad, .landscape, 1133),
      ("rewind generate --seed 42", .pad, .landscape, 375),
      ("", .pad, .landscape, 375),
    ])
  func schema1(device: String, idiom: DeviceIdiom, orientation: Orientation, width: Double)
    throws
  {
    let settings = try NavigationSettings(schema1: Fixtures.schema1Settings, device: device)
    #expect(settings.catalog == .sample)
    #expect(settings.sizeClass == .regular)
    #expect(settings.idiom == idiom)
    #expect(settings.orientation == orientation)
    #expect(settings.menuViewportWidth == width)
    // Schema 1's apps recorded their own scrolling: a tap only selects.
    #expect(!settings.scrollsTappedTabIntoView)
    // The domain built to upcast reads schema 1, and writes schema 2's settings.
    let domain = try NavigationDomain(
      settingsJSON: Fixtures.schema1Settings,
      upcastingFrom: RecordedSchema(version: 1, device: device))
    #expect(domain.settings == settings)
    #expect(domain.readsSchemaVersion == 1)
    #expect(try NavigationSettings(json: domain.settingsJSON) == settings)
  }

  @Test(
    "device profiles: the longest known name that starts the text, as a whole word",
    arguments: [
      ("iPhone 15 Pro Max, iOS 18.1", "iPhone 15 Pro Max"), ("iPhone 15 Pro", "iPhone 15 Pro"),
      ("iPhone 15", "iPhone 15"), ("iPhone 150", "iPhone"),
      ("iPad Pro 13-inch (M4)", "iPad Pro 13-inch"),
      ("iPad (10th generation)", "iPad"), ("iPadOS simulator", "generic"), ("Pixel 9", "generic"),
    ])
  func profiles(device: String, name: String) {
    #expect(DeviceProfile(device: device).name == name)
  }

  @Test(
    "bad blobs are refused with a clear message",
    arguments: [
      (Array("[]".utf8), "navigation settings must be a JSON object, found an array"),
      (Array("{}".utf8), #"navigation settings need a "catalog" object"#),
      ([0xFF, 0xFE], "the settings are not valid UTF-8"),
      (
        Array(#"{"catalog":{}, "#.utf8),
        "the settings are not valid JSON: line 1, column 16: expected a quoted key, found the end of the text"
      ),
      (
        Array(
          #"{"catalog":{"menuLabels":["A"],"categories":[{"name":"A"}]},"sizeClass":"tiny"}"#.utf8),
        #"sizeClass must be "regular" or "compact""#
      ),
      (
        Array(
          #"{"catalog":{"menuLabels":["A"],"categories":[{"name":"A"}]},"idiom":"watch"}"#.utf8),
        #"idiom must be "phone" or "pad""#
      ),
      (
        Array(
          #"{"catalog":{"menuLabels":["A"],"categories":[{"name":"A"}]},"orientation":"flat"}"#.utf8
        ),
        #"orientation must be "landscape" or "portrait""#
      ),
      (
        Array(#"{"catalog":{"menuLabels":["A"],"categories":[{"name":"A"}]},"menu":[]}"#.utf8),
        "menu must be an object, found an array"
      ),
      (
        Array(
          #"{"catalog":{"menuLabels":["A"],"categories":[{"name":"A"}]},"menu":{"viewportWidth":0}}"#
            .utf8),
        "menu.viewportWidth must be a number of points above 0 and at most 1000000"
      ),
      (
        Array(
          #"{"catalog":{"menuLabels":["A"],"categories":[{"name":"A"}]},"menu":{"scrollsTappedTabIntoView":1}}"#
            .utf8),
        "menu.scrollsTappedTabIntoView must be true or false"
      ),
      (
        Array(
          #"{"catalog":{"menuLabels":["A"],"menuLabelWidths":[1,2],"categories":[{"name":"A"}]}}"#
            .utf8),
        "catalog.menuLabelWidths must be an array of a width for each label"
      ),
      (
        Array(
          #"{"catalog":{"menuLabels":["A"],"menuLabelWidths":[-5],"categories":[{"name":"A"}]}}"#
            .utf8),
        "the width of menu label 1 must be above 0 and at most 10000 points, found -5.0"
      ),
    ])
  func invalid(blob: [UInt8], message: String) {
    #expect(throws: DomainError(message)) { try NavigationDomain(settingsBlob: blob) }
  }

  @Test("JSON is the one serialisation: a minimal catalog reads, a bad one is refused")
  func oneSerialisation() throws {
    let settings = NavigationSettings(catalog: .sample(layout: .twoColumn), sizeClass: .compact)
    #expect(try NavigationSettings(json: JSONValue(parsing: settings.json.compactText)) == settings)
    let minimal = try JSONValue(parsing: #"{"menuLabels":["A"],"categories":[{"name":"A"}]}"#)
    let catalog = try Catalog(json: minimal)
    #expect(catalog.layout == .threeColumn && catalog.nodeCount == 1)
    let duplicate = try JSONValue(
      parsing: #"{"menuLabels":["A"],"categories":[{"name":"A"},{"name":"a"}]}"#)
    #expect(throws: DomainError.self) { try Catalog(json: duplicate) }
    // No second form to drift from this one.
    #expect(!(NavigationSettings.self is any Decodable.Type))
    #expect(!(Catalog.self is any Decodable.Type))
  }
}
