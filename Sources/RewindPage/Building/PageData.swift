/// A page's data before compression (see <doc:PageFormat>), in a buffer of its own: the
/// buffer the precomputation wrote the events' rows into, with the lines written in the
/// room left before them (``EventNumbers``), so that the data is not copied once more.
/// Never changed once made, so that the threads that compress it may share it.
@usableFromInline package final class PageData: @unchecked Sendable {
  /// The buffer, which this owns.
  private let buffer: UnsafeMutableRawPointer
  /// Where the data starts in the buffer.
  private let offset: Int
  /// The data's length in bytes.
  @usableFromInline package let count: Int

  /// The data `count` bytes from `offset` of `buffer`, which it takes: the buffer was
  /// allocated as `UInt8`s, and is deallocated with the data.
  init(taking buffer: UnsafeMutableRawPointer, offset: Int, count: Int) {
    self.buffer = buffer
    self.offset = offset
    self.count = count
  }

  deinit { buffer.deallocate() }

  /// Calls `body` with the data's bytes.
  package func withBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows
    -> Result
  {
    try body(UnsafeRawBufferPointer(start: buffer + offset, count: count))
  }

  /// The data's bytes, copied.
  package var bytes: [UInt8] { withBytes { [UInt8]($0) } }
}
