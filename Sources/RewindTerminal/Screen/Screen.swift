/// One cell of a ``Screen``: a character, how many columns it takes, and its style.
public struct Cell: Equatable, Sendable {
  /// The character shown; a space in a blank cell and in the right half of a wide
  /// character.
  public var character: Character
  /// 1 for most characters, 2 for a wide one (`月`, `🙂`); 0 for the right half of the
  /// wide character to its left, which that character covers.
  public var width: UInt8
  public var style: CellStyle

  public init(_ character: Character, width: UInt8 = 1, style: CellStyle = .plain) {
    self.character = character
    self.width = width
    self.style = style
  }

  /// A space in the plain style.
  public static let blank = Cell(" ")

  /// Whether this is the right half of a wide character.
  public var isContinuation: Bool { width == 0 }
}

/// What a terminal shows: a grid of ``Cell``s, drawn into off screen and then written
/// to the terminal by ``ScreenRenderer``, which sends only the cells that changed.
///
/// Drawing calls clip to the screen and to the rectangle they are given, and measure
/// text by its display width (`TerminalText.width(_:)` of RewindCore): a wide character takes two
/// cells, a wide character that does not fit whole is left out, and writing over half
/// of a wide character blanks the other half, so the grid always describes what a
/// terminal would show. Text is escaped on the way in
/// (`TerminalText.escaped(_:keepingNewlines:)`): no control character ever reaches a
/// cell.
public struct Screen: Equatable, Sendable {
  /// The number of columns and rows.
  public let size: TerminalSize
  /// The cells, row after row.
  package internal(set) var cells: [Cell]

  /// A screen of `size`, every cell a space in `style`.
  public init(size: TerminalSize, style: CellStyle = .plain) {
    let size = TerminalSize(columns: max(size.columns, 0), rows: max(size.rows, 0))
    self.size = size
    cells = Array(repeating: Cell(" ", style: style), count: size.columns * size.rows)
  }

  /// The whole screen as a rectangle.
  public var bounds: Rect { Rect(size) }

  /// The cell at a 0-based column and row.
  /// - Precondition: the cell lies on the screen.
  public subscript(column: Int, row: Int) -> Cell {
    precondition(
      column >= 0 && column < size.columns && row >= 0 && row < size.rows,
      "cell (\(column),\(row)) is outside a \(size) screen")
    return cells[row * size.columns + column]
  }

  /// Sets the cell at (`column`, `row`) to a character of `width` (1 or 2) in `style`, blanking
  /// the halves of wide characters it overwrites.
  mutating func put(_ character: Character, width: Int, style: CellStyle, column: Int, row: Int) {
    let start = row * size.columns
    let index = start + column
    let end = start + size.columns
    // Overwriting the right half of a wide character blanks its left half.
    if cells[index].isContinuation && index > start {
      cells[index - 1].character = " "
      cells[index - 1].width = 1
    }
    let last = index + width - 1
    // Overwriting the left half of a wide character blanks its right half (a wide
    // character written over a narrow one and the left half of another covers `last`).
    if last + 1 < end && cells[last + 1].isContinuation {
      cells[last + 1].character = " "
      cells[last + 1].width = 1
    }
    cells[index] = Cell(character, width: UInt8(width), style: style)
    if width == 2 { cells[index + 1] = Cell(" ", width: 0, style: style) }
  }

  /// The text of row `row` as a terminal shows it: each character once, trailing
  /// spaces removed.
  public func line(_ row: Int) -> String {
    precondition(row >= 0 && row < size.rows, "row \(row) is outside a \(size) screen")
    var text = ""
    let start = row * size.columns
    for cell in cells[start..<start + size.columns] where !cell.isContinuation {
      text.append(cell.character)
    }
    while text.last == " " { text.removeLast() }
    return text
  }

  /// Every row's ``line(_:)``.
  public var lines: [String] { (0..<size.rows).map(line) }
}
