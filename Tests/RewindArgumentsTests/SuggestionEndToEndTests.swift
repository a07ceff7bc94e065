import Testing

@testable import RewindArguments

/// The parser's "Did you mean …?" (`RewindSpelling`'s `closestName`) on a command line.
@Suite("Did you mean …? on the command line")
struct SuggestionEndToEndTests {
  @Test(
    "the command line suggests commands and long options, and a short option only in the other case"
  )
  func endToEnd() {
    #expect(
      Sample.run(["stat"]).stderr.hasPrefix(
        "Error: Unknown subcommand 'stat'. Did you mean 'state'?\n"))
    #expect(
      Sample.run(["st"]).stderr.hasPrefix("Error: Unknown subcommand 'st'. Did you mean 'state'?\n")
    )
    #expect(
      Sample.run(["diff", "j", "--frm", "1"]).stderr.hasPrefix(
        "Error: Unknown option '--frm'. Did you mean '--from'?\n"))
    #expect(
      Sample.run(["record", "s", "--out", "x"]).stderr.hasPrefix(
        "Error: Unknown option '--out'. Did you mean '--output'?\n"))
    #expect(
      Sample.run(["record", "s", "-O", "x"]).stderr.hasPrefix(
        "Error: Unknown option '-O'. Did you mean '-o'?\n"))
    #expect(
      Sample.run(["record", "s", "-V"]).stderr.hasPrefix(
        "Error: Unknown option '-V'. Did you mean '-v'?\n"))
    #expect(
      Sample.run(["record", "s", "-p", "x"]).stderr.hasPrefix("Error: Unknown option '-p'\n"))
    #expect(Sample.run(["record", "s", "-oo"]).stderr.hasPrefix("Error: Unknown option '-oo'\n"))
  }
}
