import RewindArguments

#if canImport(Glibc)
  internal import Glibc
#elseif canImport(Darwin)
  internal import Darwin
#endif

/// Reads a text file line by line, streaming (for JSON Lines of any size).
final class LineReader {
  private let file: UnsafeMutablePointer<FILE>
  let path: String
  private var buffer: UnsafeMutablePointer<CChar>?
  private var capacity = 0

  init(path: String) throws {
    guard let file = fopen(path, "rb") else {
      throw CommandError("\(path): cannot open (\(String(cString: strerror(errno))))")
    }
    self.file = file
    self.path = path
  }

  deinit {
    free(buffer)
    fclose(file)
  }

  /// The next line without its newline, or nil at the end.
  func next() throws -> String? {
    let length = getline(&buffer, &capacity, file)
    guard length >= 0, let buffer else {
      try check()
      return nil
    }
    var count = length
    if count > 0 && buffer[count - 1] == 0x0A { count -= 1 }
    return buffer.withMemoryRebound(to: UInt8.self, capacity: count) {
      String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self)
    }
  }

  /// Throws if reading failed (as opposed to ending).
  func check() throws {
    if ferror(file) != 0 {
      throw CommandError("\(path): read error (\(String(cString: strerror(errno))))")
    }
  }
}

/// Where exported lines go: standard output or a file.
final class LineSink {
  private let output: Output?
  private let file: UnsafeMutablePointer<FILE>?
  private let path: String?

  init(output: Output) {
    self.output = output
    file = nil
    path = nil
  }

  init(file path: String) throws {
    guard let file = fopen(path, "wb") else {
      throw CommandError("\(path): cannot create (\(String(cString: strerror(errno))))")
    }
    self.file = file
    self.path = path
    output = nil
  }

  deinit { if let file { fclose(file) } }

  func write(_ line: String) {
    if let output {
      output.print(line)
    } else if let file {
      fputs(line, file)
      fputc(0x0A, file)
    }
  }

  func close() throws {
    guard let file, let path else { return }
    if fflush(file) != 0 || ferror(file) != 0 {
      throw CommandError("\(path): write error (\(String(cString: strerror(errno))))")
    }
  }
}
