extension Domain {
  /// The settings as a journal header stores them: ``settingsJSON`` as compact UTF-8
  /// text, the same bytes on every platform.
  package var settingsBlob: [UInt8] { Array(settingsJSON.compactText.utf8) }

  /// Builds the domain from settings a journal header stores.
  /// - Throws: ``DomainError`` if the bytes are not UTF-8, not JSON, or not valid
  ///   settings. (The journal reader has bounded their size already.)
  package init(settingsBlob: [UInt8]) throws(DomainError) {
    try self.init(settingsJSON: Self.settingsJSON(blob: settingsBlob))
  }

  /// Builds the domain of a session recorded with schema `version` from the settings its
  /// header stores: as they are for the current version, through
  /// ``init(settingsJSON:upcastingFrom:)`` for an older one.
  /// - Precondition: `version` is one of ``readableSchemaVersions``
  ///   (``checkReadable(schemaVersion:)``).
  /// - Throws: ``DomainError`` if the bytes are not UTF-8, not JSON, or not valid
  ///   settings of that version.
  package init(settingsBlob: [UInt8], schemaVersion version: UInt32, device: String)
    throws(DomainError)
  {
    try self.init(
      settingsJSON: Self.settingsJSON(blob: settingsBlob), schemaVersion: version, device: device)
  }

  /// Builds the domain of a session recorded with schema `version` from its settings
  /// JSON: as they are for the current version, upcast for an older one.
  /// - Precondition: `version` is one of ``readableSchemaVersions``.
  package init(settingsJSON: JSONValue, schemaVersion version: UInt32, device: String)
    throws(DomainError)
  {
    precondition(
      Self.readableSchemaVersions.contains(version),
      "schema version \(version) of '\(Self.identifier)' is not readable")
    if version == Self.schemaVersion {
      try self.init(settingsJSON: settingsJSON)
    } else {
      try self.init(
        settingsJSON: settingsJSON,
        upcastingFrom: RecordedSchema(version: version, device: device))
    }
  }

  private static func settingsJSON(blob settingsBlob: [UInt8]) throws(DomainError) -> JSONValue {
    guard let text = String(validating: settingsBlob, as: UTF8.self) else {
      throw DomainError("the settings are not valid UTF-8")
    }
    let json: JSONValue
    do {
      json = try JSONValue(parsing: text)
    } catch {
      throw DomainError("the settings are not valid JSON: \(error)")
    }
    return json
  }

  /// Checks that this build reads journals of schema `version`.
  /// - Throws: ``RewindError`` `newerSchema` naming both versions when `version` is
  ///   newer than ``Domain/schemaVersion``, `wrongDomain` when it is older than every
  ///   readable one.
  package static func checkReadable(schemaVersion version: UInt32) throws(RewindError) {
    guard version <= schemaVersion else {
      throw RewindError(
        .newerSchema,
        "schema version \(version) of '\(identifier)' is newer than version \(schemaVersion), the newest this rewind reads; read it with a newer rewind"
      )
    }
    guard readableSchemaVersions.contains(version) else {
      let range = readableSchemaVersions
      let versions =
        range.count == 1
        ? "version \(range.lowerBound)" : "versions \(range.lowerBound)–\(range.upperBound)"
      throw RewindError(
        .wrongDomain,
        "schema version \(version) of '\(identifier)' is older than this rewind reads (\(versions))"
      )
    }
  }
}
