#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The system calls of the terminal layer, in one place: every C return value goes
/// through ``check(_:_:)``, which turns a failure into a ``TerminalError`` naming the
/// call, the stream and `errno`.
enum TerminalCalls {
  /// Whether the descriptor is a terminal (`isatty`).
  static func isTerminal(_ descriptor: Int32) -> Bool {
    isatty(descriptor) == 1
  }

  /// Whether this process's group is the terminal's foreground one (`tcgetpgrp`); true
  /// when the terminal does not say (one that went away fails the next call by itself).
  /// From the background, setting the terminal's settings stops the process (`SIGTTOU`).
  static func isForeground(_ descriptor: Int32) -> Bool {
    let group = tcgetpgrp(descriptor)
    return group < 0 || group == getpgrp()
  }

  /// The terminal's size (`ioctl(TIOCGWINSZ)`), or nil when it says none.
  static func size(_ descriptor: Int32) -> TerminalSize? {
    var size = winsize()
    #if canImport(Darwin)
      let status = ioctl(descriptor, TIOCGWINSZ, &size)
    #else
      let status = ioctl(descriptor, UInt(TIOCGWINSZ), &size)
    #endif
    guard status == 0, size.ws_col > 0, size.ws_row > 0 else { return nil }
    return TerminalSize(columns: Int(size.ws_col), rows: Int(size.ws_row))
  }

  /// The terminal's settings (`tcgetattr`, retried after `EINTR`).
  static func attributes(_ descriptor: Int32) throws(TerminalError) -> termios {
    var attributes = termios()
    try check(
      retryingInterrupted { tcgetattr(descriptor, &attributes) },
      "tcgetattr on \(name(descriptor))")
    return attributes
  }

  /// Sets the terminal's settings (`tcsetattr`), after the output already written has
  /// been sent (`TCSADRAIN`). Retried after `EINTR`: a program started in the background
  /// (`rewind live &`) is stopped by the call (`SIGTTOU`) until it is brought to the
  /// foreground (`fg`), where the call returns interrupted and the next one succeeds.
  static func setAttributes(_ attributes: termios, _ descriptor: Int32) throws(TerminalError) {
    var attributes = attributes
    try check(
      retryingInterrupted { tcsetattr(descriptor, TCSADRAIN, &attributes) },
      "tcsetattr on \(name(descriptor))")
  }

  /// `call`'s status, called again while it fails with `EINTR`.
  static func retryingInterrupted(_ call: () -> Int32) -> Int32 {
    while true {
      let status = call()
      if status != -1 || errno != EINTR { return status }
    }
  }

  /// `attributes` in raw mode, as `cfmakeraw` makes it: bytes arrive one by one as
  /// typed, unechoed, with no signal keys (Ctrl-C arrives as a byte), no flow control,
  /// no translation of carriage returns; output is not post-processed.
  static func raw(_ attributes: termios) -> termios {
    var raw = attributes
    raw.c_iflag &= ~tcflag_t(IGNBRK | BRKINT | PARMRK | ISTRIP | INLCR | IGNCR | ICRNL | IXON)
    raw.c_oflag &= ~tcflag_t(OPOST)
    raw.c_lflag &= ~tcflag_t(ECHO | ECHONL | ICANON | ISIG | IEXTEN)
    raw.c_cflag &= ~tcflag_t(CSIZE | PARENB)
    raw.c_cflag |= tcflag_t(CS8)
    withUnsafeMutableBytes(of: &raw.c_cc) { bytes in
      bytes[Int(VMIN)] = 1
      bytes[Int(VTIME)] = 0
    }
    return raw
  }

  /// Writes all the bytes (`write`, retried after `EINTR`, short writes, and `EAGAIN`
  /// on a non-blocking descriptor).
  static func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) throws(TerminalError) {
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBytes { buffer in
        write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
      }
      if written < 0 {
        let code = errno
        if code == EINTR { continue }
        if code == EAGAIN || code == EWOULDBLOCK {
          var entry = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
          _ = poll(&entry, 1, 100)
          continue
        }
        throw failure("write to \(name(descriptor))", code)
      }
      offset += written
    }
  }

  /// Reads what is available, at most `buffer.count` bytes (`read`).
  /// - Returns: The number of bytes read, 0 at the end of input, nil when interrupted
  ///   or nothing was there after all.
  static func read(_ descriptor: Int32, into buffer: inout [UInt8]) throws(TerminalError)
    -> Int?
  {
    let count = buffer.withUnsafeMutableBytes { bytes in
      systemRead(descriptor, bytes.baseAddress!, bytes.count)
    }
    if count < 0 {
      let code = errno
      if code == EINTR || code == EAGAIN || code == EWOULDBLOCK { return nil }
      // A terminal that went away reads as the end of input.
      if code == EIO { return 0 }
      throw failure("read from \(name(descriptor))", code)
    }
    return count
  }

  /// Waits for input on `descriptors` for at most `timeout` milliseconds (-1: no limit)
  /// (`poll`).
  /// - Returns: For each descriptor, whether it is readable or hung up; all false when
  ///   the wait timed out or a signal interrupted it.
  static func wait(for descriptors: [Int32], timeout: Int32) throws(TerminalError) -> [Bool] {
    var entries = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
    let status = poll(&entries, nfds_t(entries.count), timeout)
    if status < 0 {
      let code = errno
      if code == EINTR || code == EAGAIN { return descriptors.map { _ in false } }
      throw failure("poll", code)
    }
    return entries.map { $0.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 }
  }

  /// A pipe whose ends are non-blocking and closed on `exec` (`pipe`, `fcntl`).
  static func makePipe() throws(TerminalError) -> (read: Int32, write: Int32) {
    var ends: [Int32] = [-1, -1]
    try check(pipe(&ends), "pipe")
    for end in ends {
      _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
      _ = fcntl(end, F_SETFD, FD_CLOEXEC)
    }
    return (ends[0], ends[1])
  }

  static func closeDescriptor(_ descriptor: Int32) {
    _ = close(descriptor)
  }

  /// The name of a standard stream, for messages.
  static func name(_ descriptor: Int32) -> String {
    switch descriptor {
    case 0: "standard input"
    case 1: "standard output"
    case 2: "standard error"
    default: "descriptor \(descriptor)"
    }
  }

  /// Throws a ``TerminalError`` naming `what` when `status` is -1.
  static func check(_ status: Int32, _ what: @autoclosure () -> String) throws(TerminalError) {
    if status == -1 { throw failure(what(), errno) }
  }

  static func failure(_ what: String, _ code: Int32) -> TerminalError {
    TerminalError(
      .systemCall, "\(what): \(String(cString: strerror(code))) (errno \(code))", errno: code)
  }
}

/// `read(2)`, under a name that the static method `read` does not hide.
private func systemRead(
  _ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int
) -> Int {
  read(descriptor, buffer, count)
}
