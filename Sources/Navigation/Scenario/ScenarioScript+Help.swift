extension ScenarioScript {
  /// The navigation script described for people, as `rewind help scenario` prints it (the
  /// same rules as Journals/README.md gives, shorter).
  public static let help = """
    A session written by hand: plain text, one interaction per line, settings first.

    SETTINGS (before the first interaction, each at most once, all optional)
      layout three-column|two-column      the split view (default: the catalog
                                          file's, else three-column)
      size regular|compact                the initial size class (default: the
                                          device's, an iPhone compact)
      orientation portrait|landscape      the initial one (default: the device's)
      catalog sample|FILE                 the catalog: a JSON file by the script,
                                          as `rewind info --json` shows it under
                                          settings.catalog (default sample)
      device TEXT                         the device: its profile (iPhone 15,
                                          iPad Pro 11-inch, ...) gives the idiom
                                          and the menu strip's width
      start TIME                          when the session started (ISO 8601)
      settings JSON                       the whole settings, as a journal's
                                          header holds them (rewind info --json),
                                          for layout, size, orientation and
                                          catalog; what `rewind export --scenario`
                                          writes for a session those lines cannot
                                          set up

    TIME (at the start of a line)
      +0.8s, +250ms, +90us, +2m           after the interaction before (units
                                          together, largest first: +1m30s)
      @12.5s                              from the session's start (never earlier)
      (none)                              0.5 s after the interaction before; the
                                          first at +0s

    INTERACTIONS (keywords and values in any case, - and _ in them optional:
    double-column, doubleColumn)
      tap LABEL|INDEX                     a tab, by its label (Tuesday) or its
                                          index from 0
      scroll POINTS                       the menu strip's offset (140.5)
      resize POINTS                       the strip's visible width (834)
      select category NAME|none           a category or an item by its name, its
      select item NAME|none               id or the last part of its id (Swift
                                          Mini, grinders/swift-mini, swift-mini);
                                          none for no selection; id:TEXT for an
                                          id the catalog lacks
      expand NAME, collapse NAME          an item with children (Leva)
      visibility automatic|all|double-column|detail-only
                                          the columns shown
      style automatic|balanced|prominent-detail
                                          the split view's style
      size compact|regular                the size class (an iPhone's rotation)
      rotate portrait|landscape|compact|regular
                                          the orientation; compact or regular
                                          is a size change, as older scripts
                                          wrote an iPhone's rotation
      back                                the back button

    EXPECTATIONS (each checked after the interaction before it; nothing is recorded
    when one fails)
      expect CONDITION                    a condition of `rewind help conditions`
      expect changed(PATH)                the interaction changed the field
      expect rejected                     the reducer rejected it
      expect unchanged                    it accepted it and changed nothing

    # starts a comment (but in a settings line, which is JSON to its end). An
    interaction the reducer rejects is still recorded, with its reason (`rewind log`
    shows it). `rewind export --scenario` writes any session as a script;
    `rewind record - -o s.journal` reads one from standard input (its catalog FILE
    then from the current directory).

    EXAMPLE
        layout three-column
        size compact
        device iPhone 15 Pro, iOS 18.1
        start 2026-11-30T12:40:00Z

        select category Grinders            # sidebar -> content
        +1.1s select item Swift
        expect split.selectedItem == grinders/swift
        +3.4s back
        @10s size regular
    """
}
