public import RewindTerminal

extension NavigationScreen {
  /// What a key or a click does: a tap becomes the event the app would record; a move of
  /// the focus, the highlight or a list's scrolling changes only the screen.
  public mutating func handle(_ input: InputEvent, state: NavigationState)
    -> ScreenResponse<NavigationEvent>
  {
    sync(with: state)
    switch input {
    case .resize, .paste: return .ignored
    case .mouse(let mouse): return handle(mouse, state: state)
    case .key(let key): return handle(key, state: state)
    }
  }

  /// Brings the focus, the highlight and the lists in line with `state`: a focused
  /// column that is no longer shown passes the focus to the nearest one that is; a list
  /// whose category changed starts again at its selected row.
  mutating func sync(with state: NavigationState) {
    let labelCount = state.menuLabels.count
    menuHighlight = min(max(menuHighlight ?? state.menu.selectedIndex, 0), labelCount - 1)
    let shown = state.shownColumns
    if case .column(let column) = focus, !shown.contains(column) {
      // The nearest shown column, the later one on a tie (the one a selection revealed).
      let nearest = shown.min { a, b in
        let da = abs(Self.order(a) - Self.order(column))
        let db = abs(Self.order(b) - Self.order(column))
        return da != db ? da < db : Self.order(a) > Self.order(b)
      }
      focus = nearest.map(Focus.column) ?? .menu
    }
    for column in shown {
      let rows = state.listRows(of: column)
      var list = lists[column] ?? ListPosition()
      let owner = column == .sidebar ? nil : state.split.selectedCategory
      if list.owner != owner || lists[column] == nil {
        list = ListPosition(
          cursor: rows.firstIndex { $0.marker == .selected } ?? 0, top: 0, owner: owner)
      }
      list.cursor = min(max(list.cursor, 0), max(rows.count - 1, 0))
      lists[column] = list
    }
  }

  private static func order(_ column: Column) -> Int {
    switch column {
    case .sidebar: 0
    case .content: 1
    case .detail: 2
    }
  }

  // MARK: Keys

  private mutating func handle(_ key: Key, state: NavigationState)
    -> ScreenResponse<NavigationEvent>
  {
    switch key {
    case .tab:
      moveFocus(by: 1, state: state)
      return .changedView
    case .backTab:
      moveFocus(by: -1, state: state)
      return .changedView
    case .character("v"):
      return .send(.columnVisibilityChanged(Self.next(state.split.columnVisibility)))
    case .character("s"):
      return .send(.splitStyleChanged(Self.next(state.split.style)))
    case .character("c"):
      return .send(.sizeClassChanged(state.split.sizeClass == .compact ? .regular : .compact))
    case .character("<"):
      return scrollStrip(by: -Self.keyScrollStep(state), state: state)
    case .character(">"):
      return scrollStrip(by: Self.keyScrollStep(state), state: state)
    case .backspace, .escape:
      // There is one back button, whatever has the focus.
      guard let event = backEvent(state) else { return .ignored }
      return .send(event)
    default:
      break
    }
    switch focus {
    case .menu: return handleMenu(key, state: state)
    case .column(let column): return handle(key, in: column, state: state)
    }
  }

  private static func next<Value: CaseIterable & Equatable>(_ value: Value) -> Value {
    let all = Array(Value.allCases)
    let index = all.firstIndex(of: value) ?? 0
    return all[(index + 1) % all.count]
  }

  /// Tab: the menu strip, then each shown column, round.
  private mutating func moveFocus(by step: Int, state: NavigationState) {
    let order = [Focus.menu] + state.shownColumns.map(Focus.column)
    let index = order.firstIndex(of: focus) ?? 0
    focus = order[(index + step + order.count) % order.count]
    if focus == .menu { menuHighlight = state.menu.selectedIndex }
  }

  private mutating func handleMenu(_ key: Key, state: NavigationState)
    -> ScreenResponse<NavigationEvent>
  {
    let count = state.menuLabels.count
    let highlight = menuHighlight ?? state.menu.selectedIndex
    switch key {
    case .left: menuHighlight = max(highlight - 1, 0)
    case .right: menuHighlight = min(highlight + 1, count - 1)
    case .home: menuHighlight = 0
    case .end: menuHighlight = count - 1
    case .enter, .character(" "): return .send(.menuTabTapped(index: highlight))
    default: return .ignored
    }
    return .changedView
  }

