public import RewindCore

// Events as JSON objects: `{"event": kind, ...payload}`; the names are in the JSONNames
// article.

extension NavigationDomain {
  public func eventKind(_ event: NavigationEvent) -> String { event.kind.rawValue }

  /// The event as a JSON object, e.g. `{"event":"categorySelected","id":"grinders"}`.
  ///
  /// Payload fields: `index` (menuTabTapped), `offset` (menuScrolled) and `width`
  /// (menuViewportResized; NaN and the infinities, which JSON numbers cannot hold, as the
  /// strings `"NaN"`, `"Infinity"`, `"-Infinity"`), `id` (a string, or null to clear a
  /// selection), `visibility`, `style`, `sizeClass`, `orientation`; backTapped has none.
  public func json(_ event: NavigationEvent) -> JSONValue {
    var members: [(String, JSONValue)] = [("event", .string(event.kind.rawValue))]
    switch event {
    case .menuTabTapped(let index): members.append(("index", .int(Int64(index))))
    case .menuScrolled(let offset): members.append(("offset", Self.offsetJSON(offset)))
    case .menuViewportResized(let width): members.append(("width", Self.offsetJSON(width)))
    case .categorySelected(let ref), .itemSelected(let ref):
      members.append(("id", .string(ref.map(id(of:)))))
    case .itemExpanded(let ref), .itemCollapsed(let ref):
      members.append(("id", .string(id(of: ref))))
    case .columnVisibilityChanged(let visibility):
      members.append(("visibility", .string(visibility.rawValue)))
    case .splitStyleChanged(let style): members.append(("style", .string(style.rawValue)))
    case .sizeClassChanged(let sizeClass):
      members.append(("sizeClass", .string(sizeClass.rawValue)))
    case .orientationChanged(let orientation):
      members.append(("orientation", .string(orientation.rawValue)))
    case .backTapped: break
    }
    return .object(members)
  }

  /// Writes the members of ``json(_:)-(NavigationEvent)``, the same bytes, with no
  /// `JSONValue` built: what `rewind export` writes each event with.
  public func writeMembers(of event: NavigationEvent, to json: inout JSONWriter) {
    json.plainKey("event")
    json.plainString(Self.kindName(event.kind))
    switch event {
    case .menuTabTapped(let index):
      json.plainKey("index")
      json.int(Int64(index))
    case .menuScrolled(let offset):
      json.plainKey("offset")
      Self.writeOffset(offset, to: &json)
    case .menuViewportResized(let width):
      json.plainKey("width")
      Self.writeOffset(width, to: &json)
    case .categorySelected(let ref), .itemSelected(let ref):
      json.plainKey("id")
      if let ref { json.string(id(of: ref)) } else { json.null() }
    case .itemExpanded(let ref), .itemCollapsed(let ref):
      json.plainKey("id")
      json.string(id(of: ref))
    case .columnVisibilityChanged(let visibility):
      json.plainKey("visibility")
      json.string(visibility.rawValue)
    case .splitStyleChanged(let style):
      json.plainKey("style")
      json.string(style.rawValue)
    case .sizeClassChanged(let sizeClass):
      json.plainKey("sizeClass")
      json.string(sizeClass.rawValue)
    case .orientationChanged(let orientation):
      json.plainKey("orientation")
      json.string(orientation.rawValue)
    case .backTapped: break
    }
  }

  /// The kind's name (`NavigationEvent.Kind.rawValue`), known when compiled.
  private static func kindName(_ kind: NavigationEvent.Kind) -> StaticString {
    switch kind {
    case .menuTabTapped: "menuTabTapped"
    case .menuScrolled: "menuScrolled"
    case .menuViewportResized: "menuViewportResized"
    case .categorySelected: "categorySelected"
    case .itemSelected: "itemSelected"
    case .itemExpanded: "itemExpanded"
    case .itemCollapsed: "itemCollapsed"
    case .columnVisibilityChanged: "columnVisibilityChanged"
    case .splitStyleChanged: "splitStyleChanged"
    case .sizeClassChanged: "sizeClassChanged"
    case .orientationChanged: "orientationChanged"
    case .backTapped: "backTapped"
    }
  }

