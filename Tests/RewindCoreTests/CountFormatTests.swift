import RewindJournal
import Testing

@testable import RewindCore

@Suite("Counts: digits in groups of three, every command alike")
struct CountFormatTests {
  @Test(
    "a count is grouped by threes, a negative one after its sign",
    arguments: [
      (0, "0"), (7, "7"), (999, "999"), (1_000, "1,000"), (9_903, "9,903"),
      (123_456, "123,456"), (1_234_567, "1,234,567"), (-1_234, "-1,234"), (-999, "-999"),
      (Int.min, "-9,223,372,036,854,775,808"),
    ])
  func grouped(value: Int, text: String) {
    #expect(Format.count(value) == text)
    #expect(Journal.grouped(value) == text)
  }

  @Test("verify's counts are grouped as the others' (it printed 9903 bytes)")
  func verifyCounts() {
    #expect(Journal.count(9_903, "byte") == "9,903 bytes")
    #expect(Journal.count(1, "byte") == "1 byte")
    #expect(Format.count(UInt64(9_903), "byte") == "9,903 bytes")
  }
}
