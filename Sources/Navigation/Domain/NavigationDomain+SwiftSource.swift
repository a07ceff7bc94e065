public import RewindCore

// The navigation domain written as Swift source, for the tests `rewind testgen` writes:
// catalog nodes become constants named after their ids
// (`let espressoMachinesLeva = domain.ref("espresso-machines/leva")`).

extension NavigationDomain: SwiftSourceDomain {
  /// `NavigationDomain(NavigationSettings(catalog: .sample(layout: …), …))` for a session
  /// of the sample catalog; its settings' JSON otherwise.
  public var swiftDomainExpression: String {
    let settings = navigationSettings
    guard settings.catalog == Catalog.sample(layout: settings.catalog.layout) else {
      return
        "try NavigationDomain(settingsJSON: JSONValue(parsing: \(SwiftSource.stringLiteral(settingsJSON.compactText))))"
    }
    return """
      NavigationDomain(
        NavigationSettings(
          catalog: .sample(layout: .\(settings.catalog.layout.rawValue)), idiom: .\(settings.idiom.rawValue),
          sizeClass: .\(settings.sizeClass.rawValue), orientation: .\(settings.orientation.rawValue),
          menuViewportWidth: \(SwiftSource.doubleLiteral(settings.menuViewportWidth)),
          scrollsTappedTabIntoView: \(settings.scrollsTappedTabIntoView)))
      """
  }

  public func swiftSource(of event: NavigationEvent, names: inout SwiftSourceNames) -> String {
    switch event {
    case .menuTabTapped(let index): ".menuTabTapped(index: \(index))"
    case .menuScrolled(let offset): ".menuScrolled(offset: \(SwiftSource.doubleLiteral(offset)))"
    case .menuViewportResized(let width):
      ".menuViewportResized(width: \(SwiftSource.doubleLiteral(width)))"
    case .categorySelected(let ref): ".categorySelected(\(source(of: ref, &names)))"
    case .itemSelected(let ref): ".itemSelected(\(source(of: ref, &names)))"
    case .itemExpanded(let ref): ".itemExpanded(\(source(of: ref, &names)))"
    case .itemCollapsed(let ref): ".itemCollapsed(\(source(of: ref, &names)))"
    case .columnVisibilityChanged(let value): ".columnVisibilityChanged(.\(value.rawValue))"
    case .splitStyleChanged(let value): ".splitStyleChanged(.\(value.rawValue))"
    case .sizeClassChanged(let value): ".sizeClassChanged(.\(value.rawValue))"
    case .orientationChanged(let value): ".orientationChanged(.\(value.rawValue))"
    case .backTapped: ".backTapped"
    }
  }

  public func swiftSource(of rejection: NavigationRejection, names: inout SwiftSourceNames)
    -> String
  {
    switch rejection {
    case .tabIndexOutOfRange(let index, let count):
      ".tabIndexOutOfRange(index: \(index), count: \(count))"
    case .scrollOffsetNotFinite: ".scrollOffsetNotFinite"
    case .scrollOffsetNegative: ".scrollOffsetNegative"
    case .viewportWidthOutOfRange: ".viewportWidthOutOfRange"
    case .unknownIdentifier: ".unknownIdentifier"
    case .notATopLevelCategory: ".notATopLevelCategory"
    case .noCategorySelected: ".noCategorySelected"
    case .itemNotInSelectedCategory: ".itemNotInSelectedCategory"
    case .notExpandable: ".notExpandable"
    case .backNotAvailableOnRegularWidth: ".backNotAvailableOnRegularWidth"
    case .backNotAvailableOnSidebar: ".backNotAvailableOnSidebar"
    }
  }

  /// Sets the stored fields that differ (the menu's selection, offset and width; the
  /// split view's selections, expanded items, visibility, style, size class,
  /// orientation and compact column); expanded items are inserted and removed one by
  /// one.
  public func swiftAssignments(
    from old: NavigationState, to new: NavigationState, on target: String,
    names: inout SwiftSourceNames
  ) -> [String] {
    var lines: [String] = []
    func set<T: Equatable>(_ path: String, _ before: T, _ after: T, _ value: String) {
      if before != after { lines.append("\(target).\(path) = \(value)") }
    }
    let (a, b) = (old.menu, new.menu)
    set("menu.selectedIndex", a.selectedIndex, b.selectedIndex, "\(b.selectedIndex)")
    set(
      "menu.scrollOffset", a.scrollOffset.bitPattern, b.scrollOffset.bitPattern,
      SwiftSource.doubleLiteral(b.scrollOffset))
    set(
      "menu.viewportWidth", a.viewportWidth.bitPattern, b.viewportWidth.bitPattern,
      SwiftSource.doubleLiteral(b.viewportWidth))
    let (x, y) = (old.split, new.split)
    set(
      "split.selectedCategory", x.selectedCategory, y.selectedCategory,
      source(of: y.selectedCategory, &names))
    set("split.selectedItem", x.selectedItem, y.selectedItem, source(of: y.selectedItem, &names))
    if x.expanded != y.expanded {
      for ref in x.expanded.refs where !y.expanded.contains(ref) {
        lines.append("\(target).split.expanded.remove(\(source(of: ref, &names)))")
      }
      for ref in y.expanded.refs where !x.expanded.contains(ref) {
        lines.append("\(target).split.expanded.insert(\(source(of: ref, &names)))")
      }
    }
    set(
      "split.columnVisibility", x.columnVisibility, y.columnVisibility,
      ".\(y.columnVisibility.rawValue)")
    set("split.style", x.style, y.style, ".\(y.style.rawValue)")
    set("split.sizeClass", x.sizeClass, y.sizeClass, ".\(y.sizeClass.rawValue)")
    set("split.orientation", x.orientation, y.orientation, ".\(y.orientation.rawValue)")
    set(
      "split.compactColumn", x.compactColumn, y.compactColumn, ".\(y.compactColumn.rawValue)")
    return lines
  }

  /// A node as the constant named after its id, or `nil`.
  func source(of ref: NodeRef?, _ names: inout SwiftSourceNames) -> String {
    guard let ref else { return "nil" }
    let id = self.id(of: ref)
    return names.constant(suggesting: id, "domain.ref(\(SwiftSource.stringLiteral(id)))")
  }
}
