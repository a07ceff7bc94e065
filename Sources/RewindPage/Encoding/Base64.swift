/// Base64 (RFC 4648, the standard alphabet with `=` padding): how a page carries its
/// compressed data as text that cannot end a `<script>` element.
package enum Base64 {
  private static let alphabet = Array(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

  /// The Base64 text of `bytes`, appended to `output`.
  /// - Complexity: O(n).
  package static func encode(_ bytes: [UInt8], into output: inout [UInt8]) {
    output.reserveCapacity(output.count + (bytes.count + 2) / 3 * 4)
    var index = 0
    while index + 3 <= bytes.count {
      let value =
        UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
      output.append(alphabet[Int(value >> 18 & 63)])
      output.append(alphabet[Int(value >> 12 & 63)])
      output.append(alphabet[Int(value >> 6 & 63)])
      output.append(alphabet[Int(value & 63)])
      index += 3
    }
    let rest = bytes.count - index
    guard rest > 0 else { return }
    let value = UInt32(bytes[index]) << 16 | (rest == 2 ? UInt32(bytes[index + 1]) << 8 : 0)
    output.append(alphabet[Int(value >> 18 & 63)])
    output.append(alphabet[Int(value >> 12 & 63)])
    output.append(rest == 2 ? alphabet[Int(value >> 6 & 63)] : UInt8(ascii: "="))
    output.append(UInt8(ascii: "="))
  }

  /// The Base64 text of `bytes`.
  package static func encode(_ bytes: [UInt8]) -> String {
    var output: [UInt8] = []
    encode(bytes, into: &output)
    return String(decoding: output, as: UTF8.self)
  }
}
