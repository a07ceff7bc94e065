extension Domain {
  /// Nil: every line of `rewind import` is read by ``event(fromJSON:)``.
  public func event(fromFields fields: JSONFields) -> Event? { nil }

  /// The members of `json(_ event:)`, written one by one (nothing when it is not an
  /// object).
  public func writeMembers(of event: Event, to json: inout JSONWriter) {
    guard case .object(let members) = self.json(event) else { return }
    for (key, value) in members {
      json.key(key)
      json.value(value)
    }
  }
}
