/// A reference to one node of a catalog (a category or an item), as events and states
/// carry it: a small index instead of the identifier string.
///
/// A ref below the catalog's ``Catalog/nodeCount`` is the node at that position of the
/// catalog's depth-first order. A ref at or above it names an identifier the catalog lacks
/// (imported from JSON or read from an old recording), interned by the
/// ``NavigationDomain`` value that made it; the reducer rejects such refs with
/// ``NavigationRejection/unknownIdentifier``.
///
/// Refs are cheap to copy and compare, which keeps ``NavigationEvent`` trivially copyable.
/// Get them from the domain (``NavigationDomain/ref(_:)``), not by guessing indices, and
/// turn them back into identifiers with ``NavigationDomain/id(of:)``.
@frozen public struct NodeRef: Hashable, Sendable, Comparable {
  /// The position in the catalog's node table, or beyond it for an interned unknown id.
  public var index: UInt32

  /// A ref to node `index`; prefer ``NavigationDomain/ref(_:)``.
  @inlinable public init(index: UInt32) { self.index = index }

  public static func < (lhs: NodeRef, rhs: NodeRef) -> Bool { lhs.index < rhs.index }
}
