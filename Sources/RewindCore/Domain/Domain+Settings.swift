extension Domain {
  /// The settings as a journal header stores them: ``settingsJSON`` as compact UTF-8
  /// text, the same bytes on every platform.
  package var settingsBlob: [UInt8] { Array(settingsJSON.compactText.utf8) }

  /// Builds the domain from settings a journal header stores.
  /// - Throws: ``DomainError`` if the bytes are not UTF-8, not JSON, or not valid
  ///   settings. (The journal reader has bounded their size already.)
  package init(settingsBlob: [UInt8]) throws(DomainError) {
    guard let text = String(validating: settingsBlob, as: UTF8.self) else {
      throw DomainError("the settings are not valid UTF-8")
    }
    let json: JSONValue
    do {
      json = try JSONValue(parsing: text)
    } catch {
      throw DomainError("the settings are not valid JSON: \(error)")
    }
    try self.init(settingsJSON: json)
  }
}
