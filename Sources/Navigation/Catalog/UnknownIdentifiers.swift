/// The identifiers a session met that its catalog lacks, each given a ``NodeRef`` at or
/// above the catalog's node count so that an event can carry it as a plain integer.
///
/// Unknown ids come from JSON imports, scenario scripts and old recordings. The reducer
/// rejects them, but they must survive decoding and re-encoding, so the session's domain
/// remembers the strings here (see ``NavigationDomain``, which owns one table per session
/// behind a lock).
struct UnknownIdentifiers {
  /// The most distinct unknown ids one session interns.
  static let limit = 65_536

  /// The ref index of the first unknown id: the catalog's node count.
  let base: UInt32
  private var ids: [String] = []
  private var indexByID: [String: UInt32] = [:]

  init(base: Int) { self.base = UInt32(base) }

  /// The ref for `id`, interning it on first sight; nil when ``limit`` ids are interned
  /// already and `id` is not one of them.
  mutating func intern(_ id: String) -> NodeRef? {
    if let offset = indexByID[id] { return NodeRef(index: base + offset) }
    guard ids.count < Self.limit else { return nil }
    let offset = UInt32(ids.count)
    ids.append(id)
    indexByID[id] = offset
    return NodeRef(index: base + offset)
  }

  /// The id interned as `ref`, or nil if none was.
  func id(of ref: NodeRef) -> String? {
    guard ref.index >= base else { return nil }
    let offset = Int(ref.index - base)
    return offset < ids.count ? ids[offset] : nil
  }

  /// The number of ids interned so far.
  var count: Int { ids.count }
}
