/// A rectangle of character cells: its top-left cell (0-based column and row) and its
/// size. Drawing calls clip to one; hit testing asks whether one holds a cell.
public struct Rect: Hashable, Sendable, CustomStringConvertible {
  public var column: Int
  public var row: Int
  public var width: Int
  public var height: Int

  /// A rectangle; a negative width or height is taken as 0.
  public init(column: Int, row: Int, width: Int, height: Int) {
    self.column = column
    self.row = row
    self.width = max(width, 0)
    self.height = max(height, 0)
  }

  /// The whole of a screen of `size`.
  public init(_ size: TerminalSize) {
    self.init(column: 0, row: 0, width: size.columns, height: size.rows)
  }

  /// One past the last column.
  public var endColumn: Int { column + width }
  /// One past the last row.
  public var endRow: Int { row + height }
  /// Whether it holds no cell.
  public var isEmpty: Bool { width == 0 || height == 0 }

  /// Whether the cell at (`column`, `row`) lies inside.
  public func contains(column: Int, row: Int) -> Bool {
    column >= self.column && column < endColumn && row >= self.row && row < endRow
  }

  /// The cells both rectangles hold (empty when they do not meet).
  public func intersection(_ other: Rect) -> Rect {
    let left = max(column, other.column)
    let top = max(row, other.row)
    return Rect(
      column: left, row: top, width: min(endColumn, other.endColumn) - left,
      height: min(endRow, other.endRow) - top)
  }

  /// The rectangle moved in by `amount` cells on every side.
  public func inset(by amount: Int) -> Rect {
    Rect(
      column: column + amount, row: row + amount, width: width - 2 * amount,
      height: height - 2 * amount)
  }

  /// The first `count` rows, and the rest.
  public func splitRows(at count: Int) -> (top: Rect, rest: Rect) {
    let top = min(max(count, 0), height)
    return (
      Rect(column: column, row: row, width: width, height: top),
      Rect(column: column, row: row + top, width: width, height: height - top)
    )
  }

  /// The first `count` columns, and the rest.
  public func splitColumns(at count: Int) -> (left: Rect, rest: Rect) {
    let left = min(max(count, 0), width)
    return (
      Rect(column: column, row: row, width: left, height: height),
      Rect(column: column + left, row: row, width: width - left, height: height)
    )
  }

  /// One row of the rectangle, `offset` rows down (empty when outside).
  public func row(_ offset: Int) -> Rect {
    guard offset >= 0 && offset < height else {
      return Rect(column: column, row: row + offset, width: width, height: 0)
    }
    return Rect(column: column, row: row + offset, width: width, height: 1)
  }

  /// `(3,4) 20×5`.
  public var description: String { "(\(column),\(row)) \(width)×\(height)" }
}
