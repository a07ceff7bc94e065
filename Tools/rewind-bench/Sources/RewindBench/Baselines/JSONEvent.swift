import Foundation
import Navigation

/// One event as a typical app writes it: a `Codable` struct with optional payload fields,
/// encoded by Foundation's `JSONEncoder` with the names `rewind export` uses, e.g.
/// `{"seq":12,"time":200004,"event":"menuScrolled","offset":120.5}`. Identifiers are the
/// catalog's stable slugs.
struct JSONEvent: Codable {
  var seq: UInt64
  var time: UInt64
  var event: String
  var index: Int?
  var offset: Double?
  var id: String?
  var visibility: String?
  var style: String?
  var sizeClass: String?
  var width: Double?
  var orientation: String?

  /// The JSON form of one recorded event.
  init(sequence: UInt64, time: UInt64, event: NavigationEvent, domain: NavigationDomain) {
    seq = sequence
    self.time = time
    self.event = event.kind.rawValue
    let payload = JSONEventPayload(event, domain: domain)
    index = payload.index
    offset = payload.offset
    id = payload.id
    visibility = payload.visibility
    style = payload.style
    sizeClass = payload.sizeClass
    width = payload.width
    orientation = payload.orientation
  }

  /// The event back, its ids looked up in the domain's catalog.
  func navigationEvent(_ domain: NavigationDomain) throws -> NavigationEvent {
    try JSONEventPayload(
      index: index, offset: offset, id: id, visibility: visibility, style: style,
      sizeClass: sizeClass, width: width, orientation: orientation
    ).navigationEvent(kind: event, domain: domain)
  }
}

/// The payload fields of an event alone: the `payload` column of the SQLite baseline.
struct JSONEventPayload: Codable {
  var index: Int?
  var offset: Double?
  var id: String?
  var visibility: String?
  var style: String?
  var sizeClass: String?
  var width: Double?
  var orientation: String?

  init(
    index: Int? = nil, offset: Double? = nil, id: String? = nil, visibility: String? = nil,
    style: String? = nil, sizeClass: String? = nil, width: Double? = nil,
    orientation: String? = nil
  ) {
    self.index = index
    self.offset = offset
    self.id = id
    self.visibility = visibility
    self.style = style
    self.sizeClass = sizeClass
    self.width = width
    self.orientation = orientation
  }

  init(_ event: NavigationEvent, domain: NavigationDomain) {
    self.init()
    switch event {
    case .menuTabTapped(let index): self.index = index
    case .menuScrolled(let offset): self.offset = offset
    case .categorySelected(let ref), .itemSelected(let ref): id = ref.map(domain.id(of:))
    case .itemExpanded(let ref), .itemCollapsed(let ref): id = domain.id(of: ref)
    case .columnVisibilityChanged(let value): visibility = value.rawValue
    case .splitStyleChanged(let value): style = value.rawValue
    case .sizeClassChanged(let value): sizeClass = value.rawValue
    case .menuViewportResized(let value): width = value
    case .orientationChanged(let value): orientation = value.rawValue
    case .backTapped: break
    }
  }

  func navigationEvent(kind: String, domain: NavigationDomain) throws -> NavigationEvent {
    func required<T>(_ value: T?) throws -> T {
      guard let value else { throw BenchError("a \(kind) event lacks its payload") }
      return value
    }
    func ref(_ id: String) throws -> NodeRef { try domain.internedRef(id) }
    switch NavigationEvent.Kind(rawValue: kind) {
    case .menuTabTapped: return .menuTabTapped(index: try required(index))
    case .menuScrolled: return .menuScrolled(offset: try required(offset))
    case .categorySelected: return .categorySelected(try id.map(ref))
    case .itemSelected: return .itemSelected(try id.map(ref))
    case .itemExpanded: return .itemExpanded(try ref(try required(id)))
    case .itemCollapsed: return .itemCollapsed(try ref(try required(id)))
    case .columnVisibilityChanged:
      return .columnVisibilityChanged(try required(visibility.flatMap(ColumnVisibility.init)))
    case .splitStyleChanged:
      return .splitStyleChanged(try required(style.flatMap(SplitStyle.init)))
    case .sizeClassChanged:
      return .sizeClassChanged(try required(sizeClass.flatMap(SizeClass.init)))
    case .menuViewportResized: return .menuViewportResized(width: try required(width))
    case .orientationChanged:
      return .orientationChanged(try required(orientation.flatMap(Orientation.init)))
    case .backTapped: return .backTapped
    case nil: throw BenchError("unknown event kind \(kind)")
    }
  }
}
