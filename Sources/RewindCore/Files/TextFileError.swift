/// A text file a command reads that cannot be read, is not text, or breaks the rules of
/// its format: which file, which line, and what is wrong.
///
/// ``TextFileReader`` throws it for the file itself (no such file, a directory, a NUL
/// byte, invalid UTF-8), and the formats read through it (``JSONLines``) for a line that
/// is not what they expect. Its ``description`` reads `events.jsonl:3: "seq" is 5,
/// expected 3`, the way compilers name a place in a file.
package struct TextFileError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The kind of failure, for programs that react to it.
  package enum Code: String, Sendable {
    /// The file does not exist.
    case notFound
    /// The file exists but cannot be read: a directory, no permission, an I/O error.
    case unreadable
    /// The bytes are not UTF-8 text: a NUL byte, an invalid sequence, a line too long.
    case notText
    /// A line breaks the rules of the file's format.
    case invalidLine
  }

  package var code: Code
  /// The file's path, as the user gave it.
  package var path: String
  /// The 1-based line of the problem; nil when it concerns the whole file.
  package var line: Int?
  /// What is wrong, as a sentence without the location.
  package var message: String

  package init(_ code: Code, _ message: String, path: String, line: Int? = nil) {
    self.code = code
    self.message = message
    self.path = path
    self.line = line
  }

  /// `path:line: message`, or `path: message` without a line.
  package var description: String {
    // An empty path is no file to name (``TextFileReader`` says so in the message).
    if path.isEmpty && line == nil { return message }
    guard let line else { return "\(path): \(message)" }
    return "\(path):\(line): \(message)"
  }
}
