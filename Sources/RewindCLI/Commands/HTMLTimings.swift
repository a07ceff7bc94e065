import RewindCore
import RewindPage

/// How long each step of `rewind html` took, as `--timings` prints it on standard error
/// after the page is written.
///
/// The times are nanoseconds of the command's monotonic clock (``Context/clock``), read
/// as each step ends: from the command's start to the journal opened (its header, index
/// and trailer read), then the precomputation (replaying the events and writing the
/// page's data, `SessionPage.Payload.buildSpecialised`), the compression, the assembling
/// (Base64, the template, the scripts' hashes) and the writing (the file written, synced
/// and renamed into place). The process's own start and exit are not in them.
struct HTMLTimings: Equatable {
  /// The events the page holds.
  var events: UInt64
  /// The threads that could build the page's data (`--jobs`, 1 by default).
  var precomputationJobs: Int
  /// The threads that could compress it.
  var compressionJobs: Int
  /// Nanoseconds of each step, in order.
  var opening: UInt64 = 0
  var precomputation: UInt64 = 0
  var compression: UInt64 = 0
  var assembling: UInt64 = 0
  var writing: UInt64 = 0
  /// The data's bytes before and after compression, and the page's.
  var dataBytes = 0
  var compressedBytes = 0
  var pageBytes = 0

  /// Nanoseconds from the command's start to the page written.
  var total: UInt64 { opening + precomputation + compression + assembling + writing }

  /// The lines `--timings` prints, each `timing: STEP MILLISECONDS ms (WHAT)`, the
  /// milliseconds to the microsecond (the benchmark runner reads the precomputation's).
  /// - Parameter label: the label as the output styles it (`timing:`).
  func lines(label: String = "timing:") -> [String] {
    func line(_ step: String, _ nanoseconds: UInt64, _ what: String) -> String {
      "\(label) \(step) \(milliseconds(nanoseconds)) ms (\(what))"
    }
    let rate = precomputation > 0 ? Double(events) / (Double(precomputation) / 1e9) : 0
    // Millions a second, or the number itself below a million (a small journal's read
    // `0.0 M events/s`).
    let speed =
      rate >= 1e6
      ? "\(Format.decimal(rate / 1e6, places: 1)) M events/s"
      : "\(Format.count(Int(rate.rounded()))) events/s"
    return [
      line("opening", opening, "the journal's header and index"),
      line(
        "precomputation", precomputation,
        "\(Format.count(events, "event")), \(speed), \(threads(precomputationJobs)): replaying the journal and writing the page's data, \(Format.bytes(UInt64(dataBytes)))"
      ),
      line(
        "compression", compression,
        "\(Format.bytes(UInt64(dataBytes))) to \(Format.bytes(UInt64(compressedBytes))), \(threads(compressionJobs))"
      ),
      line("assembling", assembling, "the page, \(Format.bytes(UInt64(pageBytes)))"),
      line("writing", writing, "the file written, synced and renamed"),
      line("total", total, "from the command's start, the process's start and exit aside"),
    ]
  }

  /// `on 1 thread`, `on up to 4 threads`.
  private func threads(_ count: Int) -> String {
    count == 1 ? "on 1 thread" : "on up to \(count) threads"
  }

  /// `27.134`: nanoseconds as milliseconds with three decimals.
  private func milliseconds(_ nanoseconds: UInt64) -> String {
    let microseconds = (nanoseconds + 500) / 1_000
    let fraction = String(microseconds % 1_000)
    return "\(microseconds / 1_000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
  }
}
