/// The words of a command line sorted to the parameters they are for.
///
/// The parser checks the shape of the command line (every option known, every required
/// argument present, no extra argument) and keeps each parameter's words as given; the
/// declared properties then read their values from them (``DeclaredParameter/fill(_:)``),
/// which is where a value that does not parse becomes a usage error.
struct ParsedArguments: Sendable {
  /// One value as given: the text, and how the option was spelled (`-o`, `--output`);
  /// `nil` for positional arguments.
  struct Occurrence: Sendable, Equatable {
    var value: String
    var spelling: String?
  }

  /// The parameters the words were read against.
  let parameters: [Parameter]
  /// The values given for each of ``parameters``, in command-line order (an empty value
  /// for each time a flag was given).
  var occurrences: [[Occurrence]]

  init(parameters: [Parameter]) {
    self.parameters = parameters
    self.occurrences = Array(repeating: [], count: parameters.count)
  }
}
