import RewindArguments

/// `--jobs N` of the commands that replay whole sessions (`find`, `check`): how many
/// threads may replay parts of a journal at once. By default, the cores this process
/// may use.
enum Jobs {
  /// The most jobs `--jobs` takes.
  static let maximum = 256

  /// `--jobs`: a whole number from 1 to ``maximum``.
  static func parse(_ text: String) throws(InvalidValue) -> Int {
    guard let value = Int(text), (1...maximum).contains(value) else {
      throw InvalidValue("expected a number of jobs from 1 to \(maximum)")
    }
    return value
  }

  /// The jobs to run: `requested`, else the cores online.
  static func count(_ requested: Int?) -> Int {
    requested ?? min(max(ProcessCalls.onlineCores(), 1), maximum)
  }
}
