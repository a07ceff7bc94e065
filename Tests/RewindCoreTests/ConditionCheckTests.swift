import Navigation
import TestSupport
import Testing

@testable import RewindCore

/// Conditions are checked against the domain's fields before any replay: the kinds a
/// domain declares (Navigation) or infers from its initial state (the Codable defaults).
@Suite("Conditions checked against the fields' kinds")
struct ConditionCheckTests {
  let navigation = NavigationDomain()

  func check<D: Domain>(_ text: String, _ domain: D) throws -> Int {
    try domain.check(WrittenCondition(parsing: text)).fields.first ?? -1
  }

  func error<D: Domain>(_ text: String, _ domain: D) -> ConditionError? {
    do {
      _ = try check(text, domain)
      return nil
    } catch {
      return error as? ConditionError
    }
  }

  @Test(
    "conditions that fit the navigation fields pass, giving the field's index",
    arguments: [
      ("menu.selectedIndex == 3", 1), ("menu.scrollOffset != 12.5", 2),
      ("menu.scrollOffset == 0", 2), ("menu.viewportWidth == 375", 3),
      ("split.layout == twoColumn", 4),
      ("split.selectedCategory == grinders", 5), ("split.selectedCategory == null", 5),
      ("split.selectedItem == espresso-machines/leva/leva-x", 6),
      ("split.expanded == [\"espresso-machines/leva\", \"grinders\"]", 7),
      ("split.expanded == []", 7), ("split.columnVisibility != detailOnly", 8),
      ("split.style == \"prominentDetail\"", 9), ("split.sizeClass == compact", 10),
      ("split.orientation == portrait", 11),
      ("split.compactColumn == sidebar", 12), ("split.visibleColumns == [\"detail\"]", 13),
      ("split.overlay == true", 14), ("changed(split.style)", 9),
      ("menu.labels == [\"Monday\"]", 0), ("split.overlay", 14), ("!split.overlay", 14),
    ])
  func fitting(text: String, index: Int) throws {
    #expect(try check(text, navigation) == index)
  }

  @Test("each kind of mistake is reported at the column of what is wrong")
  func mistakes() {
    let enumValue = error("split.style == Balanced", navigation)
    #expect(enumValue?.column == 16)
    #expect(
      enumValue?.message
        == "split.style holds one of automatic, balanced, prominentDetail, not 'Balanced'")
    #expect(enumValue?.word == "Balanced")
    #expect(enumValue?.choices == ["automatic", "balanced", "prominentDetail"])

    let wrongType = error("menu.selectedIndex == \"0\"", navigation)
    #expect(wrongType?.column == 23)
    #expect(wrongType?.message == "menu.selectedIndex holds an integer, not a string (\"0\")")
    #expect(wrongType?.suggestion == "0")

