#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The few file operations the runner needs, over the C library.
enum FileSystem {
  /// Removes a file; a missing file is fine.
  static func remove(_ path: String) throws(BenchError) {
    if unlink(path) != 0 && errno != ENOENT {
      throw BenchError("cannot remove \(path): \(String(cString: strerror(errno)))")
    }
  }

  /// The size of a file in bytes.
  static func size(_ path: String) throws(BenchError) -> Int {
    var info = stat()
    guard stat(path, &info) == 0 else {
      throw BenchError("cannot stat \(path): \(String(cString: strerror(errno)))")
    }
    return Int(info.st_size)
  }

  /// Creates a directory and its parents (`mkdir -p`).
  static func makeDirectory(_ path: String) throws(BenchError) {
    var prefix = path.hasPrefix("/") ? "" : "."
    for component in path.split(separator: "/") {
      prefix += "/" + component
      if mkdir(prefix, 0o755) != 0 && errno != EEXIST {
        throw BenchError("cannot create \(prefix): \(String(cString: strerror(errno)))")
      }
    }
  }

  static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

  /// The contents of a small text file, or nil if it cannot be read.
  static func text(_ path: String) -> String? {
    guard let file = fopen(path, "r") else { return nil }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
      if count == 0 { break }
      bytes.append(contentsOf: chunk[..<count])
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Removes a directory and everything in it (`rm -rf`).
  static func removeTree(_ path: String) {
    _ = try? ChildProcess.run(["/bin/rm", "-rf", path])
  }
}

/// A failure of the runner itself: a file it cannot write, a child that failed.
struct BenchError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

/// Writes text to standard error (file descriptor 2).
func writeError(_ text: String) {
  var text = text
  text.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
}
