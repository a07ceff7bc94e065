public import RewindCore

/// The tree of categories and items a split view browses, the horizontal menu's labels,
/// and the split view's layout: everything a navigation session needs besides its events.
///
/// A catalog is described as a tree of ``Node`` values (what its JSON form holds) and stored as flat tables indexed by ``NodeRef``, so that the reducer's lookups
/// are array reads: no hashing, no string work. Nodes are numbered depth-first, pre-order,
/// categories in catalog order, so a node's descendants are the contiguous range after it.
///
/// Every node has a stable identifier: the slug of its name (see ``slug(_:)``) joined with
/// `/` to its ancestors' slugs, e.g. `espresso-machines/leva/leva-x`. A journal stores the
/// catalog it was recorded with, so ids keep meaning the same thing on every replay.
///
/// A catalog is immutable after ``init(layout:menuLabels:menuLabelWidths:categories:)``, which validates
/// it, and may be shared freely between threads.
public final class Catalog: Sendable {
  /// One category or item as described in JSON: a name, an image name and children.
  public struct Node: Equatable, Hashable, Sendable {
    /// The name shown in the lists; its slug is the last component of the node's id.
    public var name: String
    /// The image (photo) name shown in the detail; may be empty.
    public var image: String
    /// The sub-items, in display order.
    public var children: [Node]

    public init(_ name: String, image: String = "", children: [Node] = []) {
      self.name = name
      self.image = image
      self.children = children
    }
  }

  /// What the reducer needs to know about one node, packed in one table row.
  @usableFromInline struct NodeInfo: Sendable {
    /// The parent's index, or `UInt32.max` for a category.
    @usableFromInline let parent: UInt32
    /// The index of the top-level category the node belongs to (itself for a category).
    @usableFromInline let category: UInt32
    /// One past the index of the node's last descendant.
    @usableFromInline let subtreeEnd: UInt32
    /// Where the node's children start in `childIndices`.
    @usableFromInline let firstChild: UInt32
    /// The number of children.
    @usableFromInline let childCount: UInt32
    /// 0 for a category, 1 for its sub-items, and so on.
    @usableFromInline let depth: UInt8
  }

  /// The split view's layout sessions with this catalog use.
  public let layout: SplitLayout
  /// The horizontal menu's labels, in order.
  public let menuLabels: [String]
  /// The width of each label's cell in the menu strip, in points: the strip's content is
  /// the cells side by side, from 0 to ``menuContentWidth``.
  public let menuLabelWidths: [Double]
  /// Where each label's cell starts in the strip, in points: the sum of the widths before
  /// it.
  @usableFromInline let menuLabelStarts: [Double]
  /// The width of the strip's content, in points: the sum of ``menuLabelWidths``.
  public let menuContentWidth: Double
  /// The tree as it was described.
  public let tree: [Node]
  /// The number of nodes (categories and items) in the catalog.
  public let nodeCount: Int

  /// The number of menu labels, where the reducer reads it.
  @usableFromInline let menuLabelCount: Int
  /// One row per node, indexed by `NodeRef.index`.
  @usableFromInline let nodes: [NodeInfo]
  /// The children of every node, each node's run starting at its `firstChild`.
  @usableFromInline let childIndices: [UInt32]
  /// The indices of the top-level categories, in order.
  @usableFromInline let categoryIndices: [UInt32]
  let ids: [String]
  let names: [String]
  let images: [String]
  let indexByID: [String: UInt32]
  /// The JSON text of ``menuLabels`` and of each node's id, as `JSONWriter` writes them,
  /// and the nodes in the order of their ids: what a state's JSON is written with
  /// (`NavigationState.writeJSON(to:)`), escaped and sorted once.
  let text: JSONText

  /// Builds and validates a catalog.
  ///
  /// - Parameters:
  ///   - layout: the split view's layout.
  ///   - menuLabels: the horizontal menu's labels, 1 to ``Limits/maximumMenuLabels``.
  ///   - menuLabelWidths: each label's width in points, above 0 and at most
  ///     ``Limits/maximumLabelWidth``; nil for the widths ``labelWidth(_:)`` gives.
  ///   - categories: the top-level categories with their items.
  /// - Throws: `DomainError` naming the first problem: an empty name, a name without
  ///   letters or digits, a duplicate id, a tree too large or too deep (see ``Limits``),
  ///   label widths that do not match the labels.
  /// - Complexity: O(n) in the number of nodes.
  public init(
    layout: SplitLayout = .threeColumn, menuLabels: [String], menuLabelWidths: [Double]? = nil,
    categories: [Node]
  ) throws(DomainError) {
    let tables = try Tables(menuLabels: menuLabels, categories: categories)
    let widths = menuLabelWidths ?? menuLabels.map(Catalog.labelWidth)
    guard widths.count == menuLabels.count else {
      throw DomainError(
        "the menu has \(menuLabels.count) labels but \(widths.count) label widths")
    }
    for (position, width) in widths.enumerated()
    where !(width > 0 && width <= Limits.maximumLabelWidth) {
      throw DomainError(
        "the width of menu label \(position + 1) must be above 0 and at most \(Int(Limits.maximumLabelWidth)) points, found \(width)"
      )
    }
    var starts: [Double] = []
    var end = 0.0
    for width in widths {
      starts.append(end)
      end += width
    }
    self.layout = layout
    self.menuLabels = menuLabels
    self.menuLabelWidths = widths
    self.menuLabelStarts = starts
    self.menuContentWidth = end
    self.tree = categories
    self.nodeCount = tables.nodes.count
    self.menuLabelCount = menuLabels.count
    self.nodes = tables.nodes
    self.childIndices = tables.childIndices
    self.categoryIndices = tables.categoryIndices
    self.ids = tables.ids
    self.names = tables.names
    self.images = tables.images
    self.indexByID = tables.indexByID
    self.text = JSONText(labels: menuLabels, ids: tables.ids)
  }
}

