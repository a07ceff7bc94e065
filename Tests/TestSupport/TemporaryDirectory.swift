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

/// Writes bytes to a file, replacing it.
public func write(_ bytes: [UInt8], to path: String) {
  precondition(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
}
