import RewindArguments
import RewindCore
import Testing

/// One rule quotes input in messages: RewindCore's `Format.quoted` in Rewind's own, and
/// RewindArguments' `UsageError.quoted` (a module that depends on nothing) in the parser's.
@Suite("Quoting input in messages")
struct QuotingTests {
  @Test("short input is quoted whole; longer input is cut to 60 characters with its length")
  func rule() {
    #expect(Format.quoted("Grinders") == "'Grinders'")
    #expect(Format.quoted("") == "''")
    #expect(Format.quoted("key", quote: "\"") == "\"key\"")
    let eighty = String(repeating: "a", count: 80)
    #expect(Format.quoted(eighty) == "'\(eighty)'")
    let long = String(repeating: "a", count: 1_048_576)
    #expect(
      Format.quoted(long) == "'\(String(repeating: "a", count: 60))…' (1,048,576 characters)")
    #expect(
      Format.quoted(eighty + "b", quote: "")
        == "\(String(repeating: "a", count: 60))… (81 characters)")
    // Characters, not bytes: an emoji with a modifier is one character.
    let wide = String(repeating: "👍🏽", count: 81)
    #expect(
      Format.quoted(wide) == "'\(String(repeating: "👍🏽", count: 60))…' (81 characters)")
  }

  @Test("the parser's quoting gives what Format.quoted gives")
  func sameRule() {
    let texts = [
      "", "--froom", String(repeating: "x", count: 80), String(repeating: "x", count: 81),
      String(repeating: "é", count: 200), String(repeating: "👍🏽", count: 100_000),
    ]
    for text in texts {
      #expect(UsageError.quoted(text) == Format.quoted(text))
    }
  }
}
