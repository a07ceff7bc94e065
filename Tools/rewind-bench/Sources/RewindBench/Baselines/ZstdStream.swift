import CZstdStream

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Turns a zstd return code into a Swift error.
@discardableResult
func zstdChecked(_ what: String, _ result: Int) throws(BenchError) -> Int {
  if ZSTD_isError(result) != 0 {
    throw BenchError("zstd failed \(what): \(String(cString: ZSTD_getErrorName(result)))")
  }
  return result
}

/// A `.zst` file written as a stream (`ZSTD_compressStream2`), as an app appending JSON
/// Lines through zstd would write it: one frame, content checksum on.
final class ZstdFileWriter {
  private let context: OpaquePointer
  private let file: UnsafeMutablePointer<FILE>
  private var output: [UInt8]
  private(set) var bytesWritten = 0

  init(path: String, level: Int32) throws(BenchError) {
    guard let context = ZSTD_createCCtx() else { throw BenchError("cannot create a ZSTD_CCtx") }
    self.context = context
    guard let file = fopen(path, "wb") else {
      ZSTD_freeCCtx(context)
      throw BenchError("cannot create \(path): \(String(cString: strerror(errno)))")
    }
    self.file = file
    output = [UInt8](repeating: 0, count: ZSTD_CStreamOutSize())
    try zstdChecked(
      "setting the level", ZSTD_CCtx_setParameter(context, ZSTD_c_compressionLevel, level))
    try zstdChecked(
      "enabling the checksum", ZSTD_CCtx_setParameter(context, ZSTD_c_checksumFlag, 1))
  }

  deinit {
    ZSTD_freeCCtx(context)
    fclose(file)
  }

  /// Compresses `bytes` into the stream (zstd buffers them and emits blocks as they fill).
  func write(_ bytes: [UInt8]) throws(BenchError) {
    try bytes.withUnsafeBufferPointer { (buffer) throws(BenchError) in
      try write(UnsafeRawBufferPointer(buffer))
    }
  }

  /// Compresses `bytes` into the stream.
  func write(_ bytes: UnsafeRawBufferPointer) throws(BenchError) {
    var input = ZSTD_inBuffer(src: bytes.baseAddress, size: bytes.count, pos: 0)
    while input.pos < input.size {
      try drain(&input, ZSTD_e_continue)
    }
  }

  /// Ends the frame and closes the file.
  func finish() throws(BenchError) {
    var input = ZSTD_inBuffer(src: nil, size: 0, pos: 0)
    while try drain(&input, ZSTD_e_end) != 0 {}
    guard fflush(file) == 0 else {
      throw BenchError("cannot write: \(String(cString: strerror(errno)))")
    }
  }

  @discardableResult
  private func drain(_ input: inout ZSTD_inBuffer, _ mode: ZSTD_EndDirective) throws(BenchError)
    -> Int
  {
    let capacity = output.count
    let (remaining, produced) = try output.withUnsafeMutableBufferPointer {
      (buffer) throws(BenchError) -> (Int, Int) in
      var out = ZSTD_outBuffer(dst: buffer.baseAddress, size: capacity, pos: 0)
      let remaining = try zstdChecked(
        "compressing", ZSTD_compressStream2(context, &out, &input, mode))
      if out.pos > 0 && fwrite(buffer.baseAddress, 1, out.pos, file) != out.pos {
        throw BenchError("cannot write: \(String(cString: strerror(errno)))")
      }
      return (remaining, out.pos)
    }
    bytesWritten += produced
    return remaining
  }
}

/// Reads a `.zst` file as a stream of decompressed chunks (`ZSTD_decompressStream`).
final class ZstdFileReader {
  private let context: OpaquePointer
  private let file: UnsafeMutablePointer<FILE>
  private var input: [UInt8]
  private var inputFilled = 0
  private var inputPosition = 0
  private var output: [UInt8]

  init(path: String) throws(BenchError) {
    guard let context = ZSTD_createDCtx() else { throw BenchError("cannot create a ZSTD_DCtx") }
    self.context = context
    guard let file = fopen(path, "rb") else {
      ZSTD_freeDCtx(context)
      throw BenchError("cannot open \(path): \(String(cString: strerror(errno)))")
    }
    self.file = file
    input = [UInt8](repeating: 0, count: ZSTD_DStreamInSize())
    output = [UInt8](repeating: 0, count: ZSTD_DStreamOutSize())
  }

  deinit {
    ZSTD_freeDCtx(context)
    fclose(file)
  }

  /// Calls `body` with each chunk of decompressed bytes, in order, until the file ends.
  func forEachChunk(_ body: (UnsafeRawBufferPointer) throws -> Void) throws {
    while true {
      if inputPosition == inputFilled {
        inputFilled = input.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
        inputPosition = 0
        if inputFilled == 0 { return }
      }
      let filled = inputFilled
      let position = inputPosition
      let (consumed, produced) = try input.withUnsafeBytes { source in
        try output.withUnsafeMutableBytes { destination in
          var inBuffer = ZSTD_inBuffer(src: source.baseAddress, size: filled, pos: position)
          var outBuffer = ZSTD_outBuffer(
            dst: destination.baseAddress, size: destination.count, pos: 0)
          try zstdChecked(
            "decompressing", ZSTD_decompressStream(context, &outBuffer, &inBuffer))
          return (inBuffer.pos, outBuffer.pos)
        }
      }
      inputPosition = consumed
      if produced > 0 {
        try output.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[..<produced])) }
      }
    }
  }
}
