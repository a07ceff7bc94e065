/// Writes a ``Screen`` to a terminal: the bytes that turn what the terminal shows (the
/// previous screen) into the next one, changing only the cells that changed.
///
/// Pure: screens in, bytes out, so what a redraw costs is tested and measured without a
/// terminal. Cursor moves are absolute (`CSI row;column H`); every run of changed cells
/// gets one move, and so does the cell after a character a terminal may measure otherwise
/// (see `hasCertainWidth(_:)`); a style sequence only where the style changes. Colours are
/// written as the terminal's ``ColorSupport`` allows, the nearest one it has, or not at all.
///
/// The terminal is expected in the state ``TerminalSession`` leaves it: the alternate
/// screen, cursor hidden, auto-wrap off (so that writing the bottom-right cell never
/// scrolls).
public enum ScreenRenderer {
  /// The bytes that change a terminal showing `previous` into `next`.
  ///
  /// - Parameters:
  ///   - previous: What the terminal shows; nil when unknown (the first draw, after a
  ///     resize), which clears the terminal and draws every cell that is not blank.
  ///   - next: What it should show.
  ///   - colors: The colours the terminal has.
  /// - Returns: Nothing when the screens are equal.
  /// - Complexity: O(*n*) in the number of cells.
  public static func update(from previous: Screen?, to next: Screen, colors: ColorSupport)
    -> [UInt8]
  {
    var output: [UInt8] = []
    let before: Screen
    if let previous, previous.size == next.size {
      before = previous
    } else {
      output += Array("\u{1B}[0m\u{1B}[H\u{1B}[2J".utf8)
      before = Screen(size: next.size)
    }
    let columns = next.size.columns
    var pen = CellStyle.plain
    var cursor: (column: Int, row: Int)? = nil
    var dirty = [Bool](repeating: false, count: columns)
    for row in 0..<next.size.rows {
      let start = row * columns
      var any = false
      for column in 0..<columns {
        dirty[column] = before.cells[start + column] != next.cells[start + column]
        any = any || dirty[column]
      }
      guard any else { continue }
      // A changed right half is written by writing its left half.
      for column in stride(from: columns - 1, to: 0, by: -1)
      where dirty[column] && next.cells[start + column].isContinuation {
        dirty[column - 1] = true
      }
      var column = 0
      while column < columns {
        let cell = next.cells[start + column]
        guard dirty[column], !cell.isContinuation else {
          column += 1
          continue
        }
        if cursor == nil || cursor! != (column, row) {
          output += Array("\u{1B}[\(row + 1);\(column + 1)H".utf8)
        }
        if cell.style != pen {
          output += sequence(for: cell.style, colors: colors)
          pen = cell.style
        }
        let certain = hasCertainWidth(cell.character)
        if !certain {
          // Blanks first: a terminal that draws the character narrower, or not at all,
          // leaves nothing of the previous screen in its cells.
          output += Array(repeating: UInt8(ascii: " "), count: Int(cell.width))
          output += Array("\u{1B}[\(row + 1);\(column + 1)H".utf8)
        }
        output += Array(String(cell.character).utf8)
        column += Int(cell.width)
        // After a character a terminal may measure otherwise, the next cell gets a move.
        cursor = certain ? (column, row) : nil
      }
    }
    if pen != .plain { output += Array("\u{1B}[0m".utf8) }
    return output
  }

  /// Whether every terminal gives `character` the columns Rewind does: one code point of
  /// ASCII, Latin, Greek or Cyrillic (below U+0530), of the punctuation, arrows,
  /// mathematical signs, box drawing and shapes the screens are drawn with (but the few
  /// emoji there), or a CJK ideograph, kana or Hangul syllable.
  ///
  /// Not so emoji (a terminal's tables may be older than Unicode's, and tmux then drops
  /// them), characters of several code points (a flag, an emoji with a variation selector
  /// or joined by U+200D), and the rest of Unicode, whose tables differ between C
  /// libraries: the renderer writes blanks under them and moves the cursor after them, so
  /// that a terminal measuring them otherwise shifts nothing after them.
  static func hasCertainWidth(_ character: Character) -> Bool {
    let scalars = character.unicodeScalars
    guard let scalar = scalars.first, scalars.index(after: scalars.startIndex) == scalars.endIndex
    else { return false }
    switch scalar.value {
    case 0..<0x530, 0x3041...0x3096, 0x30A1...0x30FA, 0x4E00...0x9FFF, 0xAC00...0xD7A3:
      return true
    case 0x2010...0x2027, 0x2030...0x205E, 0x2190...0x22FF, 0x2500...0x25FF:
      return !scalar.properties.isEmojiPresentation
    default:
      return false
    }
  }

