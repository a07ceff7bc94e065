/// Base64 (RFC 4648, the standard alphabet with `=` padding): how a page carries its
/// compressed data as text that cannot end a `<script>` element.
package enum Base64 {
  private static let alphabet = Array(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

  /// For each 12 bits, their two characters, the first in the low byte: three bytes are
  /// two lookups and one four-byte store. Made once, kept for the process's life.
  nonisolated(unsafe) private static let pairs: UnsafePointer<UInt16> = {
    let pairs = UnsafeMutablePointer<UInt16>.allocate(capacity: 1 << 12)
    for value in 0..<(1 << 12) {
      pairs[value] = UInt16(alphabet[value >> 6]) | UInt16(alphabet[value & 63]) << 8
    }
    return UnsafePointer(pairs)
  }()

  /// The Base64 text of `bytes`, appended to `output`.
  /// - Complexity: O(n).
  package static func encode(_ bytes: [UInt8], into output: inout [UInt8]) {
    let start = output.count
    output += [UInt8](repeating: UInt8(ascii: "="), count: (bytes.count + 2) / 3 * 4)
    let pairs = Self.pairs
    bytes.withUnsafeBufferPointer { input in
      output.withUnsafeMutableBufferPointer { output in
        guard var from = input.baseAddress, var to = output.baseAddress.map({ $0 + start })
        else { return }
        let whole = from + input.count / 3 * 3
        while from < whole {
          let value = Int(from[0]) << 16 | Int(from[1]) << 8 | Int(from[2])
          let text = UInt32(pairs[value >> 12]) | UInt32(pairs[value & 0xFFF]) << 16
          UnsafeMutableRawPointer(to).storeBytes(of: text.littleEndian, as: UInt32.self)
          from += 3
          to += 4
        }
        // One or two bytes left: two or three characters, then the `=` already there.
        let rest = input.count % 3
        guard rest > 0 else { return }
        let value = Int(from[0]) << 16 | (rest == 2 ? Int(from[1]) << 8 : 0)
        let text = UInt32(pairs[value >> 12]) | UInt32(pairs[value & 0xFFF]) << 16
        to[0] = UInt8(truncatingIfNeeded: text)
        to[1] = UInt8(truncatingIfNeeded: text >> 8)
        if rest == 2 { to[2] = UInt8(truncatingIfNeeded: text >> 16) }
      }
    }
  }

  /// The Base64 text of `bytes`.
  package static func encode(_ bytes: [UInt8]) -> String {
    var output: [UInt8] = []
    encode(bytes, into: &output)
    return String(decoding: output, as: UTF8.self)
  }
}
