import Synchronization

/// The identifiers a session met that its catalog lacks, each given a ``NodeRef`` at or
/// above the catalog's node count so that an event can carry it as a plain integer.
///
/// Unknown ids come from JSON imports and old recordings. The reducer rejects them, but
/// they must survive decoding and re-encoding, so the domain remembers the strings here.
/// Interning takes a lock; it only happens on the rare fallback paths, never for ids in
/// the catalog.
@usableFromInline final class UnknownIdentifiers: Sendable {
  /// The most distinct unknown ids one domain value interns.
  static let limit = 65_536

  private struct Table {
    var ids: [String] = []
    var indexByID: [String: UInt32] = [:]
  }

  /// The ref index of the first unknown id: the catalog's node count.
  let base: UInt32
  private let table = Mutex(Table())

  init(base: Int) { self.base = UInt32(base) }

  /// The ref for `id`, interning it on first sight; nil when ``limit`` ids are interned
  /// already and `id` is not one of them.
  func intern(_ id: String) -> NodeRef? {
    table.withLock { table in
      if let offset = table.indexByID[id] { return NodeRef(index: base + offset) }
      guard table.ids.count < Self.limit else { return nil }
      let offset = UInt32(table.ids.count)
      table.ids.append(id)
      table.indexByID[id] = offset
      return NodeRef(index: base + offset)
    }
  }

  /// The id interned as `ref`, or nil if none was.
  func id(of ref: NodeRef) -> String? {
    guard ref.index >= base else { return nil }
    let offset = Int(ref.index - base)
    return table.withLock { table in offset < table.ids.count ? table.ids[offset] : nil }
  }

  /// The number of ids interned so far.
  var count: Int { table.withLock { $0.ids.count } }
}
