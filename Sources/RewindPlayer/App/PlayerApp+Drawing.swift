import RewindCore
public import RewindTerminal

// The player's screen, top to bottom: a header line; the state at the cursor beside (on a
// wide terminal) or above the panel of events and changes; the timeline bar (the density
// strip and the position line); and a line for messages and the prompt. Overlays (the
// keys, a diff) are drawn last, over the rest.

extension PlayerApp {
  /// The panel's width beside the state from this many columns on; below it, the panel
  /// goes under the state.
  static var sideBySideColumns: Int { 110 }

  /// Draws the whole player.
  public mutating func draw(on screen: inout Screen) {
    let bounds = screen.bounds
    drawHeader(on: &screen, in: bounds.row(0))
    let footerHeight = 3
    let body = Rect(
      column: 0, row: 1, width: bounds.width, height: max(bounds.height - 1 - footerHeight, 0))
    let stateArea: Rect
    let panelArea: Rect
    if bounds.width >= Self.sideBySideColumns {
      let panelWidth = max(44, bounds.width * 9 / 20)
      (stateArea, panelArea) = body.splitColumns(at: body.width - panelWidth)
    } else {
      let panelHeight = min(max(body.height * 2 / 5, 8), body.height)
      (stateArea, panelArea) = body.splitRows(at: body.height - panelHeight)
    }
    drawState(on: &screen, in: stateArea)
    drawPanel(on: &screen, in: panelArea)
    let footer = bounds.height - footerHeight
    drawStrip(on: &screen, in: Rect(column: 0, row: footer, width: bounds.width, height: 1))
    drawPosition(on: &screen, in: bounds.row(footer + 1))
    drawMessage(on: &screen, in: bounds.row(footer + 2))
    switch player.overlay {
    case .help:
      screen.helpOverlay(
        title: "rewind play: keys", entries: PlayerKeys.help, footer: "? or Esc closes this")
    case .diff(let diff): drawDiff(diff, on: &screen)
    case nil: break
    }
  }

  // MARK: Header and state

  /// `rewind play  FILE · domain` and, on the right, what mode the player is in.
  func drawHeader(on screen: inout Screen, in area: Rect) {
    screen.fill(area, style: Self.barStyle)
    let end = screen.write(
      "rewind play", column: area.column + 1, row: area.row, style: Self.barStyle.merging(.bold),
      clip: area)
    var flags: [String] = []
    // Following: whether more can come (closed, its writer gone, the file removed or
    // unreadable).
    if player.isFollowing { flags.append(player.followed?.label ?? "following") }
    if !player.skipped.isEmpty { flags.append("counterfactual") }
    let right = flags.joined(separator: " · ").uppercased()
    let rightWidth = TerminalText.width(right)
    let room = area.width - (end + 2) - rightWidth - 2
    screen.write(
      Screen.fitted("\(title) · \(D.identifier)", toWidth: max(room, 0)), column: end + 2,
      row: area.row, style: Self.barStyle, clip: area)
    if !right.isEmpty {
      screen.write(
        right, column: area.endColumn - rightWidth - 1, row: area.row,
        style: Self.barStyle.merging(CellStyle(bold: true).foreground(.yellow)), clip: area)
    }
  }

  /// The state at the cursor in a box whose title says which point it is, and that it
  /// is a counterfactual when events before it are skipped.
  mutating func drawState(on screen: inout Screen, in area: Rect) {
    guard area.width >= 4, area.height >= 3 else { return }
    let view = player.view
    var title =
      view.sequence == 0 ? "Initial state" : "State after event \(Format.count(view.sequence))"
    if let lost = view.lostEvents {
      // The last of events lost to damage: what is known is the state after them all.
      title = "State after \(Format.events(lost)) (lost to damage: the snapshot stored after them)"
    }
    var style = CellStyle.bold
    if let first = player.skipped.min(), first <= view.sequence {
      let skipped = player.skipped.filter { $0 <= view.sequence }.sorted()
      title +=
        " WITHOUT event\(skipped.count == 1 ? "" : "s") "
        + skipped.map { Format.count($0) }.joined(separator: ", ") + " (counterfactual)"
      style = CellStyle(bold: true, reverse: true).foreground(.yellow)
    }
    screen.box(area, title: title, titleStyle: style)
    let inner = area.inset(by: 1)
    if domainScreen != nil {
      domainScreen!.draw(view.state, in: inner, on: &screen, showsFocus: false)
      return
    }
    let lines = player.domain.render(view.state).split(
      separator: "\n", omittingEmptySubsequences: false)
    for (offset, line) in lines.prefix(inner.height).enumerated() {
      screen.write(String(line), column: inner.column + 1, row: inner.row + offset, clip: inner)
    }
  }

