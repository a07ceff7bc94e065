import RewindStream

/// The secrets of a command line handed to `rewind-nats`: never among its arguments.
///
/// Any user of the machine reads a process's arguments (`ps`, `/proc/PID/cmdline`), and
/// `rewind-nats` runs as long as the command does: a password given to `rewind` (its
/// `--password`, or in a URL) was there for all to see, where only its owner reads its
/// environment. So `rewind` hides them as it hands over (``hidingSecrets(_:)``: written
/// `***`), and passes the words it hid, and where they were, in the variable
/// ``hiddenWordsVariable``, set for `rewind-nats` alone (`rewind` is gone once it runs).
/// `rewind-nats` takes them back (``restoringHiddenWords(_:from:)``) and removes the
/// variable before anything else runs.
extension NatsHelper {
  /// The variable of the environment that holds the words the command line handed to
  /// `rewind-nats` hid: `INDEX:HEX` for each (its index after the program's name, its
  /// UTF-8 bytes in hexadecimal), separated by commas.
  static let hiddenWordsVariable = "REWIND_NATS_HIDDEN_WORDS"

  /// `arguments` (the words after the program's name) with every secret written `***`: the
  /// value of `--password` (`--password VALUE`, `--password=VALUE`), and the password of
  /// every server's URL, or its user when it has no password, which libnats sends as a
  /// token (`nats://USER:***@HOST`, `nats://***@HOST`), in `--server`'s list, whether or
  /// not an address names its scheme. In any other word (a session's URL, `--against=URL`),
  /// a URL with an `@` anywhere after its scheme is hidden whole (`***`, `--against=***`):
  /// a session's URL may list a cluster's nodes with or without their schemes, and its
  /// credentials hold slashes, `@` and spaces, so that no reading of where they end is
  /// sure to hide them all (one did not: the second address's password was shown).
  /// Words after `--` are positional: only URLs are looked for there.
  static func hidingSecrets(_ arguments: [String]) -> [String] {
    var shown = arguments
    var afterTerminator = false
    for (index, word) in arguments.enumerated() {
      let option = afterTerminator || index == 0 ? nil : arguments[index - 1]
      if word == "--" && !afterTerminator {
        afterTerminator = true
      } else if option == "--password" {
        shown[index] = "***"
      } else if !afterTerminator, word.hasPrefix("--password=") {
        shown[index] = "--password=***"
      } else if option == "--server" {
        shown[index] = hidingCredentials(inList: word)
      } else if !afterTerminator, word.hasPrefix("--server=") {
        shown[index] = "--server=" + hidingCredentials(inList: String(word.dropFirst(9)))
      } else if let url = ["nats://", "tls://"].compactMap({ word.firstRange(of: $0)?.lowerBound })
        .min(), word[url...].contains("@")
      {
        shown[index] = word[..<url] + "***"
      }
    }
    return shown
  }

  /// A list of servers' addresses (`--server`'s) with the credentials of each hidden.
  private static func hidingCredentials(inList list: String) -> String {
    list.split(separator: ",", omittingEmptySubsequences: false).map {
      StreamServer.maskingCredentials(of: String($0))
    }.joined(separator: ",")
  }

  /// The value of ``hiddenWordsVariable`` for the words ``hidingSecrets(_:)`` changed in
  /// `arguments` (to `shown`), but those in `kept` (indices of words that are not UTF-8,
  /// passed as they are); nil when it changed none.
  static func hiddenWords(_ arguments: [String], shown: [String], kept: Set<Int>) -> String? {
    let hidden = arguments.indices.filter { shown[$0] != arguments[$0] && !kept.contains($0) }
    guard !hidden.isEmpty else { return nil }
    return hidden.map { index in
      "\(index):" + arguments[index].utf8.map { hexDigits($0) }.joined()
    }.joined(separator: ",")
  }

  /// `arguments` with the words ``hiddenWordsVariable``'s `value` gives back in place of
  /// those hidden: each only where it is hidden as ``hidingSecrets(_:)`` hides it, so that
  /// a value left in the environment from elsewhere changes nothing; `arguments` as they
  /// are when `value` is nil or not such a value.
  static func restoringHiddenWords(_ arguments: [String], from value: String?) -> [String] {
    guard let value else { return arguments }
    var restored = arguments
    var indices: [Int] = []
    for entry in value.split(separator: ",") {
      guard let colon = entry.firstIndex(of: ":"), let index = Int(entry[..<colon]),
        arguments.indices.contains(index),
        let word = decodedHex(entry[entry.index(after: colon)...])
      else { return arguments }
      restored[index] = word
      indices.append(index)
    }
    let shown = hidingSecrets(restored)
    guard indices.allSatisfy({ shown[$0] == arguments[$0] }) else { return arguments }
    return restored
  }

  /// A byte as two lowercase hexadecimal digits.
  private static func hexDigits(_ byte: UInt8) -> String {
    let digits = Array("0123456789abcdef")
    return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
  }

  /// The UTF-8 text whose bytes `hex` gives two hexadecimal digits each, or nil.
  private static func decodedHex(_ hex: Substring) -> String? {
    let digits = Array(hex.utf8)
    guard digits.count % 2 == 0 else { return nil }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(digits.count / 2)
    for start in stride(from: 0, to: digits.count, by: 2) {
      guard let high = hexValue(digits[start]), let low = hexValue(digits[start + 1]) else {
        return nil
      }
      bytes.append(high << 4 | low)
    }
    return String(validating: bytes, as: UTF8.self)
  }

  private static func hexValue(_ digit: UInt8) -> UInt8? {
    switch digit {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
    default: nil
    }
  }
}
