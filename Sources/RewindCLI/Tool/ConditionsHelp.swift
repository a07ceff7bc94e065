import RewindArguments
import RewindCore

extension HelpTopic {
  /// `rewind help conditions`: the condition language of `find --where` (and of
  /// `log --where`, `shrink --where`, the player's `/`, the page's find box and scenario
  /// `expect` lines).
  static let conditions = HelpTopic(
    "conditions", abstract: "The condition language of --where, / and expect lines.",
    text: """
      CONDITIONS

      A condition asks a question about a point of a session: the state there, and the
      event that led to it. `rewind find --where`, `rewind log --where`,
      `rewind shrink --where`, the player's `/` search, the HTML page's find box and
      `expect` lines of scenario scripts read the same language.

      COMPARISONS
        PATH == VALUE         the field holds the value (any JSON value)
        PATH != VALUE         it does not
        PATH < NUMBER         also <=, >, >=: numbers only; a field that holds no
                              number (null) does not compare
        PATH contains VALUE   a list field has the value as an element, or a string
                              field holds it as a part
        changed(PATH)         the event changed the field
        PATH                  a boolean field alone: PATH == true (so !PATH is
                              PATH != true); any other field alone is refused,
                              and so are true and false alone (values, not
                              conditions)

      A PATH is a state field, dotted (split.selectedItem); `rewind state --json`
      shows them. A VALUE is JSON (null, 3, 12.5, true, "two words", ["a", "b"]) or a
      bare word without spaces, quotes or parentheses, read as a string
      (espresso-machines/leva). Single quotes do not quote a value: 'two words' is
      refused; write "two words" ('90s, with no quote closing it, is a bare word).

      THE EVENT
        event                 the event's kind: event == categorySelected
        outcome               applied, unchanged or rejected: outcome == rejected
        reason                why it was rejected (null when it was not):
                              reason contains "category"
      These words name the event unless the domain has a state field of that path.

      COMBINING
        A && B                both
        A || B                either
        !A                    not
        ( … )                 grouping
      ! binds tightest, then &&, then ||: a || b && !c is a || (b && (!c)). A
      condition holds at most \(WrittenCondition.maximumComparisons) comparisons and nests at most \(WrittenCondition.maximumNesting) levels deep.

      WHAT MATCHES
      A condition on the state alone matches where it becomes true: at the start of
      the search when it holds there, then after each event that makes it true (not
      after every event while it stays true). A condition that names the event (event,
      outcome, reason or changed) matches after every event where it holds.
      `log --where` keeps every event after which a condition holds, whether or not it
      became true there; `shrink --where` asks that it hold after the last event.

      CHECKING
      Every condition is checked against the domain's fields before anything is
      replayed: an unknown field, a value of the wrong type, a value outside an enum,
      an id or a menu label the session does not have (menu.labels contains monday,
      where the labels are Monday, …) or an event kind the domain does not know is an
      error that names the column and suggests what was probably meant.

      EXAMPLES
        rewind find s.journal --where 'split.selectedItem == espresso-machines/leva'
        rewind find s.journal --all \\
          --where 'split.expanded contains espresso-machines/leva'
        rewind find s.journal \\
          --where 'menu.selectedIndex >= 3 && split.overlay'
        rewind find s.journal --where '!split.overlay && changed(split.style)'
        rewind find s.journal \\
          --where 'changed(split.columnVisibility) || split.style != automatic'
        rewind find s.journal --count \\
          --where 'event == categorySelected && outcome == rejected'
        rewind find s.journal --where 'reason contains "category"' --last --to 500
        rewind find s.journal --from 100 --to 200 --all \\
          --where '!(split.selectedCategory == null)'
      """)
}

extension HelpTopic {
  /// `rewind help scenario` (or `scripts`, `script`): the scenario script language of each
  /// domain `record` reads (``RecordableDomain/scenarioHelp``), the default domain's first.
  static func scenario(_ registry: DomainRegistry) -> HelpTopic {
    let domains = registry.domains
    let several = domains.count > 1
    let text = domains.map { domain in
      (several ? "THE '\(domain.identifier)' DOMAIN\n\n" : "") + domain.scenarioHelp
    }
    return HelpTopic(
      "scenario", aliases: ["scripts", "script"],
      abstract: "The scenario script language of record and export --scenario.",
      text: "SCENARIO SCRIPTS\n\n" + text.joined(separator: "\n\n"))
  }
}
