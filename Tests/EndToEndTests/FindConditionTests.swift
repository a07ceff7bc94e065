import Foundation
import TestSupport
import Testing

/// `find` with the condition language (issue 13): compound conditions agree with their
/// parts, and the range, `--last` and `--count` agree with `--all`.
@Suite("find with compound conditions, ranges, --last and --count")
struct FindConditionTests {
  let ipad = sample("ipad-three-column.journal")
  let generated = sample("generated-200k.journal")

  /// The sequence numbers `find --all --json` lists.
  func matches(_ journal: String, _ condition: String, _ extra: String...) throws -> [Int] {
    let result = try rewind(["find", journal, "--where", condition, "--all", "--json"] + extra)
    #expect(result.status == 0, "\(condition): \(result.stderr)")
    let json = try parseObject(result.stdout)
    return (json["matches"] as? [[String: Any]])?.compactMap { $0["seq"] as? Int } ?? []
  }

  @Test("conditions on events combine as sets: || is the union, && the intersection, ! the rest")
  func eventConditionsAsSets() throws {
    func set(_ condition: String) throws -> Set<Int> {
      Set(try matches(generated, condition, "--to", "20000"))
    }
    let selected = try set("event == itemSelected")
    let rejected = try set("outcome == rejected")
    let style = try set("changed(split.style)")
    #expect(!selected.isEmpty && !rejected.isEmpty && !style.isEmpty)
    #expect(try set("event == itemSelected || outcome == rejected") == selected.union(rejected))
    #expect(
      try set("event == itemSelected && outcome == rejected") == selected.intersection(rejected))
    let all = Set(1...20000)
    #expect(try set("!(outcome == rejected)") == all.subtracting(rejected))
    #expect(
      try set("(changed(split.style) || event == itemSelected) && !(outcome == rejected)")
        == style.union(selected).subtracting(rejected))
  }

  @Test("a condition on the state matches where it becomes true, its parts where each does")
  func stateConditions() throws {
    let both = try matches(ipad, "split.style == balanced && split.columnVisibility == all")
    let style = try matches(ipad, "split.style == balanced")
    #expect(!both.isEmpty)
    // Each point where both become true is one where one of them does.
    let visibility = try matches(ipad, "split.columnVisibility == all")
    #expect(both.allSatisfy { style.contains($0) || visibility.contains($0) })
    // A comparison of numbers and its negation never hold together: they alternate.
    let high = try matches(generated, "menu.selectedIndex >= 3", "--to", "5000")
    let low = try matches(generated, "!(menu.selectedIndex >= 3)", "--to", "5000")
    let merged = (high.map { ($0, true) } + low.map { ($0, false) }).sorted { $0.0 < $1.0 }
    #expect(merged.count > 10)
    #expect(zip(merged, merged.dropFirst()).allSatisfy { $0.1 != $1.1 })
    let text = try rewind("find", ipad, "--where", "split.expanded contains espresso-machines/leva")
    #expect(text.status == 0)
    #expect(text.stdout.contains("itemExpanded espresso-machines/leva"))
  }

  @Test(
    "a boolean field alone is a condition, in find and log --where: split.overlay is split.overlay == true, !split.overlay its negation"
  )
  func booleanFieldAlone() throws {
    let overlay = try matches(ipad, "split.overlay == true")
    let noOverlay = try matches(ipad, "split.overlay == false")
    #expect(!overlay.isEmpty && !noOverlay.isEmpty)
    #expect(try matches(ipad, "split.overlay") == overlay)
    #expect(try matches(ipad, "!split.overlay") == noOverlay)
    #expect(
      try matches(ipad, "split.overlay && changed(split.style)")
        == matches(ipad, "split.overlay == true && changed(split.style)"))
    let log = try rewind("log", ipad, "--where", "split.overlay")
    #expect(log.status == 0, "\(log.stderr)")
    #expect(log.stdout == (try rewind("log", ipad, "--where", "split.overlay == true").stdout))
    // Any other field alone says it is not a boolean, and what to write.
    expectUsageError(
      try rewind("find", ipad, "--where", "split.style"),
      "The value 'split.style' is invalid for '--where <condition>': at column 1: split.style is not a boolean (it holds one of automatic, balanced, prominentDetail), so it is no condition alone: compare it, e.g. split.style == automatic",
      command: "find")
    expectUsageError(
      try rewind("log", ipad, "--where", "true"),
      "The value 'true' is invalid for '--where <condition>': at column 1: true is a value, not a condition: compare a field with it, e.g. split.overlay == true, or split.overlay alone for a boolean field",
      command: "log")
  }

  @Test(
    "a menu label the session lacks is a usage error suggesting the one meant (menu.labels contains monday found nothing)"
  )
  func menuLabelChecked() throws {
    expectUsageError(
      try rewind("find", ipad, "--where", "menu.labels contains monday"),
      "The value 'menu.labels contains monday' is invalid for '--where <condition>': at column 22: 'monday' is not a label in this session. Did you mean 'Monday'?",
      command: "find")
    let found = try rewind("find", ipad, "--where", "menu.labels contains Monday")
    #expect(found.status == 0, "\(found.stderr)")
    #expect(found.stdout.contains("the start"), "\(found.stdout)")
  }

  @Test("--from/--to search a range; --count and --last agree with --all")
  func rangeLastCount() throws {
    for condition in [
      "changed(split.selectedItem)", "split.style == balanced", "outcome == rejected",
      "menu.selectedIndex > 2 || event == backTapped",
    ] {
      let every = try matches(generated, condition, "--to", "30000")
      let count = try rewind("find", generated, "--where", condition, "--to", "30000", "--count")
      #expect(count.status == 0)
      #expect(count.stdout == "\(every.count)\n", "\(condition)")
      let last = try parseObject(
        try rewind("find", generated, "--where", condition, "--to", "30000", "--last", "--json")
          .stdout)
      #expect(
        (last["matches"] as? [[String: Any]])?.compactMap { $0["seq"] as? Int }
          == every.suffix(1)
          .map { $0 }, "\(condition)")
      // A range's matches after its start are the session's matches there.
      let part = try matches(generated, condition, "--from", "10000", "--to", "20000")
      #expect(
        part.filter { $0 > 10000 } == every.filter { $0 > 10000 && $0 <= 20000 }, "\(condition)")
      #expect(part.allSatisfy { (10000...20000).contains($0) })
    }
  }

  @Test("--last searches backwards from --to; the options that exclude each other say so")
  func lastAndConflicts() throws {
    let last = try rewind("find", ipad, "--where", "changed(split.style)", "--last", "--to", "29")
    #expect(last.status == 0)
    #expect(last.stdout.contains("event 25 "))
    #expect(!last.stdout.contains("event 14 "))
    let none = try rewind("find", ipad, "--where", "changed(split.style)", "--last", "--to", "13")
    #expect(none.stdout == "No point from event 0 to 13 where changed(split.style) holds.\n")
    expectUsageError(
      try rewind("find", ipad, "--where", "changed(split.style)", "--all", "--count"),
      "--all and --count cannot be used together", command: "find")
    expectUsageError(
      try rewind("find", ipad, "--where", "changed(split.style)", "--from", "20", "--to", "10"),
      "--from 20 is after --to 10; give the earlier point first", command: "find")
  }

  @Test("rewind help conditions documents the language with examples")
  func helpTopic() throws {
    let help = try rewind("help", "conditions")
    #expect(help.status == 0)
    for word in [
      "contains", "changed(PATH)", "outcome", "reason", "&&", "||", "EXAMPLES",
      "a boolean field alone", "!split.overlay",
    ] {
      #expect(help.stdout.contains(word), "\(word)")
    }
    let find = try rewind("help", "find")
    #expect(find.stdout.contains("--last"))
    #expect(find.stdout.contains("rewind help conditions"))
    // A topic takes no more words: the extra one is named, not the topic.
    expectUsageError(
      try rewind("help", "conditions", "extra"), "Unexpected argument 'extra'", command: nil)
    #expect(try rewind("help", "conditions", "--help").stdout == help.stdout)
  }
}
