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

/// Removes a file, ignoring a missing one.
func removeFile(_ path: String) {
  unlink(path)
}

/// The process id, for naming temporary files.
var processID: Int32 { getpid() }

/// Why a file cannot be read: `no such file`, `is a directory`, `permission denied`…
struct FileReadError: Error, Equatable, CustomStringConvertible {
  var reason: String
  var description: String { reason }
}

/// The contents of a text file, or why it cannot be read.
///
/// Calls `open`, `fstat` and `read`; a directory is refused by its type, before reading.
/// - Throws: ``FileReadError`` saying why, in words (from `strerror` for the rarer
///   errors).
func readText(at path: String) throws(FileReadError) -> String {
  let descriptor = open(path, O_RDONLY | O_CLOEXEC)
  guard descriptor >= 0 else { throw FileReadError(errno: errno) }
  defer { close(descriptor) }
  var status = stat()
  guard fstat(descriptor, &status) == 0 else { throw FileReadError(errno: errno) }
  guard status.st_mode & S_IFMT != S_IFDIR else { throw FileReadError(errno: EISDIR) }
  var bytes: [UInt8] = []
  var buffer = [UInt8](repeating: 0, count: 65_536)
  while true {
    let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
    if count < 0 {
      if errno == EINTR { continue }
      throw FileReadError(errno: errno)
    }
    if count == 0 { break }
    bytes.append(contentsOf: buffer[..<count])
  }
  return String(decoding: bytes, as: UTF8.self)
}

extension FileReadError {
  init(errno code: Int32) {
    switch code {
    case ENOENT: reason = "no such file"
    case EISDIR: reason = "is a directory"
    case EACCES: reason = "permission denied"
    case ENOTDIR: reason = "a part of the path is not a directory"
    default: reason = String(cString: strerror(code)).lowercased()
    }
  }
}
