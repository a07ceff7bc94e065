import Foundation
import TestSupport
import Testing

/// FORMAT.md must describe exactly what the code writes: an independent reader written
/// from the documents alone (Tools/format-check/read_journal.py) must read every journal
/// the way `rewind export` does.
@Suite(
  "An independent reader written from FORMAT.md agrees with rewind",
  .enabled(
    if: executable(named: "python3") != nil && executable(named: "zstd") != nil,
    "python3 and zstd are needed (Tools/test installs zstd)"))
struct FormatCheckTests {
  @Test("the sample journals and a generated one read the same")
  func agree() throws {
    let directory = TemporaryDirectory()
    let generated = directory.file("generated.journal")
    _ = try rewind(
      "generate", "-o", generated, "--events", "20000", "--seed", "21", "--snapshot-interval", "500"
    )
    // Damaged headers, read from the copy after them, and from the index's copy when that
    // copy is damaged too.
    let pristine = bytes(of: generated)
    let copyOffset = 8 + Int(pristine[4]) | Int(pristine[5]) << 8 | Int(pristine[6]) << 16
    var damaged = pristine
    damaged[30] ^= 0x01
    let headerDamaged = directory.file("header-damaged.journal")
    write(damaged, to: headerDamaged)
    damaged[copyOffset + 30] ^= 0x01
    let bothDamaged = directory.file("header-and-copy-damaged.journal")
    write(damaged, to: bothDamaged)
    // The scenario journals, those of schema 1 (read upcast) and of format 1.0, and a
    // generated one of two frames and 40 snapshots (the pure-Python reader is slow on the
    // 200,000-event samples).
    func journals(in directory: String) throws -> [String] {
      try FileManager.default.contentsOfDirectory(atPath: repositoryRoot + "/Journals" + directory)
        .filter { $0.hasSuffix(".journal") && !$0.hasPrefix("generated") }.sorted()
        .map { repositoryRoot + "/Journals" + directory + "/" + $0 }
    }
    let journals =
      try journals(in: "") + journals(in: "/schema1") + journals(in: "/format-1.0")
      + [generated, headerDamaged, bothDamaged]
    let result = try run(
      "/bin/bash",
      [repositoryRoot + "/Tools/format-check/check.sh", "--states", "5"] + journals,
      environment: [
        "REWIND": rewindBinary,
        "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
      ])
    #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
  }
}
