import RewindTerminal
import Testing

@Suite("Input decoding")
struct InputDecoderTests {
  private func decode(_ text: String) -> [InputEvent] {
    var decoder = InputDecoder()
    var events = decoder.decode(Array(text.utf8))
    events += decoder.flush()
    return events
  }

  @Test("characters, UTF-8 and control keys")
  func characters() {
    #expect(
      decode("aZ ?é月🙂")
        == ["a", "Z", " ", "?", "é", "月", "🙂"].map { .key(.character($0)) })
    #expect(decode("\r") == [.key(.enter)])
    #expect(decode("\n") == [.key(.enter)])
    #expect(decode("\t") == [.key(.tab)])
    #expect(decode("\u{7F}") == [.key(.backspace)])
    #expect(decode("\u{08}") == [.key(.backspace)])
    #expect(decode("\u{03}") == [.key(.control("c"))])
    #expect(decode("\u{01}\u{1A}") == [.key(.control("a")), .key(.control("z"))])
  }

  @Test("CSI cursor, editing and function keys, with and without modifiers")
  func csiKeys() {
    #expect(
      decode("\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D")
        == [.key(.up), .key(.down), .key(.right), .key(.left)])
    #expect(decode("\u{1B}[1;5C") == [.key(.right)])
    #expect(decode("\u{1B}[H\u{1B}[F") == [.key(.home), .key(.end)])
    #expect(
      decode("\u{1B}[1~\u{1B}[4~\u{1B}[7~\u{1B}[8~")
        == [.key(.home), .key(.end), .key(.home), .key(.end)])
    #expect(
      decode("\u{1B}[5~\u{1B}[6~\u{1B}[3~\u{1B}[2~")
        == [.key(.pageUp), .key(.pageDown), .key(.delete), .key(.insert)])
    #expect(decode("\u{1B}[Z") == [.key(.backTab)])
    #expect(decode("\u{1B}[15~\u{1B}[24~") == [.key(.function(5)), .key(.function(12))])
  }

  @Test("SS3 keys")
  func ss3Keys() {
    #expect(
      decode("\u{1B}OA\u{1B}OD\u{1B}OH\u{1B}OF\u{1B}OP")
        == [.key(.up), .key(.left), .key(.home), .key(.end), .key(.function(1))])
  }

  @Test("SGR 1006 mouse: press, release, drag, wheel, 1-based to 0-based")
  func mouse() {
    #expect(decode("\u{1B}[<0;10;5M") == [.mouse(MouseEvent(.press, column: 9, row: 4))])
    #expect(decode("\u{1B}[<0;10;5m") == [.mouse(MouseEvent(.release, column: 9, row: 4))])
    #expect(
      decode("\u{1B}[<2;1;1M") == [.mouse(MouseEvent(.press, button: .right, column: 0, row: 0))])
    #expect(decode("\u{1B}[<32;3;4M") == [.mouse(MouseEvent(.drag, column: 2, row: 3))])
    #expect(
      decode("\u{1B}[<64;7;2M")
        == [.mouse(MouseEvent(.wheelUp, button: .none, column: 6, row: 1))])
    #expect(
      decode("\u{1B}[<65;7;2M")
        == [.mouse(MouseEvent(.wheelDown, button: .none, column: 6, row: 1))])
    // Modifier bits (shift 4, meta 8, control 16) do not change the action.
    #expect(decode("\u{1B}[<16;2;2M") == [.mouse(MouseEvent(.press, column: 1, row: 1))])
    // Motion without a button, horizontal wheels, a 0 coordinate: dropped.
    #expect(decode("\u{1B}[<35;2;2M").isEmpty)
    #expect(decode("\u{1B}[<66;2;2M").isEmpty)
    #expect(decode("\u{1B}[<0;0;2M").isEmpty)
    // Huge coordinates are capped, never overflow.
    let huge = decode("\u{1B}[<0;99999999999999999999999;1M")
    #expect(huge == [.mouse(MouseEvent(.press, column: 99_999, row: 0))])
  }

  @Test("a bracketed paste is one event of its text, never keys, however its bytes arrive")
  func paste() {
    let text = "split.style == balanced\nxq\u{1B}[A\tmonth 月"
    let bytes = Array("a\u{1B}[200~\(text)\u{1B}[201~b".utf8)
    #expect(
      decode("a\u{1B}[200~\(text)\u{1B}[201~b") == [
        .key(.character("a")), .paste(text), .key(.character("b")),
      ])
    // Cut anywhere, the reads give the same text (in one or more pastes) and keys.
    for cut in 1..<bytes.count {
      var decoder = InputDecoder()
      var events = decoder.decode(bytes[..<cut])
      events += decoder.decode(bytes[cut...])
      events += decoder.flush()
      let pasted = events.compactMap { event -> String? in
        if case .paste(let part) = event { return part }
        return nil
      }
      #expect(pasted.joined() == text, "cut at \(cut)")
      #expect(events.first == .key(.character("a")) && events.last == .key(.character("b")))
      #expect(events.count == 2 + pasted.count, "cut at \(cut): \(events)")
    }
    // A paste whose end has not come yet: what came is handed on when no byte follows in
    // time, but a tail that may start the end marker; the rest follows.
    var decoder = InputDecoder()
    #expect(decoder.decode(Array("\u{1B}[200~abc\u{1B}[20".utf8)).isEmpty)
    #expect(decoder.flush() == [.paste("abc")])
    #expect(decoder.decode(Array("1~q".utf8)) == [.key(.character("q"))])
    // An empty paste is nothing.
    #expect(decode("\u{1B}[200~\u{1B}[201~") == [])
  }

  @Test("a sequence cut between reads is kept until its end arrives")
  func partialSequences() {
    var decoder = InputDecoder()
    let bytes = Array("x\u{1B}[<0;12;3Mé\u{1B}[B".utf8)
    var events: [InputEvent] = []
    for byte in bytes {
      events += decoder.decode([byte])
    }
    #expect(
      events == [
        .key(.character("x")), .mouse(MouseEvent(.press, column: 11, row: 2)),
        .key(.character("é")), .key(.down),
      ])
    #expect(!decoder.hasPending)
  }

  @Test(
    "a lone Esc waits for the timeout; Esc and a character at once is Alt and it (it was Esc, then the character: in live, Alt-v tapped the back button)"
  )
  func escape() {
    var decoder = InputDecoder()
    #expect(decoder.decode([0x1B]).isEmpty)
    #expect(decoder.hasPending)
    #expect(decoder.flush() == [.key(.escape)])
    #expect(!decoder.hasPending)
    #expect(decoder.decode(Array("\u{1B}q".utf8)) == [.key(.alt("q"))])
    #expect(
      decoder.decode(Array("\u{1B}é\u{1B} x".utf8)) == [
        .key(.alt("é")), .key(.alt(" ")), .key(.character("x")),
      ])
    // A character of several bytes waits for its last; then Esc comes after the timeout,
    // and a key read apart is the key.
    #expect(decoder.decode([0x1B, 0xC3]).isEmpty)
    #expect(decoder.decode([0xA9]) == [.key(.alt("é"))])
    #expect(decoder.decode([0x1B]).isEmpty)
    #expect(decoder.flush() == [.key(.escape)])
    #expect(decoder.decode(Array("q".utf8)) == [.key(.character("q"))])
    // Esc and a control byte: Esc, then the control key.
    #expect(decoder.decode([0x1B, 0x0D]) == [.key(.escape), .key(.enter)])
    #expect(decoder.decode([0x1B, 0x1B]) == [.key(.escape)])
    #expect(decoder.flush() == [.key(.escape)])
    // An unfinished CSI at the timeout: Esc, then its bytes as keys.
    #expect(decoder.decode(Array("\u{1B}[".utf8)).isEmpty)
    #expect(decoder.flush() == [.key(.escape), .key(.character("["))])
  }

  @Test("garbage is dropped without trapping or growing")
  func garbage() {
    var decoder = InputDecoder()
    // Unknown sequences, invalid UTF-8, C1 controls, a CSI cut by a control byte.
    let events = decoder.decode(
      Array("\u{1B}[99q".utf8) + [0xFF, 0xC3] + [0x41] + [0xC2, 0x9B]
        + Array("\u{1B}[1\u{03}".utf8))
    #expect(events == [.key(.character("A")), .key(.control("c"))])
    // An endless sequence is dropped once it is too long.
    let endless = decoder.decode(
      Array("\u{1B}[".utf8) + Array(repeating: UInt8(ascii: "1"), count: 200) + [0x62])
    #expect(!decoder.hasPending)
    #expect(endless.allSatisfy { $0 == .key(.character("1")) || $0 == .key(.character("b")) })
  }

  @Test("every byte string decodes without trapping", arguments: 0..<64)
  func randomBytes(seed: Int) {
    var generator = SplitMixBytes(seed: UInt64(seed))
    var decoder = InputDecoder()
    for _ in 0..<50 {
      let count = Int(generator.next() % 12)
      let chunk = (0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
      _ = decoder.decode(chunk)
    }
    _ = decoder.flush()
    #expect(!decoder.hasPending)
  }
}

/// A tiny seeded generator for the fuzz test (bytes biased towards ESC and `[`).
struct SplitMixBytes {
  var state: UInt64
  init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    let value = z ^ (z >> 31)
    switch value % 8 {
    case 0: return 0x1B
    case 1: return UInt64(UInt8(ascii: "["))
    case 2: return UInt64(UInt8(ascii: "<"))
    case 3: return UInt64(UInt8(ascii: ";"))
    default: return value >> 8
    }
  }
}
