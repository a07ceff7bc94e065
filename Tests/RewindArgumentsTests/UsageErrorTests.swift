import RewindArguments
import Testing

@Suite("Usage errors: stderr, wording and exit code 64")
struct UsageErrorTests {
  static let stateUsage = """
    Usage: rewind state <journal> [--at <point>] [--skip <seq,...>] [--json]
      See 'rewind state --help' for more information.

    """
  static let recordUsage = """
    Usage: rewind record <script> --output <file> [--events <count>] [--seed <n>]
                         [--verbose]
      See 'rewind record --help' for more information.

    """
  static let rootUsage = """
    Usage: rewind <subcommand>
      See 'rewind --help' for more information.

    """

  @Test(
    "each kind of mistake is reported in the argument parser's words",
    arguments: [
      (["stat"], "Error: Unknown subcommand 'stat'. Did you mean 'state'?\n" + rootUsage),
      (["frobnicate"], "Error: Unknown subcommand 'frobnicate'\n" + rootUsage),
      (["help", "stat"], "Error: Unknown subcommand 'stat'. Did you mean 'state'?\n" + rootUsage),
      (["help", "state", "x"], "Error: Unexpected argument 'x'\n" + rootUsage),
      (["--verison"], "Error: Unknown option '--verison'. Did you mean '--version'?\n" + rootUsage),
      (["--json", "state"], "Error: Unknown option '--json'\n" + rootUsage),
      (
        ["--version=2"],
        "Error: The option '--version' does not take any value, but '2' was specified.\n"
          + rootUsage
      ),
      (
        ["state", "j", "--help=me"],
        "Error: The option '--help' does not take any value, but 'me' was specified.\n"
          + stateUsage
      ),
      (["state", "j", "--bogus"], "Error: Unknown option '--bogus'\n" + stateUsage),
      (["state", "j", "-x"], "Error: Unknown option '-x'\n" + stateUsage),
      (["state", "j", "-jx"], "Error: Unknown option '-jx'\n" + stateUsage),
      (
        ["state", "j", "--jsn"],
        "Error: Unknown option '--jsn'. Did you mean '--json'?\n" + stateUsage
      ),
      (
        ["state", "j", "--hlep"],
        "Error: Unknown option '--hlep'. Did you mean '--help'?\n" + stateUsage
      ),
      (
        ["state"],
        "Error: Missing expected argument '<journal>'\nHelp:  <journal>  The journal to read.\n"
          + stateUsage
      ),
      (
        ["state", "j", "--at"],
        "Error: Missing value for '--at <point>'\nHelp:  --at <point>  The point in the session.\n"
          + stateUsage
      ),
      (
        ["state", "j", "--at", "--json"],
        "Error: Missing value for '--at <point>'\nHelp:  --at <point>  The point in the session.\n"
          + stateUsage
      ),
      (
        ["state", "j", "--at", "abc"],
        "Error: The value 'abc' is invalid for '--at <point>': expected a sequence number,"
          + " +<seconds>s, start or end\nHelp:  --at <point>  The point in the session.\n"
          + stateUsage
      ),
      (["state", "a", "b"], "Error: Unexpected argument 'b'\n" + stateUsage),
      (["state", "a", "b", "c"], "Error: 2 unexpected arguments: 'b', 'c'\n" + stateUsage),
      // The command's hint, given every positional word, whichever is left over.
      (
        ["state", "a", "5"],
        "Error: Unexpected argument '5'; a number goes after --at (given: a 5; --at 5)\n"
          + stateUsage
      ),
      (
        ["state", "5", "--json", "a"],
        "Error: Unexpected argument 'a'; a number goes after --at (given: 5 a; --at 5)\n"
          + stateUsage
      ),
      // The command's hint for an option it does not have, in place of a near miss.
      (
        ["state", "j", "--end"],
        "Error: Unknown option '--end': the state at the end is the default; --at for another point\n"
          + stateUsage
      ),
      (
        ["state", "j", "--end=1"],
        "Error: Unknown option '--end': the state at the end is the default; --at for another point\n"
          + stateUsage
      ),
      (["state", "j", "--ends"], "Error: Unknown option '--ends'\n" + stateUsage),
      (
        ["state", "j", "--json=yes"],
        "Error: The option '--json' does not take any value, but 'yes' was specified.\n"
          + stateUsage
      ),
      (
        ["state", "j", "--at", "1", "--at=2"],
        "Error: The option '--at <point>' can be given only once\n"
          + "Help:  --at <point>  The point in the session.\n" + stateUsage
      ),
      (
        ["record", "s"],
        "Error: Missing expected argument '--output <file>'\n"
          + "Help:  --output <file>  The journal to write.\n" + recordUsage
      ),
      (
        ["record", "s", "-o", "-v"],
        "Error: Missing value for '-o <file>'\nHelp:  -o <file>  The journal to write.\n"
          + recordUsage
      ),
      (
        ["record", "s", "-o", "x", "--events", "abc"],
        "Error: The value 'abc' is invalid for '--events <count>': expected a whole number\n"
          + "Help:  --events <count>  How many events to generate.\n" + recordUsage
      ),
      (
        ["record", "s", "-o", "x", "--seed", "1.5"],
        "Error: The value '1.5' is invalid for '--seed <n>': expected a whole number\n"
          + "Help:  --seed <n>  The random seed.\n" + recordUsage
      ),
      (
        ["diff"],
        "Error: Missing expected argument '<journal> ...'\n"
          + "Help:  <journal>  The journals to compare.\n"
          + "Usage: rewind diff <journal> ... [--from <point>] [--field <path> ...]\n"
          + "  See 'rewind diff --help' for more information.\n"
      ),
      (
        ["diff", "a", "--field", "x", "--field="],
        "Error: The value '' is invalid for '--field <path>': a field path cannot be empty\n"
          + "Help:  --field <path>  A field to compare.\n"
          + "Usage: rewind diff <journal> ... [--from <point>] [--field <path> ...]\n"
          + "  See 'rewind diff --help' for more information.\n"
      ),
      (
        ["count", "many"],
        "Error: The value 'many' is invalid for '<events>': expected a whole number\n"
          + "Help:  <events>  How many.\n"
          + "Usage: rewind count <events>\n  See 'rewind count --help' for more information.\n"
      ),
      (
        ["jetstream", "psh"],
        "Error: Unknown subcommand 'psh'. Did you mean 'push'?\n"
          + "Usage: rewind jetstream <subcommand>\n"
          + "  See 'rewind jetstream --help' for more information.\n"
      ),
      (
        ["jetstream", "--force"],
        "Error: Unknown option '--force'\nUsage: rewind jetstream <subcommand>\n"
          + "  See 'rewind jetstream --help' for more information.\n"
      ),
      (
        ["jetstream", "push"],
        "Error: Missing expected argument '<journal>'\nHelp:  <journal>  The journal to push.\n"
          + "Usage: rewind jetstream push <journal>\n"
          + "  See 'rewind jetstream push --help' for more information.\n"
      ),
    ] as [([String], String)])
  func reported(arguments: [String], expected: String) {
    let result = Sample.run(arguments)
    #expect(result.stderr == expected)
    #expect(result.stdout == "")
    #expect(result.status == 64)
  }

  @Test("a usage error thrown by a command comes after its output, with its usage line")
  func thrownByCommand() {
    let result = Sample.run(["fail", "usage"])
    #expect(result.status == 64)
    #expect(result.stdout == "partial output\n")
    #expect(
      result.stderr == """
        Error: the journal and the script disagree
        Usage: rewind fail <how>
          See 'rewind fail --help' for more information.

        """)
  }

  @Test("every error starts with the context's error label")
  func contextLabel() {
    #expect(Sample.run(["state"], errorLabel: "<Error:>").stderr.hasPrefix("<Error:> Missing"))
    #expect(Sample.run(["stat"], errorLabel: "<Error:>").stderr.hasPrefix("<Error:> Unknown"))
    #expect(
      Sample.run(["fail", "other"], errorLabel: "<Error:>").stderr
        == "<Error:> Input/output error\n")
  }
}
