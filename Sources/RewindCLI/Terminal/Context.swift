import RewindArguments
import RewindCore
package import RewindJournal
import RewindStream
import RewindTerminal

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Everything a command reaches outside its arguments: its output streams, the
/// environment, the working directory and a clock.
///
/// The process gets ``standard()``; tests build a ``capture(environment:stdoutIsTerminal:stderrIsTerminal:columns:currentDirectory:clock:)``
/// and run the whole tool in-process, then read ``Output/text`` of ``stdout`` and
/// ``stderr``.
package final class Context {
  /// Where results go.
  package let stdout: Output
  /// Where errors, warnings and progress go.
  package let stderr: Output
  /// The environment variables.
  package let environment: [String: String]
  /// The directory relative paths are read from.
  package let currentDirectory: String
  /// Nanoseconds of a monotonic clock (for progress bars and timings).
  package let clock: () -> UInt64
  /// The system calls through which commands read and write files; tests replace them
  /// to make a step fail (a full disk, a failed rename). Whatever replaces them, what a
  /// writer warns of (``FileSystemCalls/warn``: a mode it could not keep, a name it could
  /// not remove) is said on this context's ``stderr``.
  package var fileSystem: FileSystemCalls {
    get {
      var calls = systemCalls
      let handover = WarningHandover(self)
      calls.warn = { warning in handover.context.warn(warning) }
      return calls
    }
    set {
      systemCalls = newValue
      // A context's own (from the getter) would hold the context.
      systemCalls.warn = FileSystemCalls.live.warn
    }
  }
  private var systemCalls = FileSystemCalls.live
  /// The arguments that are not UTF-8 text, as they stand in the command line that
  /// `check` and `verify` read (each journal of them fails in its place); none elsewhere.
  package var argumentsNotUTF8 = ArgumentsNotUTF8()

  package init(
    stdout: Output, stderr: Output, environment: [String: String], currentDirectory: String,
    clock: @escaping () -> UInt64
  ) {
    self.stdout = stdout
    self.stderr = stderr
    self.environment = environment
    self.currentDirectory = currentDirectory
    self.clock = clock
  }

  /// The context of the running process: file descriptors 1 and 2, its environment and
  /// working directory, the system's monotonic clock.
  package static func standard() -> Context {
    let environment = ProcessCalls.environment()
    func stream(_ descriptor: Int32) -> Output {
      let isTerminal = ProcessCalls.isTerminal(descriptor)
      let columns =
        isTerminal ? ProcessCalls.terminalColumns(descriptor) ?? columns(environment) : 80
      return Output(
        destination: .fileDescriptor(descriptor), isTerminal: isTerminal,
        style: Style(isTerminal: isTerminal, environment: environment), columns: columns,
        unbuffered: descriptor == 2)
    }
    return Context(
      stdout: stream(1), stderr: stream(2), environment: environment,
      currentDirectory: ProcessCalls.currentDirectory(), clock: MonotonicClock.now)
  }

  /// A context whose streams keep what is written, for running commands in tests.
  /// - Parameters:
  ///   - environment: The environment the commands see (`NO_COLOR`, say).
  ///   - stdoutIsTerminal: Whether standard output behaves as a terminal.
  ///   - stderrIsTerminal: Whether standard error behaves as a terminal (progress bars).
  ///   - columns: The terminal width the streams report.
  ///   - currentDirectory: The directory relative paths are read from.
  ///   - clock: Nanoseconds of a monotonic clock; the system's when `nil`.
  package static func capture(
    environment: [String: String] = [:], stdoutIsTerminal: Bool = false,
    stderrIsTerminal: Bool = false, columns: Int = 80, currentDirectory: String = "/",
    clock: (() -> UInt64)? = nil
  ) -> Context {
    Context(
      stdout: .capture(isTerminal: stdoutIsTerminal, environment: environment, columns: columns),
      stderr: .capture(isTerminal: stderrIsTerminal, environment: environment, columns: columns),
      environment: environment, currentDirectory: currentDirectory,
      clock: clock ?? MonotonicClock.now)
  }

  /// Says `warning` on standard error: `warning:` (in yellow on a colour terminal) and
  /// its description, escaped as error messages are.
  func warn(_ warning: JournalError) {
    stderr.print("\(stderr.style.yellow("warning:")) \(escaped(warning.description))")
  }

  /// A progress bar for long work, drawn on standard error when it is a terminal.
  /// - Parameter label: What is being done (`Replaying`).
  package func progress(_ label: String) -> ProgressBar {
    ProgressBar(label: label, output: stderr, now: clock)
  }

  /// Runs `work` with a progress bar labelled `label`, erased when `work` returns or
  /// throws.
  func withProgress<Result, Failure: Error>(
    _ label: String, _ work: (ProgressBar) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    let bar = progress(label)
    defer { bar.finish() }
    return try work(bar)
  }

  /// The options of a journal a command writes in one go (`record`, `generate`,
  /// `import`): flushed only when closed, since it appears at its path only then, and
  /// written through this context's file system.
  func batchRecordingOptions(snapshotInterval: UInt32, compressionLevel: Int32 = 3)
    -> RecordingOptions
  {
    var options = RecordingOptions(
      snapshotInterval: snapshotInterval,
      journal: JournalWriterOptions(compressionLevel: compressionLevel, durability: .flushOnly))
    options.journal.system = fileSystem
    return options
  }

  /// The terminal session of a full-screen command (`live`, `play`), on standard input
  /// and output: refused, saying why, where they are no terminal (a pipe, a file) or one
  /// that cannot draw a screen (`TERM=dumb`).
  /// - Throws: ``CommandError`` `` `rewind COMMAND` needs a terminal…``, or the system's.
  func terminalSession(for command: String) throws -> TerminalSession {
    let needs = "`rewind \(command)` needs a terminal"
    guard stdout.isTerminal else {
      throw CommandError("\(needs): standard output is not a terminal")
    }
    do throws(TerminalError) {
      return try TerminalSession(environment: environment)
    } catch {
      let message =
        switch error.code {
        case .notATerminal: "\(needs): \(error.message)"
        case .cannotDrawScreen: "\(needs) that can draw a screen: \(error.message)"
        case .systemCall: error.message
        }
      throw CommandError(message)
    }
  }

  /// `path` made absolute against ``currentDirectory``; absolute paths are unchanged.
  package func absolutePath(_ path: String) -> String {
    if path.hasPrefix("/") { return path }
    if currentDirectory.hasSuffix("/") { return currentDirectory + path }
    return currentDirectory + "/" + path
  }

  /// The file at `path` as a journal's header names another (its parent): absolute, its
  /// `.`, `..` and symbolic links resolved (`realpath`) when it exists, else
  /// ``absolutePath(_:)``'s; a session on a server as its URL, without its user and
  /// password (a journal's header is shared: it never holds a password).
  package func resolvedPath(_ path: String) -> String {
    if StreamStore.looksLikeSessionURL(path) { return StreamStore.displayName(path) }
    let absolute = absolutePath(path)
    guard let resolved = realpath(absolute, nil) else { return absolute }
    defer { free(resolved) }
    return String(cString: resolved)
  }
}

/// `COLUMNS` from the environment when it is a positive number, else 80.
private func columns(_ environment: [String: String]) -> Int {
  environment["COLUMNS"].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil } ?? 80
}

/// The context a writer's warning goes to, from the writer's ``FileSystemCalls/warn``: a
/// command's writers run on the thread that uses its context (each item of
/// ``Context/inOrder(_:workers:label:_:)`` has a context of its own).
private struct WarningHandover: @unchecked Sendable {
  let context: Context
  init(_ context: Context) { self.context = context }
}
