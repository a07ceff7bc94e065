import TestSupport
import Testing

/// `find --last` on a salvaged journal, as a user runs it: over ranges around the events
/// lost to damage, with conditions on the state and on changes, it prints `find --all`'s
/// last match, and warns of the lost events when a later match may have been among them
/// (those between its match and `--to`) with `find --all`'s warning.
@Suite("find --last on a salvaged journal: find --all's last match and its warning")
struct SalvagedFindLastTests {
  let search = SalvagedSearchTests()

  @Test(
    "--last is --all's last match around lost events, with and without --from/--to; the warning when a later one may be lost"
  )
  func lastAgreesWithAll() throws {
    let directory = TemporaryDirectory()
    let (intact, salvaged, lost) = try search.salvagedJournal(in: directory)
    let warning =
      "warning: \(salvaged): events \(lost.lowerBound)–\(lost.upperBound) were lost to damage and are missing here\n"
    let (first, last) = (lost.lowerBound, lost.upperBound)
    let ranges: [[String]] = [
      [], ["--from", "\(first - 40)", "--to", "\(last + 40)"], ["--to", "\(first + 3)"],
      ["--from", "0", "--to", "\(last + 1)"], ["--from", "\(last + 1)"],
      ["--to", "\(first - 1)"], ["--from", "\(first - 1)", "--to", "\(last + 2)"],
    ]
    var before = 0
    for condition in [
      "split.orientation == portrait", "changed(split.orientation)", "menu.selectedIndex >= 3",
      "changed(menu.selectedIndex)", "split.overlay == true",
    ] {
      for range in ranges {
        let context = "\(condition) \(range)"
        let all = try rewind(["find", salvaged, "--where", condition, "--all"] + range)
        let back = try rewind(["find", salvaged, "--where", condition, "--last"] + range)
        #expect(all.status == 0 && back.status == 0, "\(context): \(all.stderr)\(back.stderr)")
        // The intact journal's matches among the events kept.
        let whole = try rewind(["find", intact, "--where", condition, "--all"] + range)
        let kept = whole.lines.filter { line in
          search.event(of: line).map { !lost.contains($0) } ?? true
        }
        if kept.count > 1 {
          #expect(all.lines == kept, "\(context)")
        } else {
          // Its only matches were among the lost events.
          #expect(all.lines.count == 1 && all.lines[0].hasPrefix("No point"), "\(context)")
        }
        #expect(back.lines == (all.lines.count > 2 ? [all.lines[0], all.lines.last!] : all.lines))
        // A later match may have been among the lost events when they come after the
        // last one found (or there is none) and before --to.
        let to = range.firstIndex(of: "--to").map { UInt64(range[$0 + 1])! } ?? .max
        let from = range.firstIndex(of: "--from").map { UInt64(range[$0 + 1])! } ?? 0
        let found = back.lines.last.flatMap(search.event(of:)) ?? from
        let unseen = last > found && first <= to
        #expect(back.stderr == (unseen ? warning : ""), "\(context)")
        if unseen { #expect(all.stderr == warning, "\(context)") }
        if unseen, back.lines.count > 1 { before += 1 }
      }
    }
    // Some searches found their match before the lost events, and warned.
    #expect(before > 3)
  }
}
