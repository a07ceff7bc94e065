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
    #expect(text.hasSuffix(#""sizeClass":"compact"}"#))
    let reloaded = try NavigationDomain(settingsBlob: domain.settingsBlob)
    #expect(reloaded.catalog == domain.catalog)
    #expect(reloaded.initialSizeClass == .compact)
    #expect(reloaded.settingsBlob == domain.settingsBlob)
    #expect(reloaded.initialState == domain.initialState)
    let fromJSON = try NavigationDomain(settingsJSON: domain.settingsJSON)
    #expect(fromJSON.settingsJSON == domain.settingsJSON)
  }

  @Test("sizeClass is optional in the settings")
  func defaultSizeClass() throws {
    let json = JSONValue.object([("catalog", Catalog.sample.json)])
    #expect(try NavigationSettings(json: json) == .sample)
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
