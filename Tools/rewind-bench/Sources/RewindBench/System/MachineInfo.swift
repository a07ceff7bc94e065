import CZstdStream

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension Machine {
  /// This machine, read from /proc, `uname` and the libraries linked.
  static func current() -> Machine {
    let cpuinfo = FileSystem.text("/proc/cpuinfo") ?? ""
    let model =
      cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
      .map { String($0.split(separator: ":", maxSplits: 1).last ?? "").trimmed } ?? "unknown"
    let meminfo = FileSystem.text("/proc/meminfo") ?? ""
    let totalKiB =
      meminfo.split(separator: "\n").first { $0.hasPrefix("MemTotal") }
      .flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
    var names = utsname()
    uname(&names)
    let swiftVersion =
      (try? ChildProcess.shell("swift --version 2>/dev/null | head -1").output.trimmed) ?? ""
    return Machine(
      cpu: model, cores: Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))),
      memory: "\(totalKiB / 1024 / 1024) GiB",
      kernel: "\(cString(names.sysname)) \(cString(names.release)) \(cString(names.machine))",
      swift: swiftVersion.isEmpty ? "unknown" : swiftVersion,
      zstd: "libzstd " + String(cString: ZSTD_versionString()),
      sqlite: "SQLite " + SQLiteDatabase.version, loadAtStart: loadAverage())
  }

  /// The 1, 5 and 15 minute load averages.
  static func loadAverage() -> String {
    (FileSystem.text("/proc/loadavg") ?? "").split(separator: " ").prefix(3).joined(separator: " ")
  }
}

private func cString<T>(_ field: T) -> String {
  withUnsafeBytes(of: field) { bytes in String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self) }
}

extension StringProtocol {
  var trimmed: String {
    String(
      drop { $0 == " " || $0 == "\t" || $0 == "\n" }.reversed().drop {
        $0 == " " || $0 == "\t" || $0 == "\n"
      }.reversed())
  }
}
