public import RewindCore

/// The navigation domain: a horizontal menu and a navigation split view browsing a
/// catalog, as Rewind records, replays and inspects them.
///
/// A domain value describes one session: its ``catalog`` and initial size class (both
/// stored in the journal header as ``settings``), and the table of unknown identifiers
/// its events met. Copies of a domain value share that table, so refs made by one copy
/// mean the same to every other; refs of *another* domain value are only portable when
/// they point into the catalog.
///
/// ```swift
/// let domain = NavigationDomain()  // the sample catalog
/// var state = domain.initialState
/// _ = domain.reduce(&state, .categorySelected(domain.ref("grinders")))
/// print(domain.render(state))
/// ```
public struct NavigationDomain: Domain {
  public typealias State = NavigationState
  public typealias Event = NavigationEvent
  public typealias Rejection = NavigationRejection

  public static let identifier = "navigation"
  public static let schemaVersion: UInt32 = 1
  public static let readableSchemaVersions: ClosedRange<UInt32> = 1...1
  public static let eventKinds = NavigationEvent.Kind.allCases.map(\.rawValue)

  /// The catalog the session browses.
  public let catalog: Catalog
  /// The size class of the initial state.
  public let initialSizeClass: SizeClass
  /// The identifiers this session met that the catalog lacks.
  @usableFromInline let unknownIdentifiers: UnknownIdentifiers

  /// The domain of a session with these settings.
  public init(_ settings: NavigationSettings = .sample) {
    catalog = settings.catalog
    initialSizeClass = settings.sizeClass
    unknownIdentifiers = UnknownIdentifiers(base: settings.catalog.nodeCount)
  }

  /// The domain of a session browsing `catalog`, starting in `sizeClass`.
  public init(catalog: Catalog, sizeClass: SizeClass = .regular) {
    self.init(NavigationSettings(catalog: catalog, sizeClass: sizeClass))
  }

  /// The settings this domain was built from.
  public var navigationSettings: NavigationSettings {
    NavigationSettings(catalog: catalog, sizeClass: initialSizeClass)
  }

  public init(settings: [UInt8]) throws(DomainError) {
    self.init(try NavigationSettings(blob: settings))
  }

  public var settings: [UInt8] { navigationSettings.blob }

  public var settingsJSON: JSONValue { navigationSettings.json }

  public init(settingsJSON: JSONValue) throws(DomainError) {
    self.init(try NavigationSettings(json: settingsJSON))
  }

  public var initialState: NavigationState {
    NavigationState(catalog: catalog, sizeClass: initialSizeClass)
  }

  /// Applies `event` to `state`; see ``NavigationState/apply(_:)`` for the rules.
  /// - Complexity: O(1), no allocation.
  @inlinable
  public func reduce(_ state: inout NavigationState, _ event: NavigationEvent)
    -> Outcome<NavigationRejection>
  {
    state.apply(event)
  }

  public var fields: [StateField<NavigationState>] { NavigationState.fields }

  /// The fields that differ; see ``NavigationState/changedFields(from:to:)``.
  /// - Complexity: O(1), no allocation, for states of this domain.
  @inlinable @inline(__always)
  public func changedFields(from old: NavigationState, to new: NavigationState) -> FieldSet {
    NavigationState.changedFields(from: old, to: new)
  }

  public func json(_ state: NavigationState) -> JSONValue { state.json }

  public func render(_ state: NavigationState) -> String { state.renderedText() }
}

// MARK: - Identifiers

extension NavigationDomain {
  /// The ref of `id`: its catalog node, or an interned ref for an id the catalog lacks
  /// (which the reducer will reject).
  ///
  /// - Precondition: `id` is in the catalog, or fewer than 65,536 distinct unknown ids
  ///   have been interned by this domain value. Use ``internedRef(_:)`` for ids from
  ///   untrusted input.
  /// - Complexity: O(1) on average; a lock is taken only for unknown ids.
  public func ref(_ id: String) -> NodeRef {
    do {
      return try internedRef(id)
    } catch {
      preconditionFailure(error.message)
    }
  }

  /// The ref of `id`, interning it if the catalog lacks it.
  /// - Throws: `DomainError` when the id is longer than 1,024 bytes or the domain has
  ///   interned 65,536 distinct unknown ids already.
  public func internedRef(_ id: String) throws(DomainError) -> NodeRef {
    if let ref = catalog.ref(of: id) { return ref }
    guard id.utf8.count <= Catalog.Limits.maximumIdentifierLength else {
      throw DomainError(
        "an id of \(id.utf8.count) bytes is longer than the limit of "
          + "\(Catalog.Limits.maximumIdentifierLength)")
    }
    guard let ref = unknownIdentifiers.intern(id) else {
      throw DomainError(
        "more than \(UnknownIdentifiers.limit) distinct ids missing from the catalog")
    }
    return ref
  }

  /// The identifier `ref` stands for: a catalog node's id or an interned unknown id.
  /// - Precondition: `ref` was made by this domain (or points into its catalog).
  public func id(of ref: NodeRef) -> String {
    if catalog.contains(ref) { return catalog.id(of: ref) }
    guard let id = unknownIdentifiers.id(of: ref) else {
      preconditionFailure("node ref \(ref.index) was not made by this domain")
    }
    return id
  }

  /// The number of distinct unknown ids this domain value has interned.
  public var unknownIdentifierCount: Int { unknownIdentifiers.count }
}
