#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The process's standard output and standard error as a ``CommandContext``, without
/// styling: for a tool whose commands print with `print`.
///
/// Text goes out at once with `write` on file descriptors 1 and 2, after `fflush`
/// has sent what the C streams (and so `print`) hold, so the two kinds of output keep
/// their order.
public struct StandardStreams: CommandContext, Sendable {
  /// The process's streams.
  public init() {}

  public func writeOutput(_ text: String) {
    Self.send(text, to: 1)
  }

  public func writeError(_ text: String) {
    Self.send(text, to: 2)
  }

  public var errorLabel: String { "Error:" }

  public func finish() {
    fflush(nil)
  }

  /// Writes all of `text` to `descriptor` (`write`, retried after `EINTR` and short
  /// writes); a stream that refuses it (a closed pipe) is given up on.
  private static func send(_ text: String, to descriptor: Int32) {
    fflush(nil)
    var text = text
    text.withUTF8 { bytes in
      guard var address = bytes.baseAddress else { return }
      var remaining = bytes.count
      while remaining > 0 {
        let written = write(descriptor, address, remaining)
        if written < 0 {
          if errno == EINTR { continue }
          return
        }
        address += written
        remaining -= written
      }
    }
  }
}
