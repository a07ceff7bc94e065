public import RewindCore

/// A state's JSON as a page rebuilds it: a keyframe, then the changed fields of each
/// event since set at their paths. The page builder keeps one beside the replay and
/// compares it with the state's own JSON at every keyframe, to refuse a domain whose
/// fields do not rebuild its state.
///
/// Setting a field every event would copy the objects on its path each time; the values
/// are kept instead, the last of each path, and set when the value is read (at a
/// keyframe), in the order the paths were first changed since: the same JSON, since a
/// path's members are added in that order and a later value replaces an earlier one in
/// place. That holds when no path is a dotted prefix of another (then setting one would
/// replace what the other set); for such fields each value is set as it comes.
@usableFromInline struct RebuiltState {
  /// The JSON with every value set so far.
  private var json: JSONValue
  /// The distinct paths, each split at its dots, and each field's index among them.
  private let components: [[String]]
  private let slot: [Int]
  /// Whether a path is a dotted prefix of another: values are set as they come.
  private let setsAtOnce: Bool
  /// The last value of each path not yet set, and the paths in the order of their first.
  private var pending: [JSONValue?]
  private var order: [Int] = []

  /// The JSON `start`, to which changes of fields with `paths` (in field order) apply.
  @usableFromInline init(_ start: JSONValue, paths fieldPaths: [String]) {
    json = start
    var distinct: [Substring] = []
    var index: [String: Int] = [:]
    slot = fieldPaths.map { path in
      if let known = index[path] { return known }
      index[path] = distinct.count
      distinct.append(Substring(path))
      return distinct.count - 1
    }
    components = distinct.map {
      $0.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    }
    setsAtOnce = distinct.contains { path in
      distinct.contains { other in other.count > path.count && other.hasPrefix(path + ".") }
    }
    pending = Array(repeating: nil, count: distinct.count)
    takesLastValues = !setsAtOnce && distinct.count == fieldPaths.count
  }

  /// Whether every field has a path of its own and no path is a dotted prefix of another:
  /// then setting each field's last value since the JSON was last read, in the order of
  /// the fields' first changes since, gives the JSON that setting every value as it came
  /// gives (the page builder sets only those, at a keyframe).
  @usableFromInline let takesLastValues: Bool

  /// Sets field `field` (an index into the domain's fields) to `value`.
  @usableFromInline mutating func set(_ value: JSONValue, field: Int) {
    let path = slot[field]
    if setsAtOnce {
      json.set(value, at: components[path][...])
      return
    }
    if pending[path] == nil { order.append(path) }
    pending[path] = value
  }

  /// The JSON with every value set.
  @usableFromInline var value: JSONValue {
    mutating get {
      for path in order {
        json.set(pending[path]!, at: components[path][...])
        pending[path] = nil
      }
      order.removeAll(keepingCapacity: true)
      return json
    }
  }
}
