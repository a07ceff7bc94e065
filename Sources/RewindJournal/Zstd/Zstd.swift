internal import CZstd

/// Turns a zstd return value into a Swift error: the one place where zstd's size_t
/// error codes are read.
///
/// - Parameter what: the operation, for the message ("compressing frame 3").
/// - Returns: the value `body` returned when it is not an error code.
/// - Throws: ``JournalError/Code/compression`` with zstd's error name as the cause.
@discardableResult
func zstdCall(_ what: @autoclosure () -> String, _ body: () -> Int) throws(JournalError) -> Int {
  let result = body()
  if ZSTD_isError(result) != 0 {
    let name = String(cString: ZSTD_getErrorName(result))
    throw JournalError(.compression, "zstd failed \(what())", cause: .zstd(name))
  }
  return result
}

/// A zstd compression context (`ZSTD_CCtx`), reused for every frame a writer seals.
final class ZstdCompressor {
  private let context: OpaquePointer

  /// Creates a context at `level` with the content checksum on, and the content size
  /// (which Rewind always writes; the tests leave it out to check readers cope).
  init(level: Int32, contentSize: Bool = true) throws(JournalError) {
    guard let context = ZSTD_createCCtx() else {
      throw JournalError(.compression, "cannot create a zstd compression context")
    }
    self.context = context
    try zstdCall("setting the compression level") {
      ZSTD_CCtx_setParameter(context, ZSTD_c_compressionLevel, level)
    }
    try zstdCall("enabling the content checksum") {
      ZSTD_CCtx_setParameter(context, ZSTD_c_checksumFlag, 1)
    }
    try zstdCall("enabling the content size") {
      ZSTD_CCtx_setParameter(context, ZSTD_c_contentSizeFlag, contentSize ? 1 : 0)
    }
  }

  deinit { ZSTD_freeCCtx(context) }

  /// The largest compressed size of `count` input bytes (`ZSTD_compressBound`).
  static func bound(_ count: Int) -> Int { ZSTD_compressBound(count) }

  /// Compresses `source` into one zstd frame in `destination` (`ZSTD_compress2`).
  /// - Returns: the frame's size in bytes.
  func compress(_ source: UnsafeRawBufferPointer, into destination: UnsafeMutableRawBufferPointer)
    throws(JournalError) -> Int
  {
    try zstdCall("compressing a frame") {
      ZSTD_compress2(
        context, destination.baseAddress, destination.count, source.baseAddress, source.count)
    }
  }
}

/// A zstd decompression context (`ZSTD_DCtx`) with its window capped, reused for every
/// frame a reader decodes.
final class ZstdDecompressor {
  private let context: OpaquePointer
  /// Whether zstd checks the content checksum of the frames it decompresses (its
  /// default); see ``checksContent(_:)``.
  private var checkingContent = true

  init() throws(JournalError) {
    guard let context = ZSTD_createDCtx() else {
      throw JournalError(.compression, "cannot create a zstd decompression context")
    }
    self.context = context
    try zstdCall("capping the window size") {
      ZSTD_DCtx_setParameter(context, ZSTD_d_windowLogMax, Int32(JournalLimits.windowLogMax))
    }
  }

  deinit { ZSTD_freeDCtx(context) }

  /// Makes the frames decompressed from now on have their content checksum checked
  /// (`check`) or not: zstd's `ZSTD_d_forceIgnoreChecksum`, an experimental parameter
  /// of its stable `ZSTD_DCtx_setParameter` (zstd 1.4.7 and later), which `zstd.h`
  /// names `ZSTD_d_experimentalParam3` outside its static-linking section. A zstd that
  /// does not know the parameter goes on checking every frame.
  /// - Throws: ``JournalError/Code/compression`` when zstd refuses to check again.
  func checksContent(_ check: Bool) throws(JournalError) {
    guard check != checkingContent else { return }
    if check {
      try zstdCall("checking the content checksum") {
        ZSTD_DCtx_setParameter(context, ZSTD_d_experimentalParam3, 0)
      }
    } else if ZSTD_isError(ZSTD_DCtx_setParameter(context, ZSTD_d_experimentalParam3, 1)) != 0 {
      return
    }
    checkingContent = check
  }

  /// Decompresses one whole frame into `destination`, which must be large enough for its
  /// content (`ZSTD_decompressDCtx`; the content checksum is checked unless
  /// ``checksContent(_:)`` said otherwise).
  /// - Returns: the number of bytes produced.
  func decompress(_ source: UnsafeRawBufferPointer, into destination: UnsafeMutableRawBufferPointer)
    throws(JournalError) -> Int
  {
    try zstdCall("decompressing a frame") {
      ZSTD_decompressDCtx(
        context, destination.baseAddress, destination.count, source.baseAddress, source.count)
    }
  }

  /// The content size a zstd frame declares (`ZSTD_getFrameContentSize`), or nil if it
  /// declares none or is not a valid frame start.
  static func declaredContentSize(_ frame: UnsafeRawBufferPointer) -> UInt64? {
    let size = ZSTD_getFrameContentSize(frame.baseAddress, frame.count)
    // ZSTD_CONTENTSIZE_UNKNOWN and ZSTD_CONTENTSIZE_ERROR are the two largest values.
    return size >= UInt64.max - 1 ? nil : size
  }

  /// The exact compressed size of the zstd frame at the start of `buffer`
  /// (`ZSTD_findFrameCompressedSize`), or nil if it is not one whole frame.
  static func frameSize(_ buffer: UnsafeRawBufferPointer) -> Int? {
    let size = ZSTD_findFrameCompressedSize(buffer.baseAddress, buffer.count)
    return ZSTD_isError(size) != 0 ? nil : size
  }
}
