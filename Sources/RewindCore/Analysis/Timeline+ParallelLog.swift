extension Timeline {
  /// ``events(from:through:where:keepingPrevious:progress:_:)`` on up to `jobs` threads:
  /// an intact journal's events are split into parts (of at most `longestPart` events)
  /// that the threads replay at once, each turning the events it finds into a `Line` with
  /// `render` on its own thread; `visit` gets the lines on this thread, in the events'
  /// order, as soon as the parts before are done: what one pass gives, in the same order.
  /// A journal with damage or lost events, one job, or a range too short to split is one
  /// pass on this thread.
  ///
  /// - Parameters:
  ///   - jobs: how many threads may replay parts at once.
  ///   - longestPart: the most events in a part; the lines of at most two parts a job
  ///     are held at once (memory), however long the range.
  ///   - render: what an event after which the condition holds becomes (nil: nothing, it
  ///     is left out); called on the thread of its part with the event and the state
  ///     after it.
  ///   - visit: called on this thread with each line, in order; returns whether to go on.
  /// - Returns: the lost events crossed (none when the range is split).
  /// - Throws: as ``events(from:through:where:keepingPrevious:progress:_:)``.
  @discardableResult
  package func events<Line: Sendable>(
    from first: UInt64, through last: UInt64, where condition: ConditionEvaluator<D>,
    keepingPrevious: Bool, jobs: Int, longestPart: UInt64 = 1 << 15,
    progress: (UInt64) -> Void = { _ in },
    render: @escaping @Sendable (LoggedEvent<D>, D.State) -> Line?,
    _ visit: (Line) throws -> Bool
  ) throws -> [ClosedRange<UInt64>] {
    let first = max(first, 1)
    // One pass stops at the session's end: so do the parts.
    let end = min(last, lastSequence)
    guard first <= end,
      let ranges = parallelRanges(jobs: jobs, in: (first - 1)...end, longest: longestPart)
    else {
      return try events(
        from: first, through: last, where: condition, keepingPrevious: keepingPrevious,
        progress: progress
      ) { logged, state in
        guard let line = render(logged, state) else { return true }
        return try visit(line)
      }
    }
    let compiled = condition.compiled
    let log = D.scans.log
    do {
      try forEachPart(
        ranges, jobs: jobs, ahead: 2 * jobs, progress: progress, startingWith: [Line](),
        keepingFound: { timeline, range, progress, lines in
          let query = LogQuery(
            condition: compiled, first: range.lowerBound + 1, last: range.upperBound,
            keepsPrevious: keepingPrevious)
          _ = try log(timeline, query, progress) { logged, state in
            if let line = render(logged, state) { lines.append(line) }
            return true
          }
        },
        { lines in
          for line in lines where try !visit(line) { throw StopVisiting() }
        })
    } catch is StopVisiting {}
    return []
  }
}

/// `visit` asked to stop: the parts after are not handed on.
private struct StopVisiting: Error {}