    // A whole number past 64 bits is said to be one, not called a number of another kind.
    for written in ["18446744073709551616", "-9223372036854775809", "1e30"] {
      let large = error("menu.selectedIndex == \(written)", navigation)
      #expect(large?.column == 23)
      #expect(
        large?.message
          == "menu.selectedIndex holds an integer, and the whole number given is past the integers' range (-9223372036854775808 to 9223372036854775807)"
      )
    }
    // Whole numbers within it, however written, are integers (the review of session 68:
    // 1e16 was refused as past the range).
    for written in ["1e16", "9.2e18", "-9.2e18", "3.0"] {
      #expect(error("menu.selectedIndex == \(written)", navigation) == nil, "\(written)")
    }
    let fraction = error("menu.selectedIndex == 1.5", navigation)
    #expect(fraction?.message == "menu.selectedIndex holds an integer, not a number (1.5)")

    let name = error("split.selectedItem == Leva", navigation)
    #expect(name?.column == 23)
    #expect(name?.message == "'Leva' is not the id of an item in this session")
    #expect(name?.suggestion == "espresso-machines/leva")
    #expect(name?.choices.contains("grinders/swift") == true)
    #expect(name?.choices.contains("grinders") == false)

    let category = error("split.selectedCategory == espresso-machines/leva", navigation)
    #expect(
      category?.message == "'espresso-machines/leva' is not the id of a category in this session")
    #expect(category?.suggestion == nil)

    let field = error("changed(split.stlye)", navigation)
    #expect(field?.column == 9)
    #expect(field?.word == "split.stlye")
    #expect(field?.choices == navigation.fields.map(\.path) + ["event", "outcome", "reason"])

    let null = error("split.overlay == null", navigation)
    #expect(null?.message == "split.overlay holds true or false, not null")

    let scalarForList = error("split.expanded == espresso-machines/leva", navigation)
    #expect(scalarForList?.suggestion == "[\"espresso-machines/leva\"]")

    let element = error("split.visibleColumns == [\"detail\", \"side\"]", navigation)
    #expect(
      element?.message
        == "each element of split.visibleColumns is one of sidebar, content, detail, not 'side'")
    #expect(error("menu.selectedIndex == 1.5", navigation)?.suggestion == nil)
    #expect(error("split.overlay == \"true\"", navigation)?.suggestion == "true")
  }

  @Test(
    "only a boolean field is a condition alone; another field, an event word or true and false alone say what to write, at their column",
    arguments: [
      (
        "split.style", 1,
        "split.style is not a boolean (it holds one of automatic, balanced, prominentDetail), so it is no condition alone: compare it, e.g. split.style == automatic"
      ),
      (
        "split.overlay && !menu.selectedIndex", 19,
        "menu.selectedIndex is not a boolean (it holds an integer), so it is no condition alone: compare it, e.g. menu.selectedIndex == …"
      ),
      (
        "split.expanded", 1,
        "split.expanded is not a boolean (it holds a list, each element the id of an item with children), so it is no condition alone: compare it, e.g. split.expanded contains …"
      ),
      (
        "split.selectedItem", 1,
        "split.selectedItem is not a boolean (it holds the id of an item or null), so it is no condition alone: compare it, e.g. split.selectedItem == …"
      ),
      (
        "event", 1,
        "event is the event's kind, not a boolean, so it is no condition alone: compare it, e.g. event == menuTabTapped"
      ),
      (
        "!outcome", 2,
        "outcome is applied, unchanged or rejected, not a boolean, so it is no condition alone: compare it, e.g. outcome == rejected"
      ),
      (
        "(reason)", 2,
        "reason is why the event was rejected (null when it was not), not a boolean, so it is no condition alone: compare it, e.g. reason != null"
      ),
      (
        "true", 1,
        "true is a value, not a condition: compare a field with it, e.g. split.overlay == true, or split.overlay alone for a boolean field"
      ),
      (
        "split.overlay || false", 18,
        "false is a value, not a condition: compare a field with it, e.g. split.overlay == false, or split.overlay alone for a boolean field"
      ),
    ])
  func pathAlone(text: String, column: Int, message: String) throws {
    let found = try #require(error(text, navigation), "\(text)")
    #expect(found.column == column, "\(text)")
    #expect(found.message == message, "\(text)")
  }

  @Test("a path alone that is no field is an unknown field, with its near miss")
  func unknownPathAlone() throws {
    let found = try #require(error("split.overlai", navigation))
    #expect(found.column == 1)
    #expect(found.message.hasPrefix("'split.overlai' is not a state field"))
    #expect(found.meant == "split.overlay")
    // An inferred boolean (true, false or null) is one alone too.
    #expect(try check("tally.flag", StandardTally()) == 2)
  }

  @Test("a domain's known values come from the session's catalog")
  func sessionCatalog() throws {
    let catalog = try Catalog(
      menuLabels: ["One"],
      categories: [Catalog.Node("Tea", children: [Catalog.Node("Green"), Catalog.Node("Black")])])
    let domain = NavigationDomain(catalog: catalog)
    #expect(try check("split.selectedItem == tea/green", domain) == 6)
    #expect(error("split.selectedItem == grinders/swift", domain) != nil)
    #expect(error("split.selectedItem == Black", domain)?.suggestion == "tea/black")
    // The menu's labels are the session's too.
    #expect(try check("menu.labels contains One", domain) == 0)
    #expect(error("menu.labels contains one", domain)?.suggestion == "One")
  }

  @Test(
    "a menu label the session does not have is refused, suggesting the label meant (monday found nothing where the labels are Monday…)"
  )
  func menuLabels() throws {
    #expect(try check("menu.labels contains Monday", navigation) == 0)
    let lower = try #require(error("menu.labels contains monday", navigation))
    #expect(lower.column == 22)
    #expect(lower.message == "'monday' is not a label in this session")
    #expect(lower.suggestion == "Monday")
    #expect(lower.description.hasSuffix(". Did you mean 'Monday'?"))
    // A near miss or the start of one is found among the labels.
    #expect(error("menu.labels contains Mon", navigation)?.meant == "Monday")
    #expect(error("menu.labels contains Tusday", navigation)?.meant == "Tuesday")
    // Every element of a list is checked, at the value's column.
    let list = try #require(error(#"menu.labels == ["Monday", "tuesday"]"#, navigation))
    #expect(list.column == 16)
    #expect(list.message == "'tuesday' is not a label in this session")
    #expect(list.suggestion == "Tuesday")
    // What the field holds, as messages say it.
    #expect(
      error("menu.labels < 3", navigation)?.message
        == "'<' compares numbers, and menu.labels holds a list, each element a label")
  }

  @Test("the Codable defaults infer kinds from the initial state; strings are not checked")
  func inferred() throws {
    let tally = StandardTally()
    #expect(
      tally.fields.map(\.kind) == [
        .optional(.integer), .optional(.integer), .optional(.boolean), .any,
      ])
    #expect(try check("tally.value == 8", tally) == 0)
    #expect(try check("tally.value == null", tally) == 0)
    #expect(try check("tally.sign == 3", tally) == 3)
    #expect(error("tally.value == \"8\"", tally)?.suggestion == "8")
    #expect(error("tally.flag == yes", tally)?.column == 15)
    let notes = Notes()
    #expect(
      notes.fields.map(\.kind) == [
        .any, .optional(.list(of: .any)), .optional(.list(of: .any)), .any,
      ])
    // An enum that starts as a string may hold an object later.
    #expect(try check("mode == {\"running\": {\"since\": 1}}", notes) == 3)
    #expect(error("items == milk", notes)?.suggestion == "[\"milk\"]")
  }

  @Test("find checks the condition before replaying anything")
  func findChecksFirst() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("tally.journal")
    try recordTally(at: path, count: 20)
    let timeline = try Timeline<StandardTally>(path: path)
    #expect(throws: ConditionError.self) {
      try timeline.find(.equals(path: "tally.flag", value: "yes"), all: true)
    }
    #expect {
      try timeline.find(.equals(path: "tally.flag", value: "yes"), all: true)
    } throws: { error in
      (error as? ConditionError)?.column == "tally.flag == ".count + 1
    }
  }
}
