#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Wall-clock time and the machine's name, for the header of a recorded session. Event
/// times come from ``MonotonicClock`` instead, which never goes back.
package enum WallClock {
  /// Now, in microseconds since the Unix epoch (`clock_gettime(CLOCK_REALTIME)`).
  package static func now() -> Int64 {
    var spec = timespec()
    clock_gettime(CLOCK_REALTIME, &spec)
    return Int64(spec.tv_sec) * 1_000_000 + Int64(spec.tv_nsec) / 1_000
  }

  /// A description of this machine for journal headers: the system and its release.
  package static var device: String {
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
