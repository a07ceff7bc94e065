/// Where a ``JournalReader`` gets its frames when they are not in a file: a stream store
/// that keeps each frame as its bytes. The reader checks what it gets as it checks a
/// file's frames.
package protocol FrameSource: AnyObject {
  /// The frame `info` describes: its header frame then its data frame, as a file holds
  /// them.
  /// - Throws: ``JournalError`` (``JournalError/Code/io`` when the store cannot be read).
  func frameBytes(_ info: FrameInfo) throws(JournalError) -> [UInt8]

  /// A source of the same frames for a reader on another thread.
  func another() throws(JournalError) -> any FrameSource
}