  /// `CSI 0 ; … m`: the whole style from a reset, so that no attribute of the cell
  /// before leaks into this one.
  static func sequence(for style: CellStyle, colors: ColorSupport) -> [UInt8] {
    var parameters = "0"
    if style.bold { parameters += ";1" }
    if style.dim { parameters += ";2" }
    if style.underline { parameters += ";4" }
    if style.reverse { parameters += ";7" }
    if let foreground = colorParameters(style.foreground, colors: colors, background: false) {
      parameters += ";" + foreground
    }
    if let background = colorParameters(style.background, colors: colors, background: true) {
      parameters += ";" + background
    }
    return Array("\u{1B}[\(parameters)m".utf8)
  }

  /// The SGR parameters of a colour on a terminal with `colors`; nil for the default
  /// colour and on a terminal without colour.
  static func colorParameters(_ color: Color, colors: ColorSupport, background: Bool) -> String? {
    guard colors != .none else { return nil }
    switch color {
    case .default:
      return nil
    case .standard(let index):
      return standardParameters(index & 15, background: background)
    case .palette(let index):
      guard colors >= .palette else {
        return standardParameters(nearestStandard(palette: index), background: background)
      }
      return (background ? "48;5;" : "38;5;") + String(index)
    case .rgb(let red, let green, let blue):
      switch colors {
      case .trueColor:
        return (background ? "48;2;" : "38;2;") + "\(red);\(green);\(blue)"
      case .palette:
        return (background ? "48;5;" : "38;5;") + String(paletteIndex(red, green, blue))
      default:
        return standardParameters(
          nearestStandard(palette: paletteIndex(red, green, blue)), background: background)
      }
    }
  }

  private static func standardParameters(_ index: UInt8, background: Bool) -> String {
    let base = index < 8 ? (background ? 40 : 30) : (background ? 100 : 90)
    return String(base + Int(index & 7))
  }

  /// The xterm palette's colour nearest to an RGB colour: the 6×6×6 cube, or the gray
  /// ramp for grays.
  static func paletteIndex(_ red: UInt8, _ green: UInt8, _ blue: UInt8) -> UInt8 {
    if red == green && green == blue {
      if red < 8 { return 16 }
      if red > 248 { return 231 }
      return UInt8(232 + (Int(red) - 8) * 24 / 247)
    }
    func level(_ value: UInt8) -> Int { value < 48 ? 0 : value < 115 ? 1 : (Int(value) - 35) / 40 }
    return UInt8(16 + 36 * level(red) + 6 * level(green) + level(blue))
  }

  /// One of the 16 standard colours for a palette colour: itself below 16, else by
  /// which of red, green and blue are strong, with bright for the light ones.
  static func nearestStandard(palette index: UInt8) -> UInt8 {
    if index < 16 { return index }
    if index >= 232 {
      let level = Int(index) - 232
      return level < 6 ? 0 : level < 18 ? 8 : 7
    }
    let cube = Int(index) - 16
    let (red, green, blue) = (cube / 36, cube / 6 % 6, cube % 6)
    let strongest = max(red, green, blue)
    if strongest == 0 { return 0 }
    let threshold = max(strongest - 1, 1)
    var value: UInt8 = 0
    if red >= threshold { value |= 1 }
    if green >= threshold { value |= 2 }
    if blue >= threshold { value |= 4 }
    return strongest >= 4 ? value | 8 : value
  }
}
