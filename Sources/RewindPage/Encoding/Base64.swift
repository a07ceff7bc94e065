/// Base64 (RFC 4648, the standard alphabet with `=` padding): how a page carries its
/// compressed data as text that cannot end a `<script>` element.
package enum Base64 {
  private static let alphabet = Array(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

  /// The Base64 text of `bytes`, appended to `output`.
  /// - Complexity: O(n).
  package static func encode(_ bytes: [UInt8], into output: inout [UInt8]) {
    let start = output.count
    output += [UInt8](repeating: UInt8(ascii: "="), count: (bytes.count + 2) / 3 * 4)
    alphabet.withUnsafeBufferPointer { alphabet in
      bytes.withUnsafeBufferPointer { input in
        output.withUnsafeMutableBufferPointer { output in
          var index = 0
          var end = start
          while index + 3 <= input.count {
            let value =
              UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8
              | UInt32(input[index + 2])
            output[end] = alphabet[Int(value >> 18 & 63)]
            output[end + 1] = alphabet[Int(value >> 12 & 63)]
            output[end + 2] = alphabet[Int(value >> 6 & 63)]
            output[end + 3] = alphabet[Int(value & 63)]
            index += 3
            end += 4
          }
          // One or two bytes left: two or three characters, then the `=` already there.
          let rest = input.count - index
          guard rest > 0 else { return }
          let value =
            UInt32(input[index]) << 16 | (rest == 2 ? UInt32(input[index + 1]) << 8 : 0)
          output[end] = alphabet[Int(value >> 18 & 63)]
          output[end + 1] = alphabet[Int(value >> 12 & 63)]
          if rest == 2 { output[end + 2] = alphabet[Int(value >> 6 & 63)] }
        }
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
