extension ScenarioScript {
  /// The navigation script described for people, as `rewind help scripts` prints it (the
  /// same rules as Journals/README.md gives, shorter).
  public static let help = """
    A session written by hand: plain text, one interaction per line, settings first.

    SETTINGS (before the first interaction, each at most once, all optional)
      layout three-column|two-column      the split view (default three-column)
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
      +0.8s, +250ms, +90us, +2m           after the interaction before
      @12.5s                              from the session's start (never earlier)
      (none)                              0.5 s after the interaction before; the
                                          first at +0s

    INTERACTIONS
      tap Tuesday, tap 1                  a tab, by its label or its index
      scroll 140.5                        the menu strip's offset, in points
      resize 834                          the strip's visible width, in points
      select category Grinders            a category by name, id or the last part
      select item Swift Mini              of its id; none for no selection;
      expand Leva, collapse Leva          id:TEXT for an id the catalog lacks
      visibility detail-only              automatic, all, double-column, detail-only
      style balanced                      automatic, balanced, prominent-detail
      size compact                        the size class (an iPhone's rotation)
      rotate portrait                     the orientation
      back                                the back button

    EXPECTATIONS (each checked after the interaction before it; nothing is recorded
    when one fails)
      expect CONDITION                    a condition of `rewind help conditions`
      expect changed(split.selectedItem)  the interaction changed the field
      expect rejected                     the reducer rejected it
      expect unchanged                    it accepted it and changed nothing

    # starts a comment (but in a settings line, which is JSON to its end). An
    interaction the reducer rejects is still recorded, with
    its reason (`rewind log` shows it). `rewind export --scenario` writes any
    session as a script.

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
