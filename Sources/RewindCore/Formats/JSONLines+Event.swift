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
      let keys = known.map(\.0)
      if let index = firstUnknownKey(of: members, among: Set(keys)) {
        throw RewindError(
          .invalidInput,
          "\(unknownKey(members[index].0, inEvent: domain.eventKind(event), keys: keys, given: members.map(\.0))); its keys are \(keys.joined(separator: ", "))"
        )
      }
    }
    return event
  }

  /// The index of the first of `members` (an event's line as given) whose key is none of
  /// `keys`, the keys of the JSON of the event it reads as: a key the domain's decoder
  /// passed over, a misspelt one whose field would read as nil. A key given as `null` is
  /// let through, as a domain may leave a nil field out of its JSON. Nil when there is
  /// none. What `import`, `state --insert` and scenario scripts refuse.
  package static func firstUnknownKey(of members: [(String, JSONValue)], among keys: Set<String>)
    -> Int?
  {
    members.indices.first { index in
      if case .null = members[index].1 { return false }
      return !keys.contains(members[index].0)
    }
  }

  /// `unknown key "txet" (did you mean "text"?) in the event "noted"`: the message of a key
  /// an event's JSON has not, with the one of its `keys` not `given` that it is most
  /// likely a slip of.
  package static func unknownKey(
    _ key: String, inEvent kind: String, keys: [String], given: [String]
  )
    -> String
  {
    let unused = keys.filter { !given.contains($0) }
    return
      "unknown key \(Format.quoted(key, quote: "\""))\(Format.meant(key, among: unused)) in the event \(Format.quoted(kind, quote: "\""))"
  }
}