  // MARK: Events and changes

  /// The events around the cursor, then the fields the cursor's event changed (and, in
  /// a counterfactual, the fields that differ from the recording).
  func drawPanel(on screen: inout Screen, in area: Rect) {
    guard area.width >= 10, area.height >= 4 else { return }
    let view = player.view
    var changeLines: [(String, CellStyle)] = []
    for change in view.changes {
      changeLines.append(
        ("\(change.path): \(change.old.compactText) → \(change.new.compactText)", .plain))
    }
    if changeLines.isEmpty {
      let none: String
      switch view.event?.fate {
      case nil where view.lostEvents != nil:
        none = "Not known: they were lost to damage."
      case nil: none = "The state before any event."
      case .rejected(let reason)?: none = "Rejected, nothing changed: \(reason)"
      case .skipped?: none = "Skipped: the state is the one before it."
      case .unchanged?: none = "Nothing changed (the event was valid and changed nothing)."
      case .applied?: none = "Nothing changed."
      }
      changeLines.append((none, .dim))
    }
    if !view.differencesFromRecording.isEmpty {
      changeLines.append(("Differs from the recording (recorded → now):", .bold))
      for change in view.differencesFromRecording {
        changeLines.append(
          (
            "\(change.path): \(change.old.compactText) → \(change.new.compactText)",
            CellStyle().foreground(.yellow)
          ))
      }
    }
    // Under the state on a narrow terminal, the panel is low: events and changes go side
    // by side. Beside the state, it is tall: the changes go under the events.
    let eventsArea: Rect
    let changesArea: Rect
    if area.height < 12 {
      (eventsArea, changesArea) = area.splitColumns(at: area.width * 11 / 20)
    } else {
      // A row more for the hint when a value is cut.
      let hint = Self.cutsAChange(changeLines, room: area.width - 3) ? 1 : 0
      let changesHeight = min(changeLines.count + 2 + hint, max(area.height / 3, 3))
      (eventsArea, changesArea) = area.splitRows(at: area.height - changesHeight)
    }
    drawEvents(on: &screen, in: eventsArea)
    var changesTitle =
      view.sequence == 0 ? "Changes" : "Event \(Format.count(view.sequence)) changed"
    if let lost = view.lostEvents {
      changesTitle = "\(Format.capitalized(Format.events(lost))) changed"
    }
    screen.box(changesArea, title: changesTitle, titleStyle: .bold)
    let inner = changesArea.inset(by: 1)
    // What does not fit (more lines than rows, or a value cut at `…`) is in the full diff
    // of the cursor's event: marked here, one step back, `d`. A last row says so.
    let room = inner.width - 1
    var shownLines = Array(changeLines.prefix(inner.height))
    if inner.height >= 2,
      changeLines.count > inner.height || Self.cutsAChange(shownLines, room: room)
    {
      shownLines = Array(changeLines.prefix(min(changeLines.count, inner.height - 1)))
      let hidden = changeLines.count - shownLines.count
      shownLines.append(
        (
          (hidden > 0 ? "… \(hidden) more" : "… cut") + ": m ← d shows all",
          .dim
        ))
    }
    for (offset, (text, style)) in shownLines.enumerated() {
      screen.write(
        Screen.fitted(text, toWidth: room), column: inner.column + 1, row: inner.row + offset,
        style: style, clip: inner)
    }
  }

  /// Whether a line of `lines` is wider than `room` (drawn cut, ending in `…`).
  static func cutsAChange(_ lines: some Sequence<(String, CellStyle)>, room: Int) -> Bool {
    lines.contains { TerminalText.width(TerminalText.escaped($0.0)) > room }
  }

