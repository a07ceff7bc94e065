/// The name among `names` that `word` is most likely a slip of, for "Did you mean …?".
///
/// A name is a candidate when its edit distance to `word` (Damerau–Levenshtein, optimal
/// string alignment: an insertion, a deletion, a substitution or a swap of two
/// neighbours each cost 1; case is ignored) is at most 2, and at most 1 for words of
/// fewer than four letters, so that short words are not matched to anything; or when
/// `word` is the start of the name (`st` for `state`). The closest candidate wins, then
/// the first declared.
///
/// - Complexity: O(*n* · *m*²) for *n* names of about *m* characters; only run on an error.
package func closestName(to word: String, among names: [String]) -> String? {
  closestName(to: word, among: names, measuring: editDistance)
}

/// ``closestName(to:among:)`` with the edit distance measured by `distance`: a test counts
/// the words measured.
package func closestName(
  to word: String, among names: [String], measuring distance: ([Character], [Character]) -> Int
) -> String? {
  guard !word.isEmpty else { return nil }
  let typed = Array(word.lowercased())
  let limit = typed.count < 4 ? 1 : 2
  var best: (name: String, distance: Int)?
  for name in names {
    let candidate = Array(name.lowercased())
    // The distance is at least the difference of the lengths: a word far longer than
    // every name (a line pasted whole) is measured against none.
    guard abs(typed.count - candidate.count) <= limit else { continue }
    let measured = distance(typed, candidate)
    if measured <= limit, measured < best?.distance ?? .max {
      best = (name, measured)
    }
  }
  if let best { return best.name }
  return names.first { $0.lowercased().hasPrefix(word.lowercased()) }
}

/// The optimal-string-alignment distance between two strings (Levenshtein plus swaps of
/// adjacent characters).
package func editDistance(_ a: [Character], _ b: [Character]) -> Int {
  if a.isEmpty { return b.count }
  if b.isEmpty { return a.count }
  // Three rows of the dynamic-programming table: i-2, i-1 and i.
  var beforePrevious = [Int](repeating: 0, count: b.count + 1)
  var previous = Array(0...b.count)
  var current = [Int](repeating: 0, count: b.count + 1)
  for i in 1...a.count {
    current[0] = i
    for j in 1...b.count {
      let cost = a[i - 1] == b[j - 1] ? 0 : 1
      var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
      if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
        value = min(value, beforePrevious[j - 2] + 1)
      }
      current[j] = value
    }
    (beforePrevious, previous, current) = (previous, current, beforePrevious)
  }
  return previous[b.count]
}
