/// A colour of text or background. How much of it a terminal shows depends on its
/// ``ColorSupport``: the renderer writes the nearest colour the terminal has, or none.
public enum Color: Hashable, Sendable {
  /// The terminal's own foreground or background.
  case `default`
  /// One of the 16 standard colours: 0–7 normal (black, red, green, yellow, blue,
  /// magenta, cyan, white), 8–15 bright.
  case standard(UInt8)
  /// One of the 256 colours of the xterm palette.
  case palette(UInt8)
  /// A 24-bit colour.
  case rgb(UInt8, UInt8, UInt8)

  public static let black = Color.standard(0)
  public static let red = Color.standard(1)
  public static let green = Color.standard(2)
  public static let yellow = Color.standard(3)
  public static let blue = Color.standard(4)
  public static let magenta = Color.standard(5)
  public static let cyan = Color.standard(6)
  public static let white = Color.standard(7)
  /// Bright black: the gray of secondary text.
  public static let gray = Color.standard(8)
  public static let brightWhite = Color.standard(15)
}

/// How a cell is drawn: colours and attributes.
///
/// Attributes are not colours: without colour (`NO_COLOR`, a monochrome terminal) bold,
/// dim, underline and reverse still show, so selection and focus stay visible.
public struct CellStyle: Hashable, Sendable {
  public var foreground: Color
  public var background: Color
  public var bold: Bool
  public var dim: Bool
  public var underline: Bool
  public var reverse: Bool

  public init(
    foreground: Color = .default, background: Color = .default, bold: Bool = false,
    dim: Bool = false, underline: Bool = false, reverse: Bool = false
  ) {
    self.foreground = foreground
    self.background = background
    self.bold = bold
    self.dim = dim
    self.underline = underline
    self.reverse = reverse
  }

  /// The terminal's default look.
  public static let plain = CellStyle()
  /// Bold text.
  public static let bold = CellStyle(bold: true)
  /// Dim text.
  public static let dim = CellStyle(dim: true)
  /// Reversed colours: the highlight of a focused row.
  public static let reverse = CellStyle(reverse: true)
  /// Underlined text.
  public static let underline = CellStyle(underline: true)

  /// The style with `color` as foreground.
  public func foreground(_ color: Color) -> CellStyle {
    var style = self
    style.foreground = color
    return style
  }

  /// The style with `color` as background.
  public func background(_ color: Color) -> CellStyle {
    var style = self
    style.background = color
    return style
  }

  /// The style with its attributes and the other's set too, and the other's colours
  /// where it has some.
  public func merging(_ other: CellStyle) -> CellStyle {
    CellStyle(
      foreground: other.foreground == .default ? foreground : other.foreground,
      background: other.background == .default ? background : other.background,
      bold: bold || other.bold, dim: dim || other.dim, underline: underline || other.underline,
      reverse: reverse || other.reverse)
  }
}