  /// The events around the cursor, the cursor's highlighted and kept in the middle.
  func drawEvents(on screen: inout Screen, in area: Rect) {
    guard area.height >= 3 else { return }
    screen.box(area, title: "Events", titleStyle: .bold)
    let inner = area.inset(by: 1)
    let view = player.view
    let lines = view.nearby
    guard !lines.isEmpty else {
      screen.write(
        "No events yet.", column: inner.column + 1, row: inner.row, style: .dim, clip: inner)
      return
    }
    // Which lines fit: the cursor's in the middle as far as the list allows.
    let cursorIndex =
      lines.firstIndex { $0.sequence >= view.sequence } ?? (lines.count - 1)
    let count = min(inner.height, lines.count)
    var first = max(cursorIndex - count / 2, 0)
    first = min(first, lines.count - count)
    let numberWidth = TerminalText.width(Format.count(lines[lines.count - 1].sequence))
    let timeWidth = TerminalText.width(Format.offset(lines[lines.count - 1].time))
    for (offset, line) in lines[first..<(first + count)].enumerated() {
      let row = inner.row + offset
      let isCursor = line.sequence == view.sequence
      let rowArea = Rect(column: inner.column, row: row, width: inner.width, height: 1)
      let base: CellStyle = isCursor ? .reverse : .plain
      if isCursor { screen.fill(rowArea, style: base) }
      let (fate, fateStyle) = Self.fateLabel(line, long: inner.width >= 60)
      let fateWidth = TerminalText.width(fate)
      var column = inner.column + 1
      let number =
        String(
          repeating: " ",
          count: max(numberWidth - TerminalText.width(Format.count(line.sequence)), 0))
        + Format.count(line.sequence)
      column = screen.write(
        number, column: column, row: row, style: base.merging(.bold), clip: rowArea)
      let time = Format.offset(line.time)
      column = screen.write(
        String(repeating: " ", count: 2 + max(timeWidth - TerminalText.width(time), 0)) + time
          + "  ", column: column, row: row, style: base.merging(.dim), clip: rowArea)
      let room = inner.endColumn - column - fateWidth - 2
      screen.write(
        Screen.fitted(line.description, toWidth: max(room, 0)), column: column, row: row,
        style: line.fate == .skipped ? base.merging(.dim) : base, clip: rowArea)
      screen.write(
        fate, column: inner.endColumn - fateWidth - 1, row: row, style: base.merging(fateStyle),
        clip: rowArea)
    }
  }

  /// `applied`, `rejected`, `skipped`, `≠ rejected (was applied)` (`≠ rejected` when not
  /// `long`), with its style.
  static func fateLabel(_ line: EventLine, long: Bool) -> (String, CellStyle) {
    var text: String
    var style: CellStyle
    switch line.fate {
    case .applied:
      (text, style) = ("applied", CellStyle().foreground(.green))
    case .unchanged:
      (text, style) = ("unchanged", .dim)
    case .rejected:
      (text, style) = ("rejected", CellStyle().foreground(.red))
    case .skipped:
      (text, style) = ("skipped", CellStyle(bold: true).foreground(.yellow))
    }
    if line.differsFromRecording {
      text =
        !long
        ? "≠ \(text)"
        : text == line.recordedOutcome
          ? "≠ \(text), other fields" : "≠ \(text) (was \(line.recordedOutcome))"
      style = CellStyle(bold: true).foreground(.yellow)
    }
    return (text, style)
  }

  // MARK: The timeline bar

  /// The density strip: one column per slice of the session's time, its height the
  /// number of events there, its colour their outcome (red where any was rejected, green
  /// where any was applied, gray where none changed anything; without colours, the columns
  /// of no rejected event dim), `░` in red where events
  /// were lost to damage and none is kept; the cursor's column is reversed, the mark's
  /// underlined.
  mutating func drawStrip(on screen: inout Screen, in area: Rect) {
    let strip = Rect(
      column: area.column + 1, row: area.row, width: max(area.width - 2, 0), height: 1)
    stripArea = strip
    guard strip.width > 0 else { return }
    let duration = player.timeline.duration
    let columns = player.density.columns(strip.width, duration: duration)
    let busiest = columns.map(\.total).max() ?? 0
    let cursorColumn = DensityStrip.column(
      of: player.view.time, in: strip.width, duration: duration)
    let markColumn = player.mark.flatMap { mark in
      (try? player.timeline.time(of: mark)).map {
        DensityStrip.column(of: mark == 0 ? 0 : $0, in: strip.width, duration: duration)
      }
    }
    let lostColumns = player.lostTimes.map { span in
      DensityStrip.column(
        of: span.lowerBound, in: strip.width, duration: duration)...DensityStrip.column(
          of: span.upperBound, in: strip.width, duration: duration)
    }
    for (index, counts) in columns.enumerated() {
      var glyph = Self.densityGlyph(counts.total, busiest: busiest)
      var style: CellStyle
      if counts.total == 0, lostColumns.contains(where: { $0.contains(index) }) {
        glyph = "░"
        style = CellStyle().foreground(.red)
      } else if counts.rejected > 0 {
        style = CellStyle().foreground(.red)
      } else if counts.applied > 0 {
        style = CellStyle(dim: !showsColour).foreground(.green)
      } else {
        style = CellStyle(dim: !showsColour).foreground(.gray)
      }
      if index == markColumn { style.underline = true }
      if index == cursorColumn { style.reverse = true }
      screen.write(
        String(glyph), column: strip.column + index, row: strip.row, style: style, clip: strip)
    }
    screen.write("▕", column: area.column, row: area.row, style: .dim, clip: area)
    screen.write("▏", column: strip.endColumn, row: area.row, style: .dim, clip: area)
  }

