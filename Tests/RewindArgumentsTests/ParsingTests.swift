import RewindArguments
import Testing

@Suite("Parsing a command line")
struct ParsingTests {
  @Test(
    "every accepted form reaches the command with the right values",
    arguments: [
      (["state", "j"], "journal=j at=end skip=- json=false"),
      (
        ["state", "j", "--at", "12", "--skip", "1,2", "--json"],
        "journal=j at=12 skip=1,2 json=true"
      ),
      (["state", "j", "--at=+12.5s"], "journal=j at=+12.5s skip=- json=false"),
      (["state", "--json", "--at", "start", "j"], "journal=j at=start skip=- json=true"),
      (["state", "j", "--json", "--json"], "journal=j at=end skip=- json=true"),
      (["state", "--", "--json"], "journal=--json at=end skip=- json=false"),
      (["state", "--at", "3", "--", "-j"], "journal=-j at=3 skip=- json=false"),
      (["state", "-", "--at="], nil),
      (
        ["record", "s", "-o", "x.journal", "-v"],
        "script=s output=x.journal events=1000 seed=none verbose=true"
      ),
      (
        ["record", "--output=x", "--events", "5", "--seed", "-7", "--verbose", "s"],
        "script=s output=x events=5 seed=-7 verbose=true"
      ),
      (
        ["record", "s", "-o", "-out.journal"],
        "script=s output=-out.journal events=1000 seed=none verbose=false"
      ),
      (["diff", "a"], "journals=[\"a\"] from=start fields=[]"),
      (
        ["diff", "a", "b", "--field", "menu", "c", "--field=split", "--from", "+1s"],
        "journals=[\"a\", \"b\", \"c\"] from=+1s fields=[\"menu\", \"split\"]"
      ),
      (["log"], "journal=session.journal limit=none extra=[]"),
      (["log", "-"], "journal=- limit=none extra=[]"),
      (["log", "j", "x", "-1", "--limit", "3"], "journal=j limit=3 extra=[\"x\", \"-1\"]"),
      (["jetstream", "push", "j"], "pushed j"),
      (["jetstream", "pull"], "pulled"),
    ] as [([String], String?)])
  func accepted(arguments: [String], expected: String?) {
    let result = Sample.run(arguments)
    if let expected {
      #expect(result.stderr == "")
      #expect(result.stdout == expected + "\n")
      #expect(result.status == 0)
    } else {
      // `-` is a positional value and `--at=` an empty one, which the point parser refuses.
      #expect(result.stderr.hasPrefix("Error: The value '' is invalid for '--at <point>'"))
      #expect(result.status == 64)
    }
  }

  @Test("an option's value may start with '-' and reaches the value parser")
  func dashValue() {
    let result = Sample.run(["state", "j", "--at", "-5"])
    #expect(result.status == 64)
    #expect(
      result.stderr.hasPrefix(
        "Error: The value '-5' is invalid for '--at <point>': a sequence number cannot be negative\n"
      ))
  }

  @Test("a negative number is a positional value, and the command may refuse it")
  func negativePositional() {
    let result = Sample.run(["count", "-3"])
    #expect(result.status == 64)
    #expect(
      result.stderr == """
        Error: <events> must not be negative
        Usage: rewind count <events>
          See 'rewind count --help' for more information.

        """)
  }
}
