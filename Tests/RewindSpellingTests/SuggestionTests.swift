import Testing

@testable import RewindSpelling

@Suite("Did you mean …?")
struct SuggestionTests {
  static let commands = ["record", "generate", "info", "log", "state", "diff", "blame", "find"]

  @Test(
    "near misses find the intended name",
    arguments: [
      ("stat", "state"),  // a deletion
      ("sate", "state"),  // another
      ("statte", "state"),  // an insertion
      ("stote", "state"),  // a substitution
      ("lgo", "log"),  // a swap of neighbours
      ("reocrd", "record"),
      ("STATE", "state"),  // case is ignored
      ("gen", "generate"),  // a prefix
      ("bl", "blame"),
      ("staaate", "state"),  // two letters longer: still near
    ])
  func nearMiss(typed: String, expected: String) {
    #expect(closestName(to: typed, among: Self.commands) == expected)
  }

  @Test(
    "far misses and short words suggest nothing",
    arguments: ["frobnicate", "x", "zz", "stuff", "lgx", ""])
  func farMiss(typed: String) {
    #expect(closestName(to: typed, among: Self.commands) == nil)
  }

  @Test("a word far longer than every name (a line pasted whole) is near none")
  func longWord() {
    #expect(
      closestName(to: String(repeating: "state", count: 200_000), among: Self.commands) == nil)
    #expect(closestName(to: "generateeee", among: Self.commands) == nil)
    // Not measured against any name (the distance of a long word costs its length times
    // the name's): only the names within reach of its length are.
    var measured: [String] = []
    let none = closestName(to: String(repeating: "state", count: 1_000), among: Self.commands) {
      measured.append(String($1))
      return editDistance($0, $1)
    }
    #expect(none == nil)
    #expect(measured.isEmpty)
    _ = closestName(to: "stat", among: ["state", "log", "generate", "st"]) {
      measured.append(String($1))
      return editDistance($0, $1)
    }
    #expect(measured == ["state", "log", "st"])
  }

  @Test("the closest candidate wins, then the first declared")
  func ranking() {
    #expect(closestName(to: "from", among: ["form", "from"]) == "from")
    #expect(closestName(to: "fro", among: ["for", "from"]) == "for")
    #expect(closestName(to: "tset", among: ["test", "tests"]) == "test")
  }

  @Test("edit distance counts a swap of neighbours as one edit")
  func distance() {
    func distance(_ a: String, _ b: String) -> Int { editDistance(Array(a), Array(b)) }
    #expect(distance("", "abc") == 3)
    #expect(distance("abc", "") == 3)
    #expect(distance("kitten", "sitting") == 3)
    #expect(distance("ab", "ba") == 1)
    #expect(distance("ca", "abc") == 3)  // optimal string alignment, not full Damerau
    #expect(distance("same", "same") == 0)
  }
}