  /// ` ` for no events, `▁` … `█` for a few to the most of any column.
  static func densityGlyph(_ count: Int, busiest: Int) -> Character {
    let levels: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
    guard count > 0, busiest > 0 else { return " " }
    let level = (count * levels.count + busiest - 1) / busiest
    return levels[min(max(level, 1), levels.count) - 1]
  }

  /// `event 12 of 20 · +17.500s of 26.8s · ▶ ×1 · mark 14 · / split.style == balanced`;
  /// a long session's offset in hours and minutes as its duration is (`+43h 42m 29.247s
  /// of 43h 43m 04.9s`). At the last of events lost to damage the time is not known: only
  /// the times of the events kept around them (`time not known, between +13.572s and
  /// +15.325s of 8h 20m 02.5s`).
  func drawPosition(on screen: inout Screen, in area: Rect) {
    let view = player.view
    var position = "event \(Format.count(view.sequence)) of \(Format.count(player.lastSequence))"
    var time = Format.readableOffset(view.time)
    if let lost = view.lostEvents {
      position += ", the last of \(Format.events(lost)) (lost)"
      let timeline = player.timeline
      // The start when they begin at event 1 (a kept event at +0 is no start).
      let from =
        lost.lowerBound > 1
        ? (try? timeline.time(of: lost.lowerBound - 1)).map(Format.readableOffset) ?? "?"
        : "the start"
      let after =
        lost.upperBound < player.lastSequence ? try? timeline.time(of: lost.upperBound + 1) : nil
      time =
        after.map { "time not known, between \(from) and \(Format.readableOffset($0))" }
        ?? "time not known, after \(from)"
    }
    var parts = [position, "\(time) of \(Format.duration(player.timeline.duration))"]
    let playback = player.playback
    parts.append((playback.isPlaying ? "▶ playing " : "❚❚ paused ") + playback.speedLabel)
    if let mark = player.mark { parts.append("mark \(Format.count(mark))") }
    if !player.skipped.isEmpty {
      parts.append(
        "skipping " + player.skipped.sorted().map { Format.count($0) }.joined(separator: ", "))
      if let divergence = player.divergence, divergence.count > 0 {
        parts.append(
          "\(Format.count(divergence.count, "later event")) \(divergence.count == 1 ? "differs" : "differ")"
        )
      }
    }
    if let search = player.search { parts.append("/ \(search)") }
    screen.write(
      Screen.fitted(parts.joined(separator: " · "), toWidth: area.width - 2),
      column: area.column + 1, row: area.row, style: .bold, clip: area)
  }

  /// The prompt while one is open, else the last message, else a reminder of the keys.
  func drawMessage(on screen: inout Screen, in area: Rect) {
    if let prompt = player.prompt {
      let end = screen.write(
        "\(prompt.label): ", column: area.column + 1, row: area.row, style: .bold, clip: area)
      let room = area.endColumn - end - 2
      // The end of a long text, so that what is typed stays in view.
      var text = prompt.text
      while TerminalText.width(text) > room, !text.isEmpty { text.removeFirst() }
      let after = screen.write(text, column: end, row: area.row, clip: area)
      screen.write(" ", column: after, row: area.row, style: .reverse, clip: area)
      return
    }
    if let message = player.message {
      let style = message.kind == .error ? CellStyle(bold: true).foreground(.red) : CellStyle.plain
      screen.write(
        Screen.fitted(message.text, toWidth: area.width - 2), column: area.column + 1,
        row: area.row, style: style, clip: area)
      return
    }
    // The keys most used first; where the line is too narrow for them all, the last of
    // them give way to `? keys` (which lists every key) and `q quit`.
    var keys = [
      "← → step", "Space play", "g go to", "/ find", "x skip", "m d diff", "r continue",
    ]
    let kept = ["? keys", "q quit"]
    func hint() -> String { (keys + kept).joined(separator: " · ") }
    while !keys.isEmpty, TerminalText.width(hint()) > area.width - 1 { keys.removeLast() }
    screen.write(
      Screen.fitted(hint(), toWidth: area.width - 1), column: area.column + 1, row: area.row,
      style: .dim, clip: area)
  }

  // MARK: Overlays