// MARK: - Lookups

extension Catalog {
  /// The top-level categories, in order.
  public var categories: [NodeRef] { categoryIndices.map(NodeRef.init(index:)) }

  /// Every node, depth-first, pre-order.
  public var allNodes: [NodeRef] { (0..<UInt32(nodeCount)).map(NodeRef.init(index:)) }

  /// Whether `ref` names a node of this catalog (rather than an interned unknown id).
  @inlinable public func contains(_ ref: NodeRef) -> Bool { Int(ref.index) < nodeCount }

  /// The node with identifier `id`, or nil if the catalog has none.
  /// - Complexity: O(1) on average (a hash lookup).
  public func ref(of id: String) -> NodeRef? { indexByID[id].map(NodeRef.init(index:)) }

  /// The node's identifier, e.g. `espresso-machines/leva/leva-x`.
  /// - Precondition: `contains(ref)`.
  public func id(of ref: NodeRef) -> String { ids[checked(ref)] }

  /// The node's display name.
  /// - Precondition: `contains(ref)`.
  public func name(of ref: NodeRef) -> String { names[checked(ref)] }

  /// The node's image name (possibly empty).
  /// - Precondition: `contains(ref)`.
  public func image(of ref: NodeRef) -> String { images[checked(ref)] }

  /// The node's parent, nil for a top-level category.
  /// - Precondition: `contains(ref)`.
  public func parent(of ref: NodeRef) -> NodeRef? {
    let parent = nodes[checked(ref)].parent
    return parent == .max ? nil : NodeRef(index: parent)
  }

  /// The top-level category `ref` belongs to (itself for a category).
  /// - Precondition: `contains(ref)`.
  public func category(of ref: NodeRef) -> NodeRef {
    NodeRef(index: nodes[checked(ref)].category)
  }

  /// 0 for a top-level category, 1 for its sub-items, and so on.
  /// - Precondition: `contains(ref)`.
  public func depth(of ref: NodeRef) -> Int { Int(nodes[checked(ref)].depth) }

  /// The node's children, in display order.
  /// - Precondition: `contains(ref)`.
  public func children(of ref: NodeRef) -> [NodeRef] {
    let info = nodes[checked(ref)]
    let start = Int(info.firstChild)
    return childIndices[start..<start + Int(info.childCount)].map(NodeRef.init(index:))
  }

  /// Whether `ref` is a node of this catalog that has children (can be expanded).
  @inlinable public func hasChildren(_ ref: NodeRef) -> Bool {
    contains(ref) && nodes[Int(ref.index)].childCount > 0
  }

  /// Whether `ref` is a top-level category of this catalog.
  @inlinable public func isCategory(_ ref: NodeRef) -> Bool {
    contains(ref) && nodes[Int(ref.index)].parent == .max
  }

  /// Whether `item` lies below `category` (at any depth, not `category` itself).
  /// - Complexity: O(1): descendants are the contiguous range after a node.
  @inlinable public func isDescendant(_ item: NodeRef, of ancestor: NodeRef) -> Bool {
    guard contains(ancestor) else { return false }
    return item.index > ancestor.index && item.index < nodes[Int(ancestor.index)].subtreeEnd
  }

  /// The node's id, or `<unknown ref N>` for a ref outside the catalog: for displaying
  /// states that were mutated by hand, which the reducer never produces.
  func displayID(of ref: NodeRef) -> String {
    contains(ref) ? ids[Int(ref.index)] : "<unknown ref \(ref.index)>"
  }

  private func checked(_ ref: NodeRef) -> Int {
    precondition(contains(ref), "node ref \(ref.index) is not in this catalog of \(nodeCount)")
    return Int(ref.index)
  }
}

// MARK: - Equality

extension Catalog: Equatable, Hashable {
  /// Two catalogs are equal when they describe the same layout, labels, label widths and
  /// tree.
  public static func == (lhs: Catalog, rhs: Catalog) -> Bool {
    lhs === rhs
      || (lhs.layout == rhs.layout && lhs.menuLabels == rhs.menuLabels
        && lhs.menuLabelWidths == rhs.menuLabelWidths && lhs.tree == rhs.tree)
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(layout)
    hasher.combine(menuLabels)
    hasher.combine(menuLabelWidths)
    hasher.combine(tree)
  }
}