  /// An offset or width as ``offsetJSON(_:)`` writes it.
  private static func writeOffset(_ offset: Double, to json: inout JSONWriter) {
    if offset.isFinite {
      json.double(offset)
    } else {
      json.string(offset.isNaN ? "NaN" : offset > 0 ? "Infinity" : "-Infinity")
    }
  }

  /// `, found 1.5`, `, found 1e+30, beyond the 64-bit integers`, `, found a string`:
  /// what a field that should hold an integer holds, for its error; empty when it is
  /// missing.
  private static func found(_ value: JSONValue?) -> String {
    switch value {
    case nil: ""
    case let value? where value.isRoundedWhole:
      ", found \(value.compactText), \(JSONValue.roundedWholeProblem)"
    case .double(let number)? where number.isFinite && number == number.rounded():
      ", found \(number), beyond the 64-bit integers (-2^63 to 2^63 - 1)"
    case .double(let number)?: ", found \(number)"
    case let other?: ", found \(other.typeName)"
    }
  }

  /// `, found the string "x"`, `, found a number`, `, found null`: what a field of another
  /// type holds, for its error; empty when it is missing.
  private static func foundOther(_ value: JSONValue?) -> String {
    switch value {
    case nil: ""
    case .string(let text)?: ", found the string \(Format.quoted(text, quote: "\""))"
    case let other?: ", found \(other.typeName)"
    }
  }

  /// Reads an event from the JSON object ``json(_:)-(NavigationEvent)`` writes. Ids the
  /// catalog lacks are interned (the reducer rejects them), ids with a control character
  /// refused; keys other than the event's own are ignored.
  /// - Throws: `DomainError` saying what is missing or wrong, e.g.
  ///   `menuTabTapped needs an integer "index"`, `unknown event kind "foo"`.
  public func event(fromJSON json: JSONValue) throws(DomainError) -> NavigationEvent {
    guard case .object = json else {
      throw DomainError("an event must be a JSON object, found \(json.typeName)")
    }
    guard let name = json["event"]?.stringValue else {
      throw DomainError("an event needs a string \"event\" naming its kind", missingKey: "event")
    }
    guard let kind = NavigationEvent.Kind(rawValue: name) else {
      throw DomainError.unknownEventKind(name, kinds: NavigationDomain.eventKinds)
    }
    if readsSchemaVersion < 2 && (kind == .orientationChanged || kind == .menuViewportResized) {
      throw DomainError(
        "\(name) is an event of schema 2 of 'navigation', and these events are of schema \(readsSchemaVersion)"
      )
    }
    switch kind {
    case .menuTabTapped:
      guard let value = json["index"], !value.isRoundedWhole, let number = value.intValue,
        let index = Int(exactly: number)
      else {
        throw DomainError(
          "menuTabTapped needs an integer \"index\"" + Self.found(json["index"]),
          missingKey: "index")
      }
      return .menuTabTapped(index: index)
    case .menuScrolled:
      guard let value = json["offset"], let offset = Self.offset(fromJSON: value) else {
        throw DomainError(
          "menuScrolled needs a number \"offset\"" + Self.foundOther(json["offset"]),
          missingKey: "offset")
      }
      return .menuScrolled(offset: offset)
    case .menuViewportResized:
      guard let value = json["width"], let width = Self.offset(fromJSON: value) else {
        throw DomainError(
          "menuViewportResized needs a number \"width\"" + Self.foundOther(json["width"]),
          missingKey: "width")
      }
      return .menuViewportResized(width: width)
    case .categorySelected:
      return .categorySelected(try optionalRef(json, kind))
    case .itemSelected:
      return .itemSelected(try optionalRef(json, kind))
    case .itemExpanded:
      return .itemExpanded(try requiredRef(json, kind))
    case .itemCollapsed:
      return .itemCollapsed(try requiredRef(json, kind))
    case .columnVisibilityChanged:
      return .columnVisibilityChanged(try Self.enumValue(json, "visibility", kind))
    case .splitStyleChanged:
      return .splitStyleChanged(try Self.enumValue(json, "style", kind))
    case .sizeClassChanged:
      return .sizeClassChanged(try Self.enumValue(json, "sizeClass", kind))
    case .orientationChanged:
      return .orientationChanged(try Self.enumValue(json, "orientation", kind))
    case .backTapped:
      return .backTapped
    }
  }

  /// Reads an event from the fields of a flat JSON object in place, as
  /// ``event(fromJSON:)`` reads it from the same object; nil for anything else (a key
  /// the event lacks or a missing one, a value of the wrong type, an id with a control
  /// character, an event of schema 2 in a session of schema 1), which
  /// ``event(fromJSON:)`` then explains.
  public func event(fromFields fields: JSONFields) -> NavigationEvent? {
    guard fields.count >= 1, fields.count <= 2 else { return nil }
    // The kind first, then its one payload field, in either order.
    let kindIndex = fields[0].hasKey("event") ? 0 : 1
    let kindField = fields[kindIndex]
    guard kindField.hasKey("event"), kindField.kind == .string,
      let kind = Self.kind(named: kindField)
    else { return nil }
    if readsSchemaVersion < 2 && (kind == .orientationChanged || kind == .menuViewportResized) {
      return nil
    }
    if kind == .backTapped { return fields.count == 1 ? .backTapped : nil }
    guard fields.count == 2 else { return nil }
    let payload = fields[1 - kindIndex]
    switch kind {
    case .menuTabTapped:
      guard payload.hasKey("index"), payload.kind == .integer,
        let index = Int(exactly: payload.integer)
      else { return nil }
      return .menuTabTapped(index: index)
    case .menuScrolled:
      guard payload.hasKey("offset"), let offset = Self.offset(fromField: payload) else {
        return nil
      }
      return .menuScrolled(offset: offset)
    case .menuViewportResized:
      guard payload.hasKey("width"), let width = Self.offset(fromField: payload) else {
        return nil
      }
      return .menuViewportResized(width: width)
    case .categorySelected, .itemSelected:
      guard payload.hasKey("id") else { return nil }
      let ref: NodeRef?
      switch payload.kind {
      case .null: ref = nil
      case .string:
        guard let found = try? inputRef(String(decoding: payload.value, as: UTF8.self)) else {
          return nil
        }
        ref = found
      default: return nil
      }
      return kind == .categorySelected ? .categorySelected(ref) : .itemSelected(ref)
    case .itemExpanded, .itemCollapsed:
      guard payload.hasKey("id"), payload.kind == .string,
        let ref = try? inputRef(String(decoding: payload.value, as: UTF8.self))
      else { return nil }
      return kind == .itemExpanded ? .itemExpanded(ref) : .itemCollapsed(ref)
    case .columnVisibilityChanged:
      guard payload.hasKey("visibility"), let value = Self.enumValue(ColumnVisibility.self, payload)
      else { return nil }
      return .columnVisibilityChanged(value)
    case .splitStyleChanged:
      guard payload.hasKey("style"), let value = Self.enumValue(SplitStyle.self, payload) else {
        return nil
      }
      return .splitStyleChanged(value)
    case .sizeClassChanged:
      guard payload.hasKey("sizeClass"), let value = Self.enumValue(SizeClass.self, payload)
      else { return nil }
      return .sizeClassChanged(value)
    case .orientationChanged:
      guard payload.hasKey("orientation"), let value = Self.enumValue(Orientation.self, payload)
      else { return nil }
      return .orientationChanged(value)
    case .backTapped:
      return nil
    }
  }

  /// The kind a string field names, found without a `String`: the names are compared
  /// as constants (``kindName(_:)``), most lines' kind first.
  private static func kind(named field: JSONField) -> NavigationEvent.Kind? {
    if field.isString("menuScrolled") { return .menuScrolled }
    for kind in NavigationEvent.Kind.allCases where field.isString(kindName(kind)) {
      return kind
    }
    return nil
  }

  /// An offset or width as ``offset(fromJSON:)`` reads it.
  private static func offset(fromField field: JSONField) -> Double? {
    switch field.kind {
    case .integer, .number: return field.double
    case .string:
      if field.isString("NaN") { return .nan }
      if field.isString("Infinity") { return .infinity }
      if field.isString("-Infinity") { return -.infinity }
      return nil
    default: return nil
    }
  }

  private static func enumValue<Value: RawRepresentable>(_ type: Value.Type, _ field: JSONField)
    -> Value? where Value.RawValue == String
  {
    guard field.kind == .string else { return nil }
    return Value(rawValue: String(decoding: field.value, as: UTF8.self))
  }

  /// A one-line description: the kind and the payload, e.g. `categorySelected grinders`,
  /// `itemSelected none`, `menuScrolled 120.5`.
  public func describe(_ event: NavigationEvent) -> String {
    let kind = event.kind.rawValue
    switch event {
    case .menuTabTapped(let index): return "\(kind) \(index)"
    case .menuScrolled(let offset): return "\(kind) \(offset)"
    case .menuViewportResized(let width): return "\(kind) \(width)"
    case .categorySelected(let ref), .itemSelected(let ref):
      return "\(kind) \(ref.map(id(of:)) ?? "none")"
    case .itemExpanded(let ref), .itemCollapsed(let ref): return "\(kind) \(id(of: ref))"
    case .columnVisibilityChanged(let visibility): return "\(kind) \(visibility.rawValue)"
    case .splitStyleChanged(let style): return "\(kind) \(style.rawValue)"
    case .sizeClassChanged(let sizeClass): return "\(kind) \(sizeClass.rawValue)"
    case .orientationChanged(let orientation): return "\(kind) \(orientation.rawValue)"
    case .backTapped: return kind
    }
  }

  private static func offsetJSON(_ offset: Double) -> JSONValue {
    if offset.isFinite { return .double(offset) }
    if offset.isNaN { return "NaN" }
    return offset > 0 ? "Infinity" : "-Infinity"
  }

  private static func offset(fromJSON value: JSONValue) -> Double? {
    switch value {
    case .int, .double: value.doubleValue
    case .string("NaN"): .nan
    case .string("Infinity"): .infinity
    case .string("-Infinity"): -.infinity
    default: nil
    }
  }

  private func optionalRef(_ json: JSONValue, _ kind: NavigationEvent.Kind)
    throws(DomainError) -> NodeRef?
  {
    switch json["id"] {
    case .null?: return nil
    case .string(let id)?: return try inputRef(id)
    default:
      throw DomainError(
        "\(kind.rawValue) needs an \"id\": a string, or null to clear"
          + Self.foundOther(json["id"]), missingKey: "id")
    }
  }

  private func requiredRef(_ json: JSONValue, _ kind: NavigationEvent.Kind)
    throws(DomainError) -> NodeRef
  {
    guard let id = json["id"]?.stringValue else {
      throw DomainError(
        "\(kind.rawValue) needs a string \"id\"" + Self.foundOther(json["id"]), missingKey: "id")
    }
    return try inputRef(id)
  }

  private static func enumValue<Value: RawRepresentable & CaseIterable>(
    _ json: JSONValue, _ key: String, _ kind: NavigationEvent.Kind
  ) throws(DomainError) -> Value where Value.RawValue == String {
    guard let name = json[key]?.stringValue, let value = Value(rawValue: name) else {
      let rawValues = Value.allCases.map(\.rawValue)
      let names = rawValues.map { "\"\($0)\"" }.joined(separator: ", ")
      let article = "aeiou".contains(key.first!) ? "an" : "a"
      let given = json[key]
      throw DomainError(
        "\(kind.rawValue) needs \(article) \"\(key)\": one of \(names)" + Self.foundOther(given)
          + (given?.stringValue.map { Format.meant($0, among: rawValues) } ?? ""),
        missingKey: key)
    }
    return value
  }
}