  /// Every field that differs between two points, `- old` and `+ new`, in a panel over
  /// the middle of the screen; a value wider than the panel wraps onto further lines
  /// (each a line that scrolls), so that all of it can be seen, as `rewind diff` prints it.
  mutating func drawDiff(_ diff: PointDiff, on screen: inout Screen) {
    var entries: [(prefix: String, text: String, style: CellStyle)] = []
    for change in diff.changes {
      entries.append(("", change.path, .bold))
      entries.append(("  - ", change.old.compactText, CellStyle().foreground(.red)))
      entries.append(("  + ", change.new.compactText, CellStyle().foreground(.green)))
    }
    if entries.isEmpty { entries.append(("", "No differences.", .dim)) }
    let fields = diff.changes.count == 1 ? "1 field differs" : "\(diff.changes.count) fields differ"
    let title = "\(fields): \(Format.point(diff.from)) (-) → \(Format.point(diff.to)) (+)"
    let scrollHint = "↑ ↓ PgUp PgDn scroll · d or Esc closes this"
    let closeHint = "d or Esc closes this"
    let bounds = screen.bounds
    let contentWidth = max(
      entries.map { TerminalText.width($0.prefix + TerminalText.escaped($0.text)) }.max() ?? 0,
      TerminalText.width(title) + 2, TerminalText.width(scrollHint))
    let width = min(contentWidth + 4, bounds.width)
    var lines: [(String, CellStyle)] = []
    for entry in entries {
      for (index, piece) in Self.wrapped(
        entry.text, width: width - 4 - TerminalText.width(entry.prefix)
      ).enumerated() {
        let indent =
          index == 0 ? entry.prefix : String(repeating: " ", count: entry.prefix.count)
        lines.append((indent + piece, entry.style))
      }
    }
    let height = min(lines.count + 4, bounds.height)
    let panel = Rect(
      column: (bounds.width - width) / 2, row: (bounds.height - height) / 2, width: width,
      height: height)
    screen.fill(panel)
    screen.box(panel, title: title, titleStyle: .bold)
    let inner = Rect(
      column: panel.column + 2, row: panel.row + 1, width: panel.width - 4, height: panel.height - 3
    )
    // The lines from the scroll position, a line at either end saying how many more lie
    // beyond it; the position kept where the last page fits.
    let scrolls = lines.count > inner.height
    let shown = max(inner.height - (scrolls ? 2 : 0), 1)
    let first = min(player.overlayScroll, max(lines.count - shown, 0))
    player.overlayScroll = first
    diffPage = shown
    var row = inner.row
    if scrolls {
      let above = first == 0 ? "" : "… \(Format.count(first, "line")) above"
      screen.write(above, column: inner.column, row: row, style: .dim, clip: inner)
      row += 1
    }
    for (text, style) in lines[first..<min(first + shown, lines.count)] {
      screen.write(text, column: inner.column, row: row, style: style, clip: inner)
      row += 1
    }
    if scrolls {
      let below = lines.count - first - shown
      screen.write(
        below > 0 ? "… \(Format.count(below, "more line"))" : "", column: inner.column,
        row: row, style: .dim, clip: inner)
    }
    screen.write(
      scrolls ? scrollHint : closeHint, column: inner.column, row: panel.endRow - 2,
      style: .dim, clip: panel.inset(by: 1))
  }

  /// `text`, escaped for the terminal, in pieces of at most `width` columns: each cut
  /// after the last `,` or space that leaves it at least half full (a JSON array breaks
  /// between its elements), else at the width.
  static func wrapped(_ text: String, width: Int) -> [String] {
    var rest = Substring(TerminalText.escaped(text))
    guard width > 0 else { return [String(rest)] }
    var pieces: [String] = []
    while TerminalText.width(rest) > width {
      let fits = TerminalText.prefix(String(rest), width: width)
      var end = fits.endIndex
      if let breakAt = fits.lastIndex(where: { $0 == "," || $0 == " " }),
        TerminalText.width(fits[...breakAt]) * 2 >= width
      {
        end = fits.index(after: breakAt)
      }
      // At least one character a piece, whatever its width.
      if end == fits.startIndex { end = rest.index(after: rest.startIndex) }
      let offset = fits.distance(from: fits.startIndex, to: end)
      let cut = rest.index(rest.startIndex, offsetBy: offset)
      pieces.append(String(rest[..<cut]))
      rest = rest[cut...]
    }
    pieces.append(String(rest))
    return pieces
  }

  /// The style of the header line.
  static var barStyle: CellStyle { CellStyle(reverse: true) }
}
