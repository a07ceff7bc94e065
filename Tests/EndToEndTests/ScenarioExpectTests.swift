import Foundation
import TestSupport
import Testing

@Suite("rewind record: expect lines", .timeLimit(.minutes(2)))
struct ScenarioExpectTests {
  /// Records `script` (written to a fresh directory) and returns the result and the
  /// journal's path.
  func record(_ script: String) throws -> (ProcessResult, String, TemporaryDirectory) {
    let directory = TemporaryDirectory()
    script.writeFixture(to: directory.path + "/s.scenario")
    let journal = directory.path + "/s.journal"
    let result = try rewind("record", directory.path + "/s.scenario", "-o", journal)
    return (result, journal, directory)
  }

  @Test("expectations that hold: the journal is recorded")
  func holding() throws {
    let (result, journal, directory) = try record(
      """
      expect split.selectedCategory == null
      select category Grinders
      expect split.selectedCategory == grinders
      expect changed(split.selectedCategory)
      select item Vulcano
      expect split.selectedItem != null
      expand Vulcano
      expect rejected
      select category Grinders   # the selected category again
      expect unchanged
      """)
    #expect(result.status == 0, "\(result.stderr)")
    withExtendedLifetime(directory) { #expect(FileManager.default.fileExists(atPath: journal)) }
  }

  @Test("expect takes the condition language: compound conditions and the event's words")
  func compound() throws {
    let (result, journal, directory) = try record(
      """
      select category Grinders
      expect event == categorySelected && outcome == applied && !changed(split.selectedItem)
      expand Vulcano
      expect outcome == rejected && reason != null
      select item Vulcano
      expect split.selectedItem contains vulcano || split.overlay == true
      expect !split.overlay
      """)
    #expect(result.status == 0, "\(result.stderr)")
    withExtendedLifetime(directory) { #expect(FileManager.default.fileExists(atPath: journal)) }

    let (failed, _, _) = try record(
      """
      select category Grinders
      expect event == itemSelected || split.selectedCategory == espresso-machines
      """)
    #expect(failed.status == 1)
    #expect(
      failed.stderr.contains(
        #"s.scenario:2: expect failed (after categorySelected grinders): expected event == "itemSelected" || split.selectedCategory == "espresso-machines", but split.selectedCategory is "grinders""#
      ), "\(failed.stderr)")
    let (early, _, _) = try record("expect outcome == applied\nselect category Grinders\n")
    #expect(early.status != 0)
    #expect(early.stderr.contains("needs an event before it"), "\(early.stderr)")
    // A boolean field alone is a condition; another field alone says what to write.
    let (alone, _, _) = try record("select category Grinders\nexpect split.overlay\n")
    #expect(alone.status == 1)
    #expect(
      alone.stderr.contains(
        "expect failed (after categorySelected grinders): expected split.overlay == true, but split.overlay is false"
      ), "\(alone.stderr)")
    let (style, _, _) = try record("select category Grinders\nexpect split.style\n")
    #expect(style.status != 0)
    #expect(
      style.stderr.contains("split.style is not a boolean (it holds one of"), "\(style.stderr)")
    let (slip, _, _) = try record("select category Grinders\nexpect event == categorySelectd\n")
    #expect(slip.status != 0)
    #expect(slip.stderr.contains("is not an event kind"), "\(slip.stderr)")
  }

  @Test("a field that differs stops with exit 1, the line and what the event changed")
  func fieldFails() throws {
    let (result, journal, directory) = try record(
      """
      select category Espresso Machines
      select item Leva X
      expect split.selectedItem == espresso-machines/leva/leva-s
      select item Leva S
      """)
    #expect(result.status == 1)
    #expect(
      result.stderr.contains(
        #"s.scenario:3: expect failed (after itemSelected espresso-machines/leva/leva-x): expected split.selectedItem == "espresso-machines/leva/leva-s", but split.selectedItem is "espresso-machines/leva/leva-x"; the event changed split.selectedItem null → "espresso-machines/leva/leva-x""#
      ), "\(result.stderr)")
    withExtendedLifetime(directory) {
      #expect(!FileManager.default.fileExists(atPath: journal))
      #expect(FileManager.default.fileExists(atPath: directory.path + "/s.scenario"))
    }
  }

  @Test("expect rejected after an accepted event fails; expect unchanged after a rejected one too")
  func outcomeFails() throws {
    let (accepted, _, _) = try record("select category Grinders\nexpect rejected\n")
    #expect(accepted.status == 1)
    #expect(accepted.stderr.contains("s.scenario:2: "))
    #expect(accepted.stderr.contains("expected rejected, but the event was applied"))
    let (rejected, _, _) = try record("back\nexpect unchanged\n")
    #expect(rejected.status == 1)
    #expect(rejected.stderr.contains("expected unchanged, but the event was rejected ("))
    #expect(rejected.stderr.contains("the event changed nothing"))
  }

  @Test("the first failure stops: a later one is not reported")
  func firstOnly() throws {
    let (result, _, _) = try record(
      "select category Grinders\nexpect unchanged\nback\nexpect unchanged\n")
    #expect(result.status == 1)
    #expect(result.stderr.contains("s.scenario:2: "))
    #expect(!result.stderr.contains("s.scenario:4: "))
  }

  @Test("an expectation is checked against the fields as the script is read")
  func checkedWhenRead() throws {
    let (unknownField, _, _) = try record("select category Grinders\nexpect split.selected == x\n")
    #expect(unknownField.status == 1)
    #expect(unknownField.stderr.contains("s.scenario:2:8: "))
    // A misspelt field gets the field meant, as an expected state's does.
    let (misspelt, _, _) = try record(
      "select category Grinders\nexpect split.selectedCategroy == grinders\n")
    #expect(misspelt.status == 1)
    #expect(
      misspelt.stderr.hasSuffix(
        "(and event, outcome, reason name the event). Did you mean 'split.selectedCategory'?\n"),
      "\(misspelt.stderr)")
    let (unknownID, _, _) = try record(
      "select category Grinders\nexpect split.selectedCategory == grindrs\n")
    #expect(unknownID.stderr.contains("s.scenario:2:34: "))
    let (nothing, _, _) = try record("expect rejected\nselect category Grinders\n")
    #expect(nothing.stderr.contains("'expect rejected' needs an event before it"))
  }
}
