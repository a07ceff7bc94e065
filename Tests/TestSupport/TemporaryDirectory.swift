import Foundation

/// A fresh directory under the system's temporary directory, removed when released.
public final class TemporaryDirectory: Sendable {
  public let path: String

  public init() {
    path = NSTemporaryDirectory() + "rewind-tests-" + UUID().uuidString
    try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(atPath: path) }

  /// The path of `name` inside the directory.
  public func file(_ name: String) -> String { path + "/" + name }
}

/// A copy of a file's bytes (empty if it cannot be read).
public func bytes(of path: String) -> [UInt8] {
  [UInt8](FileManager.default.contents(atPath: path) ?? Data())
}

/// Writes bytes to a file, replacing it: the way tests write their fixtures.
///
/// Plain `open`/`write`, in place: a fixture needs no atomic write. Foundation's atomic
/// writes (`createFile(atPath:…)`, `write(toFile:atomically:)`) go through a temporary file
/// or folder and were blamed for the empty `TemporaryDirectory.*` folders in the system's
/// temporary directory on Linux; with Swift 6.3.1 they leave none, and the folders come from
/// SwiftPM itself: 5 for each `swift test`, 7 for each `swift build` that has nothing to do.
public func write(_ bytes: [UInt8], to path: String) {
  let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
  precondition(descriptor >= 0, "cannot create \(path): errno \(errno)")
  defer { close(descriptor) }
  var written = 0
  while written < bytes.count {
    let count = bytes.withUnsafeBytes {
      Foundation.write(descriptor, $0.baseAddress! + written, bytes.count - written)
    }
    if count < 0 && errno == EINTR { continue }
    precondition(count > 0, "cannot write \(path): errno \(errno)")
    written += count
  }
}

/// Writes text to a file as UTF-8, replacing it.
public func write(_ text: String, to path: String) {
  write(Array(text.utf8), to: path)
}

extension String {
  /// Writes the string as UTF-8 to `path`, replacing the file, through ``write(_:to:)``
  /// (not Foundation's atomic write, which leaves folders behind on Linux).
  public func writeFixture(to path: String) {
    TestSupport.write(self, to: path)
  }
}
