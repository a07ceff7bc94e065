import RewindArguments

extension HelpTopic {
  /// `rewind help points`: how a point of a session is written, the same for every
  /// command that takes one (`--at`, `--from`, `--to`, `JOURNAL@POINT`), the player's `g`
  /// and a page's `#at=`.
  static let points = HelpTopic(
    "points", abstract: "How a point of a session is written: --at, --from, --to, @.",
    text: """
      POINTS

      A point is a state of a session: the state after an event. Point 0 is the state
      before any event, point 1500 the state after event 1500. Every command that
      takes a point reads it the same way, and so do the player's `g` and a page's
      #at= (where end is the page's last point).

      FORMS
        1500                  after event 1500; 0 is the start
        start                 the start, before any event (point 0)
        end                   after the last event
        end-N                 N events before the end: end-1 is the state before the
                              last event, end-0 the end; one before the start is an
                              error that gives the session's points
        +12.5s                an offset from the session's start (us, ms, s, m, h:
                              +250ms, +2m, or several, largest first, one space or
                              none between them and decimals in the last alone, as
                              play's status line writes a long one: +4h 44m
                              37.942s): after every event at or before it; one
                              past the last event is the end, one before the
                              first the start
        2026-11-30T12:40:04Z  a wall-clock time (ISO 8601, Z or +hh:mm), likewise

      An offset written to the millisecond, as the commands show times (+93.485s),
      stands for every event shown at that time, so that a time copied from log, find
      or blame leads back to its event; one written to the microsecond (+93.485203s)
      is exact, and digits finer than a microsecond are dropped (a wall-clock time is
      always exact). Only a sequence number, or end-N past the start, can lie outside
      a session.

      WHERE
        --at P                state, blame, play: the point to show
        --from P --to Q       log, diff, find, export, html, testgen: a range, the
                              events after P up to Q (P before Q; by default start
                              and end)
        JOURNAL@P             diff of two sessions at points (a.journal@end-1)

      EXAMPLES
        rewind state s.journal --at end-1
        rewind log s.journal --from end-5
        rewind diff s.journal --from +30s --to end
        rewind diff a.journal@end b.journal@end-1
      """)
}
