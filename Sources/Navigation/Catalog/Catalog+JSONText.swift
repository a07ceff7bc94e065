import RewindCore

extension Catalog {
  /// The JSON text of a catalog's labels and ids, and its nodes in the order of their ids:
  /// what `NavigationState.writeJSON(to:)` copies, where it would escape each string
  /// and sort the expanded nodes' ids for each state (a keyframe of `rewind html`'s page
  /// every few hundred events).
  struct JSONText: Sendable {
    /// `[label, label, …]`, compact.
    let labels: [UInt8]
    /// Each node's id as a JSON string, by node index.
    let ids: [[UInt8]]
    /// The node indices in the order of their ids (`String`'s `<`).
    let nodesByID: [UInt32]

    init(labels: [String], ids: [String]) {
      var writer = JSONWriter(capacity: 256)
      writer.beginArray()
      for label in labels { writer.string(label) }
      writer.endArray()
      self.labels = writer.bytes
      self.ids = ids.map { id in
        var writer = JSONWriter(capacity: id.utf8.count + 8)
        writer.string(id)
        return writer.bytes
      }
      nodesByID = ids.indices.sorted { ids[$0] < ids[$1] }.map(UInt32.init)
    }
  }
}
