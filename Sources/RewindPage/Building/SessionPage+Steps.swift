extension SessionPage {
  /// A step of ``html(of:from:to:options:renderer:limit:jobs:compressionJobs:progress:finished:)``
  /// that has just ended, for a caller that times them (`rewind html --timings`).
  package enum Step: Sendable, Equatable {
    /// The page's data is built: the journal's events replayed and written as the data's
    /// text, `bytes` long before compression.
    case precomputed(bytes: Int)
    /// The data is compressed, to `bytes`.
    case compressed(bytes: Int)
    /// The page is assembled, `bytes` long: the data in Base64, the template, the scripts
    /// and styles with their hashes.
    case assembled(bytes: Int)
  }
}
