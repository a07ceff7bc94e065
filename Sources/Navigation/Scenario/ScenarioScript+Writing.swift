public import RewindCore

extension ScenarioScript {
  /// Writes a session as a navigation scenario script that ``parse(_:directory:)`` reads
  /// back as the same events and times: `rewind export --scenario` and `rewind shrink`.
  ///
  /// The settings become `layout`, `size`, `orientation`, `device` and `start` lines; a
  /// node is written by its id (`id:TEXT` for one the catalog lacks, or one that reads as
  /// something else); the first event's time from the session start (`@12.5s`, nothing at
  /// `+0s` but `@0s` before a `size` line, which would read as the setting), each later
  /// one as the step after the event before, to the microsecond.
  /// - Complexity: O(events).
  public static func write(_ scenario: Scenario<NavigationDomain>) -> String {
    EventScript.script(scenario.events, after: preamble(scenario), needsTime: needsTime) {
      interaction($0, domain: scenario.domain)
    }
  }

  /// Whether the event's line, first at the session's start, needs its time (`@0s`): a
  /// size class change's line (`size compact`) there would read as the `size` setting.
  static func needsTime(_ event: NavigationEvent) -> Bool {
    if case .sizeClassChanged = event { return true }
    return false
  }

  /// The lines of ``write(_:)`` before the first interaction, each ending in a newline:
  /// `layout`, `size`, `orientation`, `device` and `start`, then a blank line; for
  /// settings those lines do not make (a catalog of the app's own, a menu width the device
  /// line does not give, a session upcast from schema 1), one `settings JSON` line in
  /// place of the first three.
  public static func preamble(_ scenario: Scenario<NavigationDomain>) -> String {
    let settings = scenario.domain.settings
    var lines = ScenarioParser(directory: "/")
    lines.layout = settings.catalog.layout
    lines.sizeClass = settings.sizeClass
    lines.orientation = settings.orientation
    lines.device = scenario.device
    var text =
      lines.makeDomain().settings == settings
      ? """
      layout \(kebab(settings.catalog.layout.rawValue))
      size \(kebab(settings.sizeClass.rawValue))
      orientation \(kebab(settings.orientation.rawValue))

      """ : "settings \(settings.json.compactText)\n"
    if let device = scenario.device { text += "device \(device)\n" }
    if let start = scenario.startTime { text += "start \(ISO8601.format(start))\n" }
    return text + "\n"
  }

  /// The script's line for an event: `select item espresso-machines/leva`, `tap 3`.
  static func interaction(_ event: NavigationEvent, domain: NavigationDomain) -> String {
    func node(_ ref: NodeRef?) -> String {
      guard let ref else { return "none" }
      let id = domain.id(of: ref)
      return domain.catalog.ref(of: id) == ref && id.lowercased() != "none" ? id : "id:\(id)"
    }
    switch event {
    case .menuTabTapped(let index): return "tap \(index)"
    case .menuScrolled(let offset): return "scroll \(offset)"
    case .menuViewportResized(let width): return "resize \(width)"
    case .categorySelected(let ref): return "select category \(node(ref))"
    case .itemSelected(let ref): return "select item \(node(ref))"
    case .itemExpanded(let ref): return "expand \(node(ref))"
    case .itemCollapsed(let ref): return "collapse \(node(ref))"
    case .columnVisibilityChanged(let visibility): return "visibility \(kebab(visibility.rawValue))"
    case .splitStyleChanged(let style): return "style \(kebab(style.rawValue))"
    case .sizeClassChanged(let sizeClass): return "size \(kebab(sizeClass.rawValue))"
    case .orientationChanged(let orientation): return "rotate \(kebab(orientation.rawValue))"
    case .backTapped: return "back"
    }
  }

  /// `doubleColumn` → `double-column`.
  static func kebab(_ name: String) -> String {
    var text = ""
    for character in name {
      if character.isUppercase {
        text += "-" + character.lowercased()
      } else {
        text.append(character)
      }
    }
    return text
  }
}
