import RewindStream

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The system calls the command line makes about its own process, in one place: whether
/// its streams are terminals and how wide, writing to them, its working directory, its
/// environment, its exit. Tests replace what they reach through ``Context`` (streams,
/// environment, clock), never these.
enum ProcessCalls {
  /// The processors online (`sysconf(_SC_NPROCESSORS_ONLN)`), at least 1.
  static func onlineCores() -> Int {
    max(sysconf(Int32(_SC_NPROCESSORS_ONLN)), 1)
  }

  /// Whether the file descriptor is a terminal (`isatty`).
  static func isTerminal(_ descriptor: Int32) -> Bool {
    isatty(descriptor) == 1
  }

  /// The width of the terminal behind the descriptor (`ioctl(TIOCGWINSZ)`), or `nil`.
  static func terminalColumns(_ descriptor: Int32) -> Int? {
    var size = winsize()
    #if canImport(Darwin)
      let status = ioctl(descriptor, TIOCGWINSZ, &size)
    #else
      let status = ioctl(descriptor, UInt(TIOCGWINSZ), &size)
    #endif
    guard status == 0, size.ws_col > 0 else { return nil }
    return Int(size.ws_col)
  }

  /// Writes all the bytes (`write`, retried after `EINTR` and short writes).
  /// - Returns: `nil` when all were written, else the `errno` with which the descriptor
  ///   refused them (`EPIPE` for a closed pipe, `ENOSPC` for a full disk).
  static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32? {
    guard var address = bytes.baseAddress else { return nil }
    var remaining = bytes.count
    while remaining > 0 {
      let written = write(descriptor, address, remaining)
      if written < 0 {
        if errno == EINTR { continue }
        return errno
      }
      address += written
      remaining -= written
    }
    return nil
  }

  /// The system's description of an `errno` (`strerror`).
  static func describe(errno number: Int32) -> String {
    String(cString: strerror(number))
  }

  /// The path of this process's program, links resolved (`/proc/self/exe`); nil where
  /// the system does not tell.
  static func executablePath() -> String? {
    var buffer = [UInt8](repeating: 0, count: 4096)
    let count = buffer.withUnsafeMutableBufferPointer { buffer in
      buffer.withMemoryRebound(to: CChar.self) {
        readlink("/proc/self/exe", $0.baseAddress!, $0.count)
      }
    }
    guard count > 0, count < buffer.count else { return nil }
    return String(decoding: buffer[..<count], as: UTF8.self)
  }

  /// Makes this process run the program at `path` (`execv`) with the process's own
  /// arguments after its name (their bytes as received), but those `replacing` gives (by
  /// their index after the name), its environment with `variable` set, and its working
  /// directory. Returns only when that failed, with the `errno` value (and `variable`
  /// unset).
  static func replaceProcess(
    with path: String, replacing words: [Int: String] = [:],
    setting variable: (name: String, value: String)? = nil
  ) -> Int32 {
    var copies = [strdup(path)]
    defer { for copy in copies { free(copy) } }
    var arguments: [UnsafeMutablePointer<CChar>?] = [copies[0]]
    for index in 1..<Int(CommandLine.argc) {
      if let word = words[index - 1] {
        copies.append(strdup(word))
        arguments.append(copies[copies.count - 1])
      } else {
        arguments.append(CommandLine.unsafeArgv[index])
      }
    }
    arguments.append(nil)
    if let variable { setenv(variable.name, variable.value, 1) }
    execv(path, arguments)
    let number = errno
    if let variable { unsetenv(variable.name) }
    return number
  }

  /// The value of the environment's variable `name` (`getenv`), which is then removed
  /// from the environment (`unsetenv`): nothing this process starts inherits it.
  static func takeVariable(_ name: String) -> String? {
    guard let value = getenv(name) else { return nil }
    let text = String(cString: value)
    unsetenv(name)
    return text
  }

  /// The process's arguments (after its name) that are not UTF-8, each with its index
  /// among them (0 for the first after the name) and its bytes, those outside printable
  /// ASCII written `\xHH`; empty when all are UTF-8.
  ///
  /// `CommandLine.arguments` repairs such an argument, each bad byte becoming U+FFFD: a
  /// path given in Latin-1 would name another file than the one meant.
  static func argumentsNotUTF8() -> [(index: Int, shown: String)] {
    var found: [(index: Int, shown: String)] = []
    for index in 1..<Int(CommandLine.argc) {
      guard let argument = CommandLine.unsafeArgv[index] else { continue }
      let bytes = UnsafeBufferPointer(
        start: UnsafeRawPointer(argument).assumingMemoryBound(to: UInt8.self),
        count: strlen(argument))
      guard String(validating: bytes, as: UTF8.self) == nil else { continue }
      let shown = bytes.map {
        (0x20..<0x7F).contains($0) ? String(UnicodeScalar($0)) : "\\x" + hex($0)
      }
      found.append((index - 1, shown.joined()))
    }
    return found
  }

  /// A byte as two uppercase hexadecimal digits.
  private static func hex(_ byte: UInt8) -> String {
    let digits = Array("0123456789ABCDEF")
    return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
  }

  /// The process's working directory (`getcwd`), or `/` if it cannot be read.
  static func currentDirectory() -> String {
    var buffer = [CChar](repeating: 0, count: 4096)
    return buffer.withUnsafeMutableBufferPointer { buffer in
      guard let start = buffer.baseAddress, getcwd(start, buffer.count) != nil else { return "/" }
      return String(cString: start)
    }
  }

  /// Ends the process with `status` (`exit`), once the NATS C client, if a command loaded
  /// it, has ended its threads (``StreamStore/closeClientLibrary(waitingAtMost:)``): left
  /// running, one could use OpenSSL while `exit` cleans it up, and a push that succeeded
  /// ended now and then in a segmentation fault (exit 139).
  static func exitProcess(_ status: Int32) -> Never {
    StreamStore.closeClientLibrary()
    exit(status)
  }

  /// The environment variables the tool reads: colours (`NO_COLOR`, `TERM`, `COLORTERM`),
  /// the terminal's width when the system does not say it (`COLUMNS`), and what a NATS
  /// connection takes where no option gives it (`NATS_CREDS`, `NATS_CA`, `NATS_PASSWORD`:
  /// `StreamServer.takingEnvironment(_:)`). A test checks that the sources read no other
  /// through this list; `rewind-nats` reads one more, the secrets `rewind` handed it
  /// (`NatsHelper.hiddenWordsVariable`, through `getenv`).
  static let variablesRead = [
    "NO_COLOR", "TERM", "COLORTERM", "COLUMNS", "NATS_CREDS", "NATS_CA", "NATS_PASSWORD",
  ]

  /// The process's environment, the variables the tool reads (``variablesRead``, by
  /// `getenv`): a dictionary of all of them took 221,000 instructions at every start with
  /// a shell's 35 variables, 10 % of a short command's.
  static func environment() -> [String: String] {
    var result: [String: String] = [:]
    for name in variablesRead {
      if let value = getenv(name) { result[name] = String(cString: value) }
    }
    return result
  }
}
