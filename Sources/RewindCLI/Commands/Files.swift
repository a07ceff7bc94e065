#if canImport(Glibc)
  internal import Glibc
#elseif canImport(Darwin)
  internal import Darwin
#endif

/// Whether a file exists at `path`.
func fileExists(_ path: String) -> Bool {
  access(path, F_OK) == 0
}

/// The contents of a text file, or nil if it cannot be read.
func readTextFile(_ path: String) -> String? {
  guard let file = fopen(path, "rb") else { return nil }
  defer { fclose(file) }
  var bytes: [UInt8] = []
  var buffer = [UInt8](repeating: 0, count: 65_536)
  while true {
    let count = fread(&buffer, 1, buffer.count, file)
    if count > 0 { bytes.append(contentsOf: buffer[..<count]) }
    if count < buffer.count { break }
  }
  guard ferror(file) == 0 else { return nil }
  return String(decoding: bytes, as: UTF8.self)
}

/// Why the file at `path` cannot be read: `it is a directory`, `no such file`, or the
/// system's words (`Permission denied`).
func unreadableReason(_ path: String) -> String {
  var info = stat()
  guard stat(path, &info) == 0 else {
    return errno == ENOENT ? "no such file" : String(cString: strerror(errno))
  }
  if info.st_mode & S_IFMT == S_IFDIR { return "it is a directory" }
  guard access(path, R_OK) == 0 else { return String(cString: strerror(errno)) }
  return "a read error"
}

/// Removes a file, ignoring a missing one.
func removeFile(_ path: String) {
  unlink(path)
}

/// The process id, for naming temporary files.
var processID: Int32 { getpid() }
