#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The clocks a recording needs: wall-clock time for the session's start and a
/// monotonic clock for event times.
public enum WallClock {
  /// Now, in microseconds since the Unix epoch.
  public static func now() -> Int64 {
    var spec = timespec()
    clock_gettime(CLOCK_REALTIME, &spec)
    return Int64(spec.tv_sec) * 1_000_000 + Int64(spec.tv_nsec) / 1_000
  }

  /// A clock that reads microseconds elapsed since it was made, never going backwards.
  public static func monotonic() -> @Sendable () -> UInt64 {
    let start = monotonicMicroseconds()
    return { monotonicMicroseconds() - start }
  }

  static func monotonicMicroseconds() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return UInt64(spec.tv_sec) * 1_000_000 + UInt64(spec.tv_nsec) / 1_000
  }

  /// A description of this machine for journal headers: the system and its release.
  public static var device: String {
    var names = utsname()
    guard uname(&names) == 0 else { return "unknown" }
    func text<T>(_ field: T) -> String {
      withUnsafeBytes(of: field) { bytes in
        String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
      }
    }
    return "\(text(names.sysname)) \(text(names.release)) \(text(names.machine))"
  }
}
