import RewindArguments
import RewindCore
import RewindJournal

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Whether a file exists at `path`.
func fileExists(_ path: String) -> Bool {
  access(path, F_OK) == 0
}

/// Where a symbolic link leads, for a command that writes or repairs the file a link
/// names (`check --update`, `recover`) and keeps the link.
enum SymbolicLinkTarget: Equatable {
  /// The path is no symbolic link.
  case notALink
  /// The file the link leads to (through every link on the way): one that is there, or
  /// where the last link leads when that is not there yet (a fixture not written yet),
  /// its directory made absolute.
  case file(String)
  /// The link cannot be followed to a file that can be written: where it leads, and why.
  case unfollowable(String)
}

/// Where the symbolic link at `path` leads (see ``SymbolicLinkTarget``).
///
/// The path is walked a name at a time, as the system walks it, and each link met on the
/// way (the link itself, the links it leads through, a directory on the way that is one)
/// is followed only where the system's `protected_symlinks` would follow it: not in a
/// sticky directory that others can write (`/tmp`) when another user made it, unless
/// that user owns the directory. The command opens the path it finds, not the link, so
/// the system's own rule would not apply: another user's link planted there would have
/// the command write (or make) any file its user can.
func symbolicLinkTarget(of path: String, system: FileSystemCalls) -> SymbolicLinkTarget {
  var status = stat()
  guard system.lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFLNK else {
    return .notALink
  }
  // The directory resolved so far (no link in it), and the names left to walk.
  var resolved: String
  if path.hasPrefix("/") {
    resolved = ""
  } else {
    guard let working = realpath(".", nil) else {
      return .unfollowable("a path from a working directory that cannot be read")
    }
    resolved = String(cString: working)
    free(working)
    if resolved == "/" { resolved = "" }
  }
  var names = path.split(separator: "/").map(String.init)
  var links = 0
  while !names.isEmpty {
    let name = names.removeFirst()
    if name == "." { continue }
    if name == ".." {
      resolved = resolved.lastIndex(of: "/").map { String(resolved[..<$0]) } ?? ""
      continue
    }
    let next = resolved + "/" + name
    guard system.lstat(next, &status) == 0 else {
      guard errno == ENOENT else {
        return .unfollowable(
          "\(next), which cannot be reached (\(String(cString: strerror(errno))))")
      }
      // Not there, last: the file to write, in a directory that is.
      guard names.isEmpty else {
        return .unfollowable(
          ([next] + names).joined(separator: "/") + ", whose directory is not there")
      }
      return .file(next)
    }
    guard status.st_mode & S_IFMT == S_IFLNK else {
      resolved = next
      continue
    }
    links += 1
    guard links <= 40 else { return .unfollowable("itself, through more than 40 links") }
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = readlink(next, &buffer, buffer.count - 1)
    guard count > 0 else {
      return .unfollowable("a path that cannot be read (\(String(cString: strerror(errno))))")
    }
    // A path that is no UTF-8 text would be written under another name.
    guard
      let text = String(validating: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    else {
      return .unfollowable("a path that is not UTF-8 text")
    }
    let target = text.hasPrefix("/") ? text : resolved + "/" + text
    if let refusal = planted(
      owner: status.st_uid, in: resolved.isEmpty ? "/" : resolved, system: system)
    {
      return .unfollowable("\(target), \(refusal)")
    }
    if text.hasPrefix("/") { resolved = "" }
    names = text.split(separator: "/").map(String.init) + names
  }
  guard !resolved.isEmpty else { return .unfollowable("\(path), a directory's path") }
  // A link that leads to a directory names no file to write.
  if system.stat(resolved, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
    return .unfollowable("\(resolved), a directory")
  }
  return .file(resolved)
}

/// Why a symbolic link that the user `owner` made in `directory` is not followed, said
/// after where it leads; nil when it is: it is not followed in a sticky directory that
/// others can write, unless this process's user or the directory's owner made it (the
/// system's `protected_symlinks` rule).
private func planted(owner: uid_t, in directory: String, system: FileSystemCalls) -> String? {
  var folder = stat()
  guard system.stat(directory, &folder) == 0 else { return nil }
  let shared = folder.st_mode & S_ISVTX != 0 && folder.st_mode & S_IWOTH != 0
  guard shared, owner != geteuid(), owner != folder.st_uid else { return nil }
  return
    "as another user (uid \(owner)) made it in \(directory), a sticky directory that others can write, where a link is followed only when this user or the directory's owner made it (as the system follows links there: protected_symlinks)"
}

/// Why files cannot be made in `directory` (`access` for writing and searching it), as
/// the system says it; nil when they can.
func writingProblem(in directory: String) -> String? {
  access(directory, W_OK | X_OK) == 0 ? nil : String(cString: strerror(errno))
}

/// The first bytes of the regular file at `path`, up to `count` (fewer when it is
/// shorter); nil for anything else: a file that cannot be opened, a named pipe (opened
/// without waiting for a writer), a device, or a file of /proc, whose size says 0.
func regularFileStart(_ path: String, count: Int) -> [UInt8]? {
  let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
  guard descriptor >= 0 else { return nil }
  defer { close(descriptor) }
  var status = stat()
  guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_size > 0
  else { return nil }
  var bytes = [UInt8](repeating: 0, count: count)
  let length = read(descriptor, &bytes, count)
  return length > 0 ? Array(bytes[..<length]) : nil
}

/// Whether the file at `path` starts as a journal does: a zstd skippable frame whose
/// payload starts with the journal header's tag, `RWJH` (FORMAT.md): what a command that
/// reads text was given by mistake.
func startsAsJournal(_ path: String) -> Bool {
  guard let bytes = regularFileStart(path, count: 12), bytes.count == 12 else { return false }
  // A skippable frame's magic, 0x184D2A50 to 0x184D2A5F, little-endian.
  return bytes[0] & 0xF0 == 0x50 && bytes[1...3] == [0x2A, 0x4D, 0x18]
    && bytes[8...11] == Array("RWJH".utf8)[...]
}

/// `error`, for a file that is no journal (`notAJournal`), with what the file reads as and
/// the command that reads it: a Git LFS pointer (the journal not fetched: `git lfs pull`),
/// JSON Lines (`import`), JSON (an expected state), other text (a scenario script:
/// `record`). Any other error as it is.
func namingWhatItIs(_ error: JournalError) -> JournalError {
  guard error.code == .notAJournal, let path = error.path,
    let bytes = regularFileStart(path, count: 4096), !bytes.contains(0)
  else { return error }
  let count = bytes.count
  // UTF-8 text, but for a character the read may have cut at its end.
  let isText = (0...min(3, count - 1)).contains { cut in
    String(validating: bytes[..<(count - cut)], as: UTF8.self) != nil
  }
  guard isText else { return error }
  // Less a byte-order mark.
  let start = bytes[..<count].starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
  let text = String(decoding: bytes[start..<count], as: UTF8.self)
  var described = error
  if let pointer = lfsPointerHint(text, for: "journal") {
    described.message += pointer
    return described
  }
  described.message +=
    jsonHint(text, path: path)
    ?? "; it is text (if it is a scenario script, `rewind record \(Format.shellPath(path)) -o \(journal(beside: path, "-recorded"))` records it)"
  return described
}

/// `; it is a Git LFS pointer, not the journal: …` when `text`, a file's text (or its
/// first line that is not blank) read as a `file` (`journal`, `script`), is a Git LFS
/// pointer: what a checkout without Git LFS leaves in the file's place (a CI job that did
/// not fetch it), its first line the spec's. Nil for other text.
func lfsPointerHint(_ text: some StringProtocol, for file: String) -> String? {
  guard text.hasPrefix("version https://git-lfs.github.com/spec/") else { return nil }
  return
    "; it is a Git LFS pointer, not the \(file): the \(file) it points to was not fetched (`git lfs pull` fetches it)"
}

/// What `text`, read from the file at `path` as something else, reads as when it is JSON
/// Lines or JSON, and the command that takes it: `; it reads as JSON Lines, as `rewind
/// export` writes: …`; nil for other text.
func jsonHint(_ text: String, path: String) -> String? {
  // The first line that is not blank, less blanks.
  let first =
    text.split(separator: "\n").lazy.map { $0.filter { !$0.isWhitespace } }.first {
      !$0.isEmpty
    } ?? ""
  // JSON Lines: the header line `rewind export` writes, or an event's (`import` takes
  // lines without a header too).
  let isLines =
    first.hasPrefix("{\"header\":") || first.hasPrefix("{\"seq\":")
    || (first.hasPrefix("{") && first.contains("\"time_us\":") && first.contains("\"event\":"))
  if isLines {
    // Standard input (`-`) is given again as such, to a journal named for a session.
    let (source, target) =
      path == "-"
      ? ("-", "session.journal") : (Format.shellPath(path), journal(beside: path, "-imported"))
    return
      "; it reads as JSON Lines, as `rewind export` writes: `rewind import \(source) -o \(target)` makes a journal of it"
  }
  if first.hasPrefix("{") || first.hasPrefix("[") {
    return
      "; it reads as JSON (an expected state, as `rewind state --json` prints it, is given to check with --expect)"
  }
  return nil
}

/// The journal to write from the file at `path`, for a command suggested: beside it, named
/// as it is with `.journal` for its last extension; with `suffix` after the name when a
/// file is there already (the file itself, say). Quoted for a shell.
private func journal(beside path: String, _ suffix: String) -> String {
  let base = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
  let stem = path[base...].dropFirst().lastIndex(of: ".").map { String(path[..<$0]) } ?? path
  return Format.shellPath(stem + (fileExists(stem + ".journal") ? suffix : "") + ".journal")
}

/// The file a command writes: `path`, replaced only with `--force`, and never one of the
/// command's `inputs` (by device and inode, so not through a link either).
///
/// Checked at once, so that a command refuses before it does its work. A path that can
/// never be the file written is a usage error (exit 64) that names the argument: one of
/// the inputs (both named), an empty path, `-`, a directory, a device, pipe or socket
/// (`/dev/null`), or a name of a process's open file (`/dev/stdout`, `/proc/self/fd/1`).
/// What the file system holds there for now is a failure (exit 1), as a file missing is:
/// an existing file without `--force` (naming the option), a directory that is not
/// there. The writers check it again when they create the file (``AtomicFileWriter``), so
/// a file that appears meanwhile is safe too.
///
/// With `existingLater`, a file already there is not refused here: the command checks it
/// with ``requireAvailable(_:)`` once its other arguments are checked against the journal
/// (a range, a point), so that a wrong one is said before `--force` is asked for.
///
/// A symbolic link of this user's (or root's) stays: the file written is the one it leads
/// to (``symbolicLinkTarget``, which also refuses a link on the way that another user
/// planted in a sticky directory), as a shell's `>` writes it and `check --update` writes
/// an expected state kept elsewhere; a file not there yet only with `--force`.
///
/// - Parameter argument: How the command line gave the path (`-o`), named by a usage
///   error; nil for a path the command chose itself (`html`'s default page).
func outputDestination(
  _ path: String, force: Bool, inputs: [String], existingLater: Bool = false,
  argument: String? = "-o"
) throws -> FileDestination {
  // An empty path names no file: the writer failed only at its last step, the rename.
  guard !path.isEmpty else {
    throw UsageError("the output path (-o) is empty; give the path of a file to write")
  }
  // `-o -` means standard output to most tools; written as a file named `-`, the output
  // would land where nobody looks for it.
  guard path != "-" else {
    throw UsageError(
      "-o - is not standard output here; give the path of a file to write (./- for a file named -)"
    )
  }
  let given = FileDestination(path, replacingExisting: force, inputs: inputs)
  // What can never be written, named as given (a link to an input, or to standard output).
  do throws(JournalError) {
    try given.check()
  } catch {
    switch error.code {
    case .outputIsInput, .invalidArgument:
      throw UsageError((argument.map { $0 + " " } ?? "") + error.description)
    case .alreadyExists: break  // Checked below, of the file written.
    default: throw error
    }
  }
  var destination = given
  switch symbolicLinkTarget(of: path, system: .live) {
  case .notALink: break
  case .file(let target):
    // Only a link of this user's (or root's) is followed: another user's, in a folder
    // others can write, would have the command write where that user chose.
    var link = stat()
    if lstat(path, &link) == 0, link.st_uid != geteuid(), link.st_uid != 0 {
      throw CommandError(
        "\(path) is a symbolic link another user (uid \(link.st_uid)) made, which -o does not follow (it writes the file a link of this user's leads to): nothing was written"
      )
    }
    destination = FileDestination(target, replacingExisting: force, inputs: inputs)
    // Nothing new appears through a link without --force, as a shell's noclobber has it.
    if !force, !fileExists(target) {
      throw CommandError(
        "\(path) is a symbolic link to \(target), which is not there; pass --force to write it there"
      )
    }
  case .unfollowable(let place):
    throw CommandError(
      "\(path) is a symbolic link that leads to \(place): nothing was written (-o writes the file a link leads to, and keeps the link)"
    )
  }
  do throws(JournalError) {
    try destination.check()
  } catch {
    guard error.code == .alreadyExists else { throw error }
    if !existingLater { throw alreadyThere(destination, as: path) }
  }
  return destination
}

/// Refuses `destination` when a file is there and `--force` was not given (see
/// ``outputDestination(_:force:inputs:existingLater:)``).
func requireAvailable(_ destination: FileDestination) throws {
  do throws(JournalError) {
    try destination.check()
  } catch {
    guard error.code == .alreadyExists else { throw error }
    throw alreadyThere(destination)
  }
}

/// The error of a file already at `destination`, which `--force` would replace; named
/// as `given`, a link to it, too.
private func alreadyThere(_ destination: FileDestination, as given: String? = nil) -> CommandError {
  let name =
    given.map { $0 == destination.path ? $0 : "\($0) (a link to \(destination.path))" }
    ?? destination.path
  return CommandError("\(name): the file exists; pass --force to replace it")
}

/// The file a command whose `-o` is optional writes (see
/// ``outputDestination(_:force:inputs:)``), or nil for standard output, where `--force`
/// replaces nothing: given without `-o`, it is a usage error.
func outputDestination(
  _ path: String?, force: Bool, inputs: [String], existingLater: Bool = false,
  argument: String? = "-o"
) throws -> FileDestination? {
  guard let path else {
    if force { throw UsageError("--force applies to -o") }
    return nil
  }
  let destination: FileDestination = try outputDestination(
    path, force: force, inputs: inputs, existingLater: existingLater, argument: argument)
  return destination
}

/// The text a command reads from `argument`: standard input for `-` (a note on standard
/// error says how to end it when it is a terminal), else the file at that path, a named
/// pipe waited on (``waitingForWriter(_:_:)``). Errors name standard input
/// `standard input`.
///
/// `-` is standard input whatever the directory holds (`./-` names a file called `-`):
/// the text is read once, front to back, so a pipe reads as a file does. Commands whose
/// input must be a file (a journal, read at its end and its frames; an expected state,
/// which `check --update` writes) refuse `-` instead.
/// - Parameter what: What is read, for the note (`JSON Lines`, `the scenario script`).
func textInput(_ argument: String, what: String, context: Context) throws(TextFileError)
  -> TextFileReader
{
  guard argument == "-" else {
    return try TextFileReader(
      path: argument, system: context.fileSystem,
      waiting: { waitingForWriter(argument, context) })
  }
  if ProcessCalls.isTerminal(0) {
    context.stderr.print(
      "\(context.stderr.style.yellow("note:")) reading \(what) from standard input, a terminal: end it with Ctrl-D (Ctrl-C to stop)"
    )
  }
  return try TextFileReader(standardInputWith: context.fileSystem)
}

/// The path of the file `argument` reads, which an output may not be: standard input's
/// (`/dev/stdin`, the file or pipe it is) for `-`.
func inputFile(_ argument: String) -> String {
  argument == "-" ? "/dev/stdin" : argument
}

/// Says on standard error that the named pipe (FIFO) at `path`, the input a command
/// reads, has had nothing to read for a second: the command waits for a program to write
/// to it, which a user who gave a FIFO by mistake would otherwise take for a hang.
func waitingForWriter(_ path: String, _ context: Context) {
  context.stderr.print(
    "\(context.stderr.style.yellow("note:")) \(TerminalText.escaped(path)) is a named pipe (FIFO) and nothing was written to it yet; waiting for a program to write to it (Ctrl-C to stop)"
  )
}
