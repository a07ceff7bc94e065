// `Array.withUnsafeBytes` and friends are `rethrows`, which erases a typed error to
// `any Error`. These versions keep the closure's error type, so that the journal's
// functions can declare `throws(JournalError)` and callers need no casts.

extension Array where Element == UInt8 {
  /// `withUnsafeBytes` that keeps the closure's error type.
  @inlinable
  package func withBytes<Result, Failure: Error>(
    _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    var outcome: Swift.Result<Result, Failure>?
    withUnsafeBytes { buffer in
      outcome = Swift.Result { () throws(Failure) -> Result in try body(buffer) }
    }
    return try outcome!.get()
  }

  /// `withUnsafeMutableBytes` that keeps the closure's error type.
  @inlinable
  package mutating func withMutableBytes<Result, Failure: Error>(
    _ body: (UnsafeMutableRawBufferPointer) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    var outcome: Swift.Result<Result, Failure>?
    withUnsafeMutableBytes { buffer in
      outcome = Swift.Result { () throws(Failure) -> Result in try body(buffer) }
    }
    return try outcome!.get()
  }
}
