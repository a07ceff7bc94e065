import RewindCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a child process did: its exit status, what it printed (when captured), how long it
/// ran from spawn to exit, and its peak resident memory.
struct ChildResult {
  var status: Int32
  var output: String
  var seconds: Double
  /// `ru_maxrss` from `wait4`: the child's peak resident set, in KiB.
  var maxResidentKiB: Int
}

/// Runs programs with `posix_spawn` and waits for them with `wait4`, timing the wall clock
/// from just before the spawn to just after the exit (process start included).
enum ChildProcess {
  /// Runs `arguments[0]` (a path) with the rest as its arguments.
  /// - Parameters:
  ///   - capture: read the child's standard output; otherwise it goes to `output`.
  ///     Standard error is inherited.
  ///   - output: the file the child's standard output is written to when it is not
  ///     captured (made or truncated through the spawn's file actions, as a shell's `>`
  ///     would).
  ///   - errors: the file the child's standard error is written to (made or truncated, as
  ///     a shell's `2>` would); nil to inherit this program's.
  static func run(
    _ arguments: [String], capture: Bool = false, output outputPath: String = "/dev/null",
    errors errorsPath: String? = nil
  ) throws(BenchError) -> ChildResult {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    var pipeEnds: [Int32] = [-1, -1]
    if capture {
      guard pipe(&pipeEnds) == 0 else { throw BenchError("pipe failed: \(errnoText())") }
      // Close-on-exec (Glibc's module has no `pipe2`; the runner starts one program at a
      // time, so none is started between the two calls): no other program inherits the
      // pipe and keeps its reading end waiting. The child's end is its standard output,
      // which `dup2` opens without the flag.
      for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
      posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
      posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
      posix_spawn_file_actions_addclose(&actions, pipeEnds[1])
    } else {
      // /dev/null is opened as it is, never made (it can vanish for a moment on a machine).
      let flags = outputPath == "/dev/null" ? O_WRONLY : O_WRONLY | O_CREAT | O_TRUNC
      posix_spawn_file_actions_addopen(&actions, 1, outputPath, flags, 0o644)
    }
    if let errorsPath {
      posix_spawn_file_actions_addopen(&actions, 2, errorsPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    }
    let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid: pid_t = 0
    let start = MonotonicClock.now()
    let code = posix_spawn(&pid, arguments[0], &actions, nil, argv, environ)
    guard code == 0 else {
      if capture {
        close(pipeEnds[0])
        close(pipeEnds[1])
      }
      throw BenchError("cannot run \(arguments[0]): \(String(cString: strerror(code)))")
    }
    var output: [UInt8] = []
    if capture {
      close(pipeEnds[1])
      var chunk = [UInt8](repeating: 0, count: 4096)
      while true {
        let count = chunk.withUnsafeMutableBytes { read(pipeEnds[0], $0.baseAddress, $0.count) }
        if count > 0 {
          output.append(contentsOf: chunk[..<count])
        } else if count == 0 || errno != EINTR {
          break
        }
      }
      close(pipeEnds[0])
    }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 {
      guard errno == EINTR else { throw BenchError("wait4 failed: \(errnoText())") }
    }
    let end = MonotonicClock.now()
    let exitStatus = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    return ChildResult(
      status: exitStatus, output: String(decoding: output, as: UTF8.self),
      seconds: Double(end - start) / 1e9, maxResidentKiB: Int(usage.ru_maxrss))
  }

  /// The path of `program` as the shell finds it: itself when it holds a `/`, else the
  /// first executable file of that name in `PATH`; nil when there is none.
  static func path(of program: String) -> String? {
    guard !program.contains("/") else { return program }
    let directories = (getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin")
      .split(separator: ":", omittingEmptySubsequences: false)
    for directory in directories {
      let candidate = (directory.isEmpty ? "." : String(directory)) + "/" + program
      var status = stat()
      if stat(candidate, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
        access(candidate, X_OK) == 0
      {
        return candidate
      }
    }
    return nil
  }

  /// Runs a shell command line with `/bin/sh -c`, capturing its output.
  static func shell(_ command: String) throws(BenchError) -> ChildResult {
    try run(["/bin/sh", "-c", command], capture: true)
  }

  /// This program's own executable (`/proc/self/exe`).
  static var selfPath: String {
    var buffer = [CChar](repeating: 0, count: 4096)
    let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard count > 0 else { return CommandLine.arguments[0] }
    return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}

func errnoText() -> String { String(cString: strerror(errno)) }
