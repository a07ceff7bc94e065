import Foundation
import Navigation
import RewindCore
import Testing

@Suite("Settings: the journal header's catalog")
struct SettingsTests {
  @Test("the blob is the compact JSON and round-trips")
  func blob() throws {
    let domain = NavigationDomain(catalog: .sample(layout: .twoColumn), sizeClass: .compact)
    let text = String(decoding: domain.settings, as: UTF8.self)
    #expect(text.hasPrefix(#"{"catalog":{"layout":"twoColumn","menuLabels":["Monday","#))
    #expect(text.hasSuffix(#""sizeClass":"compact"}"#))
    let reloaded = try NavigationDomain(settings: domain.settings)
    #expect(reloaded.catalog == domain.catalog)
    #expect(reloaded.initialSizeClass == .compact)
    #expect(reloaded.settings == domain.settings)
    #expect(reloaded.initialState == domain.initialState)
    let fromJSON = try NavigationDomain(settingsJSON: domain.settingsJSON)
    #expect(fromJSON.settings == domain.settings)
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
      ([0xFF, 0xFE], "navigation settings are not valid UTF-8"),
      (
        Array(#"{"catalog":{}, "#.utf8),
        "navigation settings are not valid JSON: line 1, column 16: expected a quoted key, found the end of the text"
      ),
      (
        Array(
          #"{"catalog":{"menuLabels":["A"],"categories":[{"name":"A"}]},"sizeClass":"tiny"}"#.utf8),
        #"sizeClass must be "regular" or "compact""#
      ),
    ])
  func invalid(blob: [UInt8], message: String) {
    #expect(throws: DomainError(message)) { try NavigationDomain(settings: blob) }
  }

  @Test("a blob over 1 MiB is refused before parsing")
  func tooLarge() {
    let blob = [UInt8](repeating: 0x20, count: NavigationSettings.maximumBlobSize + 1)
    #expect(throws: DomainError("navigation settings are 1048577 bytes; the limit is 1048576")) {
      try NavigationDomain(settings: blob)
    }
  }

  @Test("Codable uses the same keys as the JSON form and validates")
  func codable() throws {
    let settings = NavigationSettings(catalog: .sample(layout: .twoColumn), sizeClass: .compact)
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let data = try encoder.encode(settings)
    #expect(try JSONDecoder().decode(NavigationSettings.self, from: data) == settings)
    // Foundation's bytes and RewindCore's printer describe the same JSON value.
    let parsed = try JSONValue(parsing: String(decoding: data, as: UTF8.self))
    #expect(parsed == settings.json)
    #expect(try NavigationSettings(json: parsed) == settings)

    let duplicate = Data(#"{"menuLabels":["A"],"categories":[{"name":"A"},{"name":"a"}]}"#.utf8)
    #expect(throws: DomainError.self) { try JSONDecoder().decode(Catalog.self, from: duplicate) }
    let minimal = Data(#"{"menuLabels":["A"],"categories":[{"name":"A"}]}"#.utf8)
    let catalog = try JSONDecoder().decode(Catalog.self, from: minimal)
    #expect(catalog.layout == .threeColumn && catalog.nodeCount == 1)
  }
}
