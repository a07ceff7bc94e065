public import RewindCore
import Synchronization

/// The navigation domain: a horizontal menu and a navigation split view browsing a
/// catalog, as Rewind records, replays and inspects them.
///
/// A domain object is one session: its ``settings`` (the catalog, the device's idiom, the
/// initial size class, orientation and menu viewport; stored in the journal header as
/// ``settingsJSON``), and the table of the identifiers its events named that the catalog
/// lacks. Each use of a session builds its own object, and with it its own table: a
/// `Timeline` builds one from the journal header for each replay, `rewind import` one for
/// each import, a scenario script one for each recording. The table is bounded per session
/// (65,536 unknown ids), and it is a class so that the sharing is what it looks like:
/// whatever holds the object names unknown ids the same way. A ref of *another* session is
/// only portable when it points into the catalog.
///
/// Schema 2 added `orientationChanged`, `menuViewportResized`, the state's
/// `split.orientation` and `menu.viewportWidth`, and the settings' idiom, orientation and
/// menu. A journal of schema 1 is read through ``init(settingsJSON:upcastingFrom:)``: its
/// settings upcast from its device (``NavigationSettings/init(schema1:device:)``), its
/// events read as they were written (schema 1's are schema 2's events), its snapshots
/// read in schema 1's layout and completed from the settings.
///
/// ```swift
/// let domain = NavigationDomain()  // the sample catalog
/// var state = domain.initialState
/// _ = domain.reduce(&state, .categorySelected(domain.ref("grinders")))
/// print(domain.render(state))
/// ```
public final class NavigationDomain: Domain {
  public typealias State = NavigationState
  public typealias Event = NavigationEvent
  public typealias Rejection = NavigationRejection

  public static let identifier = "navigation"
  public static let schemaVersion: UInt32 = 2
  public static let readableSchemaVersions: ClosedRange<UInt32> = 1...2
  public static let eventKinds = NavigationEvent.Kind.allCases.map(\.rawValue)

  /// The session's settings.
  public let settings: NavigationSettings
  /// The catalog the session browses.
  public var catalog: Catalog { settings.catalog }
  /// The size class of the initial state.
  public var initialSizeClass: SizeClass { settings.sizeClass }
  /// The schema version of the journal this domain reads: ``schemaVersion``, or 1 for a
  /// domain built to upcast a journal of schema 1, whose decoders refuse the events
  /// schema 1 did not have.
  public let readsSchemaVersion: UInt32
  /// The identifiers this session met that the catalog lacks.
  private let unknownIdentifiers: Mutex<UnknownIdentifiers>

  /// The domain of a new session with these settings.
  public convenience init(_ settings: NavigationSettings = .sample) {
    self.init(settings, readsSchemaVersion: Self.schemaVersion)
  }

  private init(_ settings: NavigationSettings, readsSchemaVersion: UInt32) {
    self.settings = settings
    self.readsSchemaVersion = readsSchemaVersion
    unknownIdentifiers = Mutex(UnknownIdentifiers(base: settings.catalog.nodeCount))
  }

  /// The domain of a new session browsing `catalog`, starting in `sizeClass`, otherwise
  /// with the sample's settings.
  public convenience init(catalog: Catalog, sizeClass: SizeClass = .regular) {
    var settings = NavigationSettings.sample
    settings.catalog = catalog
    settings.sizeClass = sizeClass
    self.init(settings)
  }

  /// The settings this domain was built from.
  public var navigationSettings: NavigationSettings { settings }

  /// The settings as JSON, in the current schema (see <doc:JSONNames>).
  public var settingsJSON: JSONValue { settings.json }

  /// The domain of a new session with the settings ``settingsJSON`` writes.
  public convenience init(settingsJSON: JSONValue) throws(DomainError) {
    self.init(try NavigationSettings(json: settingsJSON))
  }

  /// The domain of a session recorded with schema 1: its settings upcast from its device
  /// (``NavigationSettings/init(schema1:device:)``); its decoders read schema 1's events
  /// and snapshots as schema 2's.
  /// - Throws: `DomainError` naming the first bad value of the settings.
  public convenience init(settingsJSON: JSONValue, upcastingFrom schema: RecordedSchema)
    throws(DomainError)
  {
    precondition(
      Self.readableSchemaVersions.contains(schema.version),
      "schema \(schema.version) of 'navigation' is not readable")
    guard schema.version == 1 else {
      self.init(try NavigationSettings(json: settingsJSON))
      return
    }
    self.init(
      try NavigationSettings(schema1: settingsJSON, device: schema.device),
      readsSchemaVersion: 1)
  }

