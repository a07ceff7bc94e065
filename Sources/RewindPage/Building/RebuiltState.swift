public import RewindCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

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
  /// The start's compact text and where each path's value is in it, in the text's order,
  /// when every path is a member of the start's objects (see `Layout`); nil otherwise.
  private let layout: Layout?
  /// With a layout: values' compact texts, each path's among them (`current`), the
  /// values set since their text was written (with the key they were set with, or -1),
  /// and the text rebuilt last.
  ///
  /// Text `path` is the path's own (the start's value, then each value set without a key);
  /// a value set with a key has a text of its own, written once, text `paths + n` for the
  /// key and field numbered `n` in `keyed`, so that a value met at many keyframes (a
  /// change list's, the page builder's key) is written once.
  private var texts: [[UInt8]]
  private var current: [Int]
  private var keyed = ShortKeys(capacity: 64)
  private var unwritten: [JSONValue?]
  private var unwrittenKeys: [(key: Int, field: Int)]
  private var unwrittenOrder: [Int] = []
  private var rebuiltText: [UInt8] = []

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
    let components = distinct.map {
      $0.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    }
    self.components = components
    // A path is a dotted prefix of another when its components begin the other's.
    setsAtOnce = components.contains { path in
      components.contains { other in
        other.count > path.count && other[..<path.count].elementsEqual(path)
      }
    }
    pending = Array(repeating: nil, count: distinct.count)
    takesLastValues = !setsAtOnce && distinct.count == fieldPaths.count
    layout = setsAtOnce ? nil : Layout(start, paths: components)
    texts = Array(repeating: [], count: distinct.count)
    current = Array(distinct.indices)
    unwritten = Array(repeating: nil, count: distinct.count)
    unwrittenKeys = Array(repeating: (-1, -1), count: distinct.count)
    if let layout {
      for piece in layout.pieces {
        texts[piece.path] = Array(layout.text[piece.start..<piece.end])
      }
    }
  }

  /// Whether every field has a path of its own and no path is a dotted prefix of another:
  /// then setting each field's last value since the JSON was last read, in the order of
  /// the fields' first changes since, gives the JSON that setting every value as it came
  /// gives (the page builder sets only those, at a keyframe).
  @usableFromInline let takesLastValues: Bool

  /// Sets field `field` (an index into the domain's fields) to `value`.
  ///
  /// - Parameter key: -1, or a number that the field's value is the same each time it is
  ///   set with (a change list's): its text is then written once, however many times it is
  ///   set.
  @usableFromInline mutating func set(_ value: JSONValue, field: Int, key: Int = -1) {
    let path = slot[field]
    if layout != nil {
      let known =
        key < 0 ? -1 : keyed.existingNumber(UInt64(key), UInt64(field), length: 16)
      if known >= 0 {
        current[path] = pending.count &+ known
        unwritten[path] = nil
      } else {
        if unwritten[path] == nil { unwrittenOrder.append(path) }
        unwritten[path] = value
        unwrittenKeys[path] = (key, field)
      }
    }
    if setsAtOnce {
      json.set(value, at: components[path][...])
      return
    }
    if pending[path] == nil { order.append(path) }
    pending[path] = value
  }

  /// Calls `body` with the compact text of ``value``, valid only during the call.
  ///
  /// With a layout, the start's text with each path's value's text in its place: only the
  /// values set since the last call are written (a keyframe's few changed fields), not the
  /// whole JSON.
  @usableFromInline mutating func withText<R>(_ body: (UnsafeRawBufferPointer) throws -> R)
    rethrows -> R
  {
    rebuiltText.removeAll(keepingCapacity: true)
    guard let layout else {
      value.appendCompact(to: &rebuiltText)
      return try rebuiltText.withUnsafeBytes(body)
    }
    writeValues()
    var position = 0
    for piece in layout.pieces {
      rebuiltText.append(contentsOf: layout.text[position..<piece.start])
      rebuiltText.append(contentsOf: texts[current[piece.path]])
      position = piece.end
    }
    rebuiltText.append(contentsOf: layout.text[position...])
    return try rebuiltText.withUnsafeBytes(body)
  }

  /// Whether `text` is the compact text of ``value``: what the page builder checks a
  /// state's JSON with, at each keyframe.
  ///
  /// With a layout, `text` is compared a piece at a time with the start's text between the
  /// paths' values and with each value's text (only the values set since the last call are
  /// written), not with a rebuilt copy of the whole text.
  @usableFromInline mutating func matches(_ text: UnsafeRawBufferPointer) -> Bool {
    guard let layout else { return withText { Self.same(text, $0) } }
    writeValues()
    var offset = 0
    return layout.text.withUnsafeBytes { start in
      var position = 0
      for piece in layout.pieces {
        guard
          Self.follows(
            UnsafeRawBufferPointer(rebasing: start[position..<piece.start]), text, &offset),
          texts[current[piece.path]].withUnsafeBytes({ value in
            Self.follows(value, text, &offset)
          })
        else { return false }
        position = piece.end
      }
      return Self.follows(UnsafeRawBufferPointer(rebasing: start[position...]), text, &offset)
        && offset == text.count
    }
  }

  /// Whether `text` holds `bytes` at `offset`, which then moves past them.
  private static func follows(
    _ bytes: UnsafeRawBufferPointer, _ text: UnsafeRawBufferPointer, _ offset: inout Int
  ) -> Bool {
    guard text.count - offset >= bytes.count,
      same(UnsafeRawBufferPointer(rebasing: text[offset..<offset + bytes.count]), bytes)
    else { return false }
    offset += bytes.count
    return true
  }

  /// Writes the text of each value set since the texts were last written (with a layout):
  /// the path's own, or a new one kept for its key.
  private mutating func writeValues() {
    for path in unwrittenOrder {
      guard let value = unwritten[path] else { continue }  // set since with a known key
      unwritten[path] = nil
      let (key, field) = unwrittenKeys[path]
      if key < 0 {
        texts[path].removeAll(keepingCapacity: true)
        value.appendCompact(to: &texts[path])
        current[path] = path
      } else {
        // Not met before (else `set` found it): the next number.
        let number = keyed.number(UInt64(key), UInt64(field), length: 16)
        assert(pending.count + number == texts.count, "a key's text written twice")
        var text: [UInt8] = []
        value.appendCompact(to: &text)
        current[path] = texts.count
        texts.append(text)
      }
    }
    unwrittenOrder.removeAll(keepingCapacity: true)
  }

  /// Whether two texts are the same bytes.
  static func same(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
    guard a.count == b.count else { return false }
    guard a.count > 0, let first = a.baseAddress, let second = b.baseAddress else { return true }
    return memcmp(first, second, a.count) == 0
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

extension RebuiltState {
  /// A JSON's compact text and where the value of each of some paths is in it: setting a
  /// path's value (`JSONValue.set(_:at:)`) replaces that value's text and no other, when
  /// each path is a member of the JSON's objects, found by its keys from the top, and no
  /// object on the way to one has two keys `==` (`set` would take the first).
  struct Layout {
    /// The JSON's compact text.
    let text: [UInt8]
    /// Each path's value's bytes in `text`, in the text's order.
    let pieces: [(path: Int, start: Int, end: Int)]

    /// The layout of `json` for paths split at their dots (no one a prefix of another); nil
    /// when a path is not a member of its objects or an object on the way has a key twice.
    init?(_ json: JSONValue, paths: [[String]]) {
      var layout = Writing()
      for (path, components) in paths.enumerated() {
        layout.index[components] = path
        for end in 0..<components.count { layout.ways.insert(Array(components[..<end])) }
      }
      guard layout.write(json, at: []), layout.pieces.count == paths.count else { return nil }
      text = layout.text
      pieces = layout.pieces
    }

    /// The text written so far and the pieces found.
    private struct Writing {
      /// Each path's number, by its keys.
      var index: [[String]: Int] = [:]
      /// The objects on the way to a path, by their keys.
      var ways: Set<[String]> = []
      var text: [UInt8] = []
      var pieces: [(path: Int, start: Int, end: Int)] = []

      /// Writes `json`, found at `path`, noting where the paths of `index` are; false when
      /// an object on the way to one has a key twice.
      mutating func write(_ json: JSONValue, at path: [String]) -> Bool {
        guard ways.contains(path), case .object(let members) = json, !members.isEmpty else {
          json.appendCompact(to: &text)
          return true
        }
        guard Set(members.map(\.0)).count == members.count else { return false }
        text.append(UInt8(ascii: "{"))
        for (position, (key, member)) in members.enumerated() {
          if position > 0 { text.append(UInt8(ascii: ",")) }
          JSONValue.appendQuoted(key, to: &text)
          text.append(UInt8(ascii: ":"))
          let inner = path + [key]
          if let found = index[inner] {
            let start = text.count
            member.appendCompact(to: &text)
            pieces.append((found, start, text.count))
          } else if !write(member, at: inner) {
            return false
          }
        }
        text.append(UInt8(ascii: "}"))
        return true
      }
    }
  }
}
