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
  /// anything but the empty string (no-color.org) or `TERM` is unset, `dumb` or names a
  /// monochrome terminal as terminfo does (`vt100`, `xterm-mono`, `linux-m`, `xterm-r6`);
  /// 24-bit when `COLORTERM` is `truecolor` or `24bit`; 256 colours when `TERM` says
  /// `256color`; the 16 standard colours for the other terminals known to have colour
  /// (`xterm`, `screen`, `tmux`, `rxvt`, `linux`, and any `TERM` naming `color`).
  public init(environment: [String: String]) {
    if let noColor = environment["NO_COLOR"], !noColor.isEmpty {
      self = .none
      return
    }
    let term = environment["TERM"] ?? ""
    let colorTerm = environment["COLORTERM"] ?? ""
    if term.isEmpty || term == "dumb" || Self.isMonochrome(term) {
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

  /// Whether `term` names a terminal without colour, by the names terminfo gives them, so
  /// that no terminfo is read: the DEC terminals (`vt52`, `vt100`, `vt220`, `vt420`), a
  /// last part `mono` or `m` (`xterm-mono`, `linux-m`, `ansi-m`), also with a number
  /// (`putty-m1`, `linux-m1b`), and the xterms and rxvt of before colour (`xterm-r5`,
  /// `xterm-r6`, `xterm-old`, `rxvt-basic`). Their `COLORTERM` is not believed: it is
  /// inherited from the terminal an ssh session or a `TERM=… command` left.
  public static func isMonochrome(_ term: String) -> Bool {
    if term.hasPrefix("vt"), term.dropFirst(2).first?.isNumber == true { return true }
    if ["xterm-r5", "xterm-r6", "xterm-old", "rxvt-basic"].contains(term) { return true }
    guard let dash = term.lastIndex(of: "-") else { return false }
    let last = term[term.index(after: dash)...]
    if last == "mono" { return true }
    // `m`, then digits and letters at most (`m1`, `m1b`, `m2`): not `meta`, not `mlterm`.
    guard last.first == "m" else { return false }
    let rest = last.dropFirst()
    return rest.isEmpty || (rest.first?.isNumber == true && rest.count <= 3)
  }

  public static func < (lhs: ColorSupport, rhs: ColorSupport) -> Bool {
    lhs.rawValue < rhs.rawValue
  }
}