  /// The fields of schema 1, which lacked `menu.viewportWidth` and `split.orientation`;
  /// today's for schema 2.
  public func fieldPaths(schemaVersion version: UInt32) -> [String] {
    let added: Set<NavigationField> = version < 2 ? [.menuViewportWidth, .splitOrientation] : []
    return NavigationField.allCases.filter { !added.contains($0) }.map(\.path)
  }

  public var initialState: NavigationState { NavigationState(settings: settings) }

  /// Applies `event` to `state`; see ``NavigationState/apply(_:)`` for the rules.
  /// - Complexity: O(1), no allocation. Inlined: a scroll (most events of a session) is
  ///   applied in the caller's loop, any other event by a call.
  @inlinable @inline(__always)
  public func reduce(_ state: inout NavigationState, _ event: NavigationEvent)
    -> Outcome<NavigationRejection>
  {
    if case .menuScrolled(let offset) = event {
      var ignored = IgnoredChanges()
      return state.scroll(to: offset, recording: &ignored)
    }
    return state.applyInFull(event)
  }

  /// Applies `event` and says which fields it changed: the reducer tells them as it
  /// writes them (``NavigationState/apply(_:)``'s rules, run with a recorder), so that
  /// nothing of the state is copied or compared but the fields the event writes.
  /// - Complexity: O(1), no allocation, for catalogs of any size. Inlined: a scroll is
  ///   applied in the caller's loop, any other event by a call.
  @inlinable @inline(__always)
  public func reduceTrackingChanges(_ state: inout NavigationState, _ event: NavigationEvent)
    -> (outcome: Outcome<NavigationRejection>, changed: FieldSet)
  {
    state.applyTrackingChanges(event)
  }

  public var fields: [StateField<NavigationState>] { NavigationState.fields }

  /// The catalog's ids (with their names) a field can hold: categories for
  /// `split.selectedCategory`, the items below them for `split.selectedItem`, those with
  /// children for `split.expanded`; and the menu's labels for `menu.labels`.
  public func knownValues(for path: String) -> [KnownValue]? {
    NavigationField.allCases.first { $0.path == path }?.knownValues(in: catalog)
  }

  /// The fields that differ, compared field by field without building any JSON.
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
  ///   have been interned in this session. Use ``internedRef(_:)`` for ids from
  ///   untrusted input.
  /// - Complexity: O(1) on average; a lock is taken only for unknown ids.
  public func ref(_ id: String) -> NodeRef {
    do {
      return try internedRef(id)
    } catch {
      preconditionFailure(error.message)
    }
  }

  /// The ref of `id`, interning it in this session's table if the catalog lacks it.
  /// - Throws: `DomainError` when the id is longer than 1,024 bytes or the session has
  ///   interned 65,536 distinct unknown ids already.
  public func internedRef(_ id: String) throws(DomainError) -> NodeRef {
    if let ref = catalog.ref(of: id) { return ref }
    guard id.utf8.count <= Catalog.Limits.maximumIdentifierLength else {
      throw DomainError(
        "an id of \(id.utf8.count) bytes is longer than the limit of "
          + "\(Catalog.Limits.maximumIdentifierLength)")
    }
    guard let ref = unknownIdentifiers.withLock({ $0.intern(id) }) else {
      throw DomainError(
        "more than \(UnknownIdentifiers.limit) distinct ids missing from the catalog")
    }
    return ref
  }

  /// The ref of an id read from an import or a scenario script: as ``internedRef(_:)``,
  /// but an id holding a control character (see `TerminalText.isControl(_:)`) is
  /// refused, since no id can mean one. Ids read back from a journal are not checked:
  /// whatever a journal holds is read, and shown escaped.
  /// - Throws: `DomainError`, e.g. `the id "a\u{1B}b" contains a control character
  ///   (U+001B)`, or what ``internedRef(_:)`` throws.
  func inputRef(_ id: String) throws(DomainError) -> NodeRef {
    if let problem = TerminalText.controlCharacterProblem(in: id, describedAs: "the id") {
      throw DomainError(problem)
    }
    return try internedRef(id)
  }

  /// The identifier `ref` stands for: a catalog node's id or an interned unknown id.
  /// - Precondition: `ref` was made in this session (or points into its catalog).
  public func id(of ref: NodeRef) -> String {
    if catalog.contains(ref) { return catalog.id(of: ref) }
    guard let id = unknownIdentifiers.withLock({ $0.id(of: ref) }) else {
      preconditionFailure("node ref \(ref.index) was not made in this session")
    }
    return id
  }

  /// The number of distinct unknown ids this session has interned.
  package var unknownIdentifierCount: Int { unknownIdentifiers.withLock { $0.count } }
}
