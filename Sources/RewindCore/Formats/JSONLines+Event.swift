extension JSONLines {
  /// Reads one event written as a line of JSON Lines is (`{"event": "categorySelected",
  /// "id": "grinders"}`): what `rewind state --insert/--replace` take. `seq` and `time_us`
  /// may be there, as in a line copied from `rewind export`, and are not used: an edited
  /// event takes its time from its place in the session.
  ///
  /// - Throws: ``RewindError`` `invalidInput` saying what is wrong: not JSON (with the
  ///   column), not an object, an event the domain cannot decode, or a key the event
  ///   does not have, listing its keys.
  package static func event<D: Domain>(parsing text: String, in domain: D) throws(RewindError)
    -> D.Event
  {
    let value: JSONValue
    do throws(JSONParseError) {
      value = try JSONValue(parsing: text)
    } catch {
      throw RewindError(.invalidInput, "not JSON: column \(error.column): \(error.message)")
    }
    guard case .object(let allMembers) = value else {
      throw RewindError(
        .invalidInput,
        "expected a JSON object such as {\"event\": \"…\", …}, found \(value.typeName)")
    }
    let members = allMembers.filter { $0.0 != sequenceKey && $0.0 != timeKey }
    let event: D.Event
    do throws(DomainError) {
      event = try domain.event(fromJSON: .object(members))
    } catch {
      throw RewindError(.invalidInput, error.message(givenKeys: members.map(\.0)))
    }
    // Every key must be one the event has, as `rewind import` requires.
    if case .object(let known) = domain.json(event) {
      let keys = Set(known.map(\.0))
      if let (key, _) = members.first(where: { key, member in
        if case .null = member { return false }
        return !keys.contains(key)
      }) {
        throw RewindError(
          .invalidInput,
          "unknown key \(Format.quoted(key, quote: "\""))\(Format.meant(key, among: known.map(\.0).filter { name in !members.contains { $0.0 == name } })) in the event \"\(domain.eventKind(event))\"; its keys are \(known.map(\.0).joined(separator: ", "))"
        )
      }
    }
    return event
  }
}