  private mutating func handle(_ key: Key, in column: Column, state: NavigationState)
    -> ScreenResponse<NavigationEvent>
  {
    let rows = state.listRows(of: column)
    var list = lists[column] ?? ListPosition()
    defer { lists[column] = list }
    let page = max((listHeights[column] ?? 10) - 1, 1)
    let last = max(rows.count - 1, 0)
    switch key {
    case .up: list.cursor = max(list.cursor - 1, 0)
    case .down: list.cursor = min(list.cursor + 1, last)
    case .pageUp: list.cursor = max(list.cursor - page, 0)
    case .pageDown: list.cursor = min(list.cursor + page, last)
    case .home: list.cursor = 0
    case .end: list.cursor = last
    case .enter, .character(" "):
      guard rows.indices.contains(list.cursor) else { return .changedView }
      return tap(rows[list.cursor].target)
    case .right:
      guard rows.indices.contains(list.cursor), let expanded = rows[list.cursor].expanded,
        case .item(let item) = rows[list.cursor].target
      else { return .changedView }
      if !expanded { return .send(.itemExpanded(item)) }
      // Expanded already: to its first child.
      list.cursor = min(list.cursor + 1, last)
    case .left:
      guard rows.indices.contains(list.cursor) else { return .changedView }
      let row = rows[list.cursor]
      if row.expanded == true, case .item(let item) = row.target {
        return .send(.itemCollapsed(item))
      }
      // A child: to its parent's row.
      if row.depth > 0,
        let parent = rows[..<list.cursor].lastIndex(where: { $0.depth == row.depth - 1 })
      {
        list.cursor = parent
      }
    default:
      return .ignored
    }
    return .changedView
  }

  /// `backTapped`, when the split view shows a back button: compact, beyond the sidebar.
  private func backEvent(_ state: NavigationState) -> NavigationEvent? {
    state.split.sizeClass == .compact && state.split.compactColumn != .sidebar
      ? .backTapped : nil
  }

  private func tap(_ target: ListRow.Target) -> ScreenResponse<NavigationEvent> {
    switch target {
    case .category(let category): .send(.categorySelected(category))
    case .item(let item): .send(.itemSelected(item))
    case .none: .changedView
    }
  }

  /// A `menuScrolled` event to the offset `delta` points on, within the strip; nothing
  /// when the strip is at that end already.
  private func scrollStrip(by delta: Double, state: NavigationState)
    -> ScreenResponse<NavigationEvent>
  {
    let menu = state.menu
    let limit = menu.maximumScrollOffset(contentWidth: state.catalog.menuContentWidth)
    let offset = min(max(menu.scrollOffset + delta, 0), limit)
    guard offset != menu.scrollOffset else { return .changedView }
    return .send(.menuScrolled(offset: offset))
  }

  // MARK: Mouse

  private mutating func handle(_ mouse: MouseEvent, state: NavigationState)
    -> ScreenResponse<NavigationEvent>
  {
    guard
      let target = hits.last(where: { $0.rect.contains(column: mouse.column, row: mouse.row) })?
        .target
    else { return .ignored }
    switch mouse.action {
    case .wheelUp, .wheelDown:
      let direction = mouse.action == .wheelUp ? -1.0 : 1.0
      switch target {
      case .label, .scrollBack, .scrollForward, .strip:
        return scrollStrip(by: direction * Self.wheelScrollStep, state: state)
      case .column(let column), .row(let column, _, _), .disclosure(let column, _, _):
        scrollList(column, by: Int(direction) * 3, state: state)
        return .changedView
      case .back:
        return .ignored
      }
    case .press where mouse.button == .left:
      return click(target, state: state)
    default:
      return .ignored
    }
  }

  private mutating func click(_ target: HitTarget, state: NavigationState)
    -> ScreenResponse<NavigationEvent>
  {
    switch target {
    case .label(let index):
      focus = .menu
      menuHighlight = index
      return .send(.menuTabTapped(index: index))
    case .scrollBack:
      return scrollStrip(by: -Self.keyScrollStep(state), state: state)
    case .scrollForward:
      return scrollStrip(by: Self.keyScrollStep(state), state: state)
    case .strip:
      focus = .menu
      return .changedView
    case .column(let column):
      focus = .column(column)
      return .changedView
    case .row(let column, let index, let row):
      focus = .column(column)
      lists[column, default: ListPosition()].cursor = index
      return tap(row)
    case .disclosure(let column, let index, let item):
      focus = .column(column)
      lists[column, default: ListPosition()].cursor = index
      return .send(
        state.split.expanded.contains(item) ? .itemCollapsed(item) : .itemExpanded(item))
    case .back:
      return backEvent(state).map { .send($0) } ?? .changedView
    }
  }

  /// Scrolls a column's list by `rows` (the wheel), keeping the highlight on screen.
  private mutating func scrollList(_ column: Column, by rows: Int, state: NavigationState) {
    let count = state.listRows(of: column).count
    let height = max(listHeights[column] ?? 1, 1)
    var list = lists[column] ?? ListPosition()
    list.top = min(max(list.top + rows, 0), max(count - height, 0))
    list.cursor = min(max(list.cursor, list.top), list.top + height - 1)
    lists[column] = list
  }
}
