import RewindCore
import RewindJournal

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One output stream of a command, standard output or standard error, or a capture of
/// one in tests.
///
/// Commands never call `print`: they write through ``Context/stdout`` and
/// ``Context/stderr``, which know whether they reach a terminal, how to style text for it
/// (``style``) and how wide it is (``columns``). Writes are buffered: standard output is
/// written in 64 KiB blocks when it is a file or a pipe, after every write when it is a
/// terminal; standard error after every write. The runner flushes both before the
/// process ends.
///
/// A progress bar draws a *transient line* on standard error; any other write to that
/// stream erases it first, so an error message never lands in the middle of a bar.
///
/// Text from outside is escaped by whoever turns it into text (``TerminalText/escaped(_:keepingNewlines:)``),
/// so that an id with a newline stays on its line. As a last guard, every write escapes
/// any control character that reaches the stream anyway, except line feeds and, on a
/// colour terminal, the tool's own ``Style`` sequences: nothing written here can drive
/// the terminal.
package final class Output {
  enum Destination {
    case fileDescriptor(Int32)
    case memory
  }

  let destination: Destination
  /// Whether the stream is a terminal (a person is watching).
  package let isTerminal: Bool
  /// How to style text for this stream; plain unless it is a colour terminal.
  package let style: Style
  /// The width of the terminal in columns (80 when unknown or not a terminal).
  package let columns: Int
  /// Whether every write goes out at once instead of waiting for the buffer to fill.
  let flushesEveryWrite: Bool
  private var buffer: [UInt8] = []
  /// Whether a transient line (a progress bar) is on screen and must be erased before
  /// other text.
  private(set) var showsTransientLine = false
  /// The `errno` of the first write the destination refused (a closed pipe, a full disk,
  /// a closed descriptor); later writes are dropped. The runner reports it when the
  /// command is done (``Context/exitStatus(after:)``).
  private(set) var writeError: Int32?

  static let bufferCapacity = 64 * 1024

  init(destination: Destination, isTerminal: Bool, style: Style, columns: Int, unbuffered: Bool) {
    self.destination = destination
    self.isTerminal = isTerminal
    self.style = style
    self.columns = columns
    self.flushesEveryWrite = unbuffered || isTerminal
    if case .fileDescriptor = destination { buffer.reserveCapacity(Self.bufferCapacity) }
  }

  /// A stream that keeps what is written, for tests: read it back with ``text``.
  /// - Parameters:
  ///   - isTerminal: Whether to behave as a terminal (styling, progress bars).
  ///   - environment: What the colour decision reads (`NO_COLOR`, `TERM`).
  ///   - columns: The terminal width to report.
  package static func capture(
    isTerminal: Bool = false, environment: [String: String] = [:], columns: Int = 80
  ) -> Output {
    Output(
      destination: .memory, isTerminal: isTerminal,
      style: Style(isTerminal: isTerminal, environment: environment), columns: columns,
      unbuffered: false)
  }

  /// A stream that keeps what is written, styled and as wide as `other` but never a
  /// terminal (it shows no progress bar): what one of several parallel pieces of work
  /// writes, written to `other` later with ``write(kept:)``.
  static func keeping(like other: Output) -> Output {
    Output(
      destination: .memory, isTerminal: false, style: other.style, columns: other.columns,
      unbuffered: false)
  }

  /// Writes what `kept` (made by ``keeping(like:)``) holds, as it is: it was guarded when
  /// written there.
  func write(kept: Output) {
    guard !kept.buffer.isEmpty else { return }
    if showsTransientLine { eraseTransientLine() }
    buffer.append(contentsOf: kept.buffer)
    afterWrite()
  }

  /// Writes text: as it is, but for control characters other than line feeds and this
  /// stream's own styling, which are escaped.
  package func write(_ text: String) {
    if showsTransientLine { eraseTransientLine() }
    appendGuarded(text)
    afterWrite()
  }

  /// Writes UTF-8 bytes as text (see ``write(_:)``).
  package func write(bytes: some Sequence<UInt8>) {
    write(String(decoding: Array(bytes), as: UTF8.self))
  }

  /// Writes a line: the text (see ``write(_:)``), then a newline.
  package func print(_ line: String = "") {
    if showsTransientLine { eraseTransientLine() }
    appendGuarded(line)
    buffer.append(UInt8(ascii: "\n"))
    afterWrite()
  }

  /// Writes a line given as UTF-8 bytes (appended from `String`s, so valid UTF-8), then a
  /// newline: what ``print(_:)`` writes for the same text, without building it.
  package func print(utf8 line: [UInt8]) {
    if showsTransientLine { eraseTransientLine() }
    if line.withUnsafeBufferPointer({ TerminalText.hasControlBytes($0, keepingNewlines: true) }) {
      appendGuarded(String(decoding: line, as: UTF8.self))
    } else {
      buffer.append(contentsOf: line)
    }
    buffer.append(UInt8(ascii: "\n"))
    afterWrite()
  }

  /// Writes whole lines given as UTF-8 bytes, each with its line feed (appended from
  /// `String`s, so valid UTF-8; a batch may also end between two characters of a line
  /// that the next goes on with): what ``print(_:)`` writes for each line, without
  /// building them. The bytes are checked at once, and only when they hold a control
  /// character go through ``print(_:)``'s escaping (which escapes character by character
  /// and keeps line feeds, so a batch of lines comes out as the lines one by one would).
  package func write(utf8Lines bytes: UnsafeRawBufferPointer) {
    guard !bytes.isEmpty else { return }
    if showsTransientLine { eraseTransientLine() }
    let lines = bytes.assumingMemoryBound(to: UInt8.self)
    if TerminalText.hasControlBytes(lines, keepingNewlines: true) {
      appendGuarded(String(decoding: lines, as: UTF8.self))
    } else {
      buffer.append(contentsOf: lines)
    }
    afterWrite()
  }

  /// Sends what is buffered to the destination. Does nothing for a capture.
  package func flush() {
    guard case .fileDescriptor(let descriptor) = destination, !buffer.isEmpty else { return }
    if writeError == nil {
      writeError = buffer.withUnsafeBytes { ProcessCalls.writeAll(descriptor, $0) }
      // A reader that stopped reading ends the command as SIGPIPE would have.
      if writeError == EPIPE { EndingSignals.pipeClosed() }
    }
    buffer.removeAll(keepingCapacity: true)
  }

  /// Everything written to a capture, as text.
  package var text: String {
    guard case .memory = destination else {
      preconditionFailure("only a capture (Output.capture) keeps its text")
    }
    return String(decoding: buffer, as: UTF8.self)
  }

  /// Appends `text` with every control character escaped but line feeds and, when the
  /// style is on, the Select Graphic Rendition sequences ``Style`` writes
  /// (`ESC [ digits m`).
  private func appendGuarded(_ text: String) {
    guard TerminalText.needsEscaping(text, keepingNewlines: true) else {
      buffer.append(contentsOf: text.utf8)
      return
    }
    guard style.isEnabled else {
      buffer.append(contentsOf: TerminalText.escaped(text, keepingNewlines: true).utf8)
      return
    }
    var rest = Substring(text)
    while let sequence = rest.firstRange(of: Self.styleSequence) {
      buffer.append(
        contentsOf: TerminalText.escaped(
          String(rest[..<sequence.lowerBound]), keepingNewlines: true
        )
        .utf8)
      buffer.append(contentsOf: rest[sequence].utf8)
      rest = rest[sequence.upperBound...]
    }
    buffer.append(contentsOf: TerminalText.escaped(String(rest), keepingNewlines: true).utf8)
  }

  /// What ``Style`` writes: `ESC [`, digits, `m`.
  nonisolated(unsafe) private static let styleSequence = /\u{1B}\[[0-9]{1,2}m/

  private func afterWrite() {
    guard case .fileDescriptor = destination else { return }
    if flushesEveryWrite || buffer.count >= Self.bufferCapacity { flush() }
  }
}

extension Output {
  /// Draws `line` over the current transient line: carriage return, the text, erase to
  /// the end of the line. Sent at once.
  func showTransientLine(_ line: String) {
    buffer.append(contentsOf: "\r".utf8)
    buffer.append(contentsOf: line.utf8)
    buffer.append(contentsOf: "\u{1B}[K".utf8)
    showsTransientLine = true
    flush()
  }

  /// Erases the transient line, if one is shown, leaving the cursor at the start of the
  /// empty line.
  func eraseTransientLine() {
    guard showsTransientLine else { return }
    showsTransientLine = false
    buffer.append(contentsOf: "\r\u{1B}[K".utf8)
    flush()
  }
}
