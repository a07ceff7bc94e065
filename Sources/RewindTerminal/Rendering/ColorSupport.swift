/// How many colours a terminal shows, decided from the environment the way most
/// terminal programs decide it.
public enum ColorSupport: Int, Comparable, Sendable, CaseIterable {
  /// No colour: attributes (bold, dim, underline, reverse) only.
  case none
  /// The 16 standard colours.
  case standard
  /// The 256 colours of the xterm palette.
  case palette
  /// 24-bit colour.
  case trueColor

  /// The colour a terminal shows, from its environment: none when `NO_COLOR` is set to
  /// anything but the empty string (no-color.org) or `TERM` is unset, `dumb` or a
  /// monochrome terminal (`vt100`, `vt220`); 24-bit when `COLORTERM` is `truecolor` or
  /// `24bit`; 256 colours when `TERM` says `256color`; the 16 standard colours for the
  /// other terminals known to have colour (`xterm`, `screen`, `tmux`, `rxvt`, `linux`,
  /// and any `TERM` naming `color`).
  public init(environment: [String: String]) {
    if let noColor = environment["NO_COLOR"], !noColor.isEmpty {
      self = .none
      return
    }
    let term = environment["TERM"] ?? ""
    let colorTerm = environment["COLORTERM"] ?? ""
    if term.isEmpty || term == "dumb" || term.hasPrefix("vt1") || term.hasPrefix("vt2") {
      self = .none
    } else if colorTerm == "truecolor" || colorTerm == "24bit" {
      self = .trueColor
    } else if term.contains("256color") {
      self = .palette
    } else if term.contains("color")
      || [
        "xterm", "screen", "tmux", "rxvt", "linux", "ansi", "cygwin", "konsole", "alacritty",
        "kitty", "foot", "wezterm",
      ].contains(where: term.hasPrefix)
    {
      self = .standard
    } else {
      self = .none
    }
  }

  public static func < (lhs: ColorSupport, rhs: ColorSupport) -> Bool {
    lhs.rawValue < rhs.rawValue
  }
}
