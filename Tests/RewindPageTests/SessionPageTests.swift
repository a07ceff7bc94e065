import Foundation
import RewindCore
import TestSupport
import Testing

@testable import RewindPage

private let options = SessionPage.Options(
  title: "A <title>", fileName: "counter.journal", generator: "rewind test")

@Suite("SessionPage: what a page carries, and how it is put together")
struct SessionPageTests {
  private let events: [Counter.Event] = [
    .added(amount: 5), .labelled("x"), .added(amount: 0), .added(amount: 5_000),
    .tagged("<b>\"&"), .noted("n"), .scaled(0.5), .scaled(2),
  ]

  @Test(
    "the data: meta, header, the reasons' numbers, the tables, keyframes, then each event's row: time, code, body, changes"
  )
  func payload() throws {
    let directory = TemporaryDirectory()
    let session = try timeline(Counter(), events, in: directory)
    let payload = try SessionPage.Payload.build(
      session, from: 0, to: 8, options: options, rendererData: .object([("screen", 1)]),
      progress: { _ in }
    ).bytes
    let (lines, rows) = try pageParts(payload)
    #expect(
      lines.count == 3 + 8 + 7 + 1 + 1 + 1,
      "meta, header, the numbers of reasons, 8 bodies, 7 change lists, 1 reason, keyframe, end"
    )
    #expect(lines.last == "")
    let meta = try JSONValue(parsing: lines[0])["page"]
    #expect(meta?["format"] == 3)
    // 250,000 is three bytes of varint, the other numbers one: 8 × 4 + 7 × 2.
    #expect(meta?["rows"] == 46)
    #expect(meta?["tables"] == .object([("bodies", 8), ("changes", 7), ("reasons", 1)]))
    #expect(meta?["title"] == "A <title>")
    #expect(meta?["file"] == "counter.journal")
    #expect(meta?["events"] == 8 && meta?["from"] == 0 && meta?["to"] == 8)
    #expect(meta?["kinds"] == ["added", "labelled", "tagged", "noted", "scaled"])
    #expect(meta?["counts"] == .object([("applied", 6), ("unchanged", 1), ("rejected", 1)]))
    #expect(meta?["keyframeInterval"] == 256 && meta?["keyframes"] == 1)
    #expect(meta?["renderer"] == .object([("screen", 1)]))
    #expect(meta?["startTime"] == 1_767_225_600_000_000)
    let fields = meta?["fields"].map { field -> [String] in
      guard case .array(let elements) = field else { return [] }
      return elements.map { $0.compactText }
    }
    #expect(
      fields == [
        #"{"path":"count","kind":{"optional":"integer"}}"#, #"{"path":"label","kind":"any"}"#,
        #"{"path":"tags","kind":{"optional":{"list":"any"}}}"#, #"{"path":"note","kind":"any"}"#,
        #"{"path":"ratio","kind":{"optional":"number"}}"#,
      ])
    let header = try JSONValue(parsing: lines[1])["header"]
    #expect(header?["domain"] == "counter" && header?["device"] == "a test")
    #expect(rows.map { $0[0] } == [0, 250000, 250000, 250000, 250000, 250000, 250000, 250000])
    // kind × 3 + outcome (0 applied, 1 unchanged, 2 rejected).
    #expect(rows.map { $0[1] } == [0, 3, 1, 2, 6, 9, 12, 12])
    // Every event has its own body; events 3 and 4 the same changes: none.
    #expect(rows.map { $0[2] } == [0, 1, 2, 3, 4, 5, 6, 7])
    #expect(rows.map { $0[3] } == [0, 1, 2, 2, 3, 4, 5, 6])
    #expect(lines[2] == "[0]")
    #expect(lines[3] == #"{"event":"added","amount":5}"#)
    #expect(lines[6] == #"{"event":"added","amount":5000}"#)
    #expect(lines[7] == #"{"event":"tagged","_0":"<b>\"&"}"#)
    #expect(
      Array(lines[11..<18]) == [
        "[0,5]", #"[1,"x"]"#, "[]", #"[2,["<b>\"&"]]"#, #"[3,"n"]"#, "[4,0.5]", "[4,2.0]",
      ])
    #expect(lines[18] == #""more than 1,000 at once""#)
    #expect(lines[19] == #"{"count":0,"label":"start","tags":[],"note":null,"ratio":1.0}"#)
  }

  @Test("a part starts at its first point, with its times from there; keyframes every interval")
  func partsAndKeyframes() throws {
    let directory = TemporaryDirectory()
    let many = [Counter.Event](repeating: .added(amount: 1), count: 600)
    let session = try timeline(Counter(), many, in: directory, snapshotInterval: 100)
    let (whole, wholeRows) = try pageParts(
      try SessionPage.Payload.build(
        session, from: 0, to: 600, options: options, rendererData: .null, progress: { _ in }
      ).bytes)
    let meta = try JSONValue(parsing: whole[0])["page"]
    #expect(meta?["keyframes"] == 3)
    // One body, 600 change lists (each sets the count anew), no reason.
    #expect(meta?["tables"] == .object([("bodies", 1), ("changes", 600), ("reasons", 0)]))
    #expect(wholeRows.count == 600 && wholeRows.allSatisfy { $0[2] == 0 })
    #expect(whole[2] == "[]")
    let keyframes = Array(whole[(3 + 1 + 600)...].dropLast())
    #expect(keyframes.count == 3)
    #expect(keyframes[2] == #"{"count":512,"label":"start","tags":[],"note":null,"ratio":1.0}"#)

    let (part, partRows) = try pageParts(
      try SessionPage.Payload.build(
        session, from: 250, to: 260, options: options, rendererData: .null, progress: { _ in }
      ).bytes)
    let partMeta = try JSONValue(parsing: part[0])["page"]
    #expect(partMeta?["from"] == 250 && partMeta?["to"] == 260 && partMeta?["events"] == 10)
    #expect(partMeta?["fromTime"] == .int(249 * 250_000))
    #expect(partRows.map { $0[0] } == Array(repeating: 250_000, count: 10))
    #expect(partRows.map { $0[3] } == (0..<10).map(UInt64.init))
    #expect(part[3] == #"{"event":"added","amount":1}"#)
    #expect(part[4] == "[0,251]" && part[13] == "[0,260]")
    #expect(part[3 + 1 + 10] == #"{"count":250,"label":"start","tags":[],"note":null,"ratio":1.0}"#)
  }

  @Test("a domain whose fields do not rebuild its state's JSON gets no page, and says why")
  func fieldsMustCoverTheState() throws {
    let directory = TemporaryDirectory()
    let session = try timeline(Ledger(), [.credited(account: "bank", amount: 5)], in: directory)
    #expect {
      try SessionPage.html(
        of: session, from: 0, to: 1, options: options, renderer: nil)
    } throws: { error in
      let error = error as? PageError
      return error?.code == .fieldsDoNotCoverState
        && error?.message
          == "the 'ledger' domain's fields do not rebuild its state's JSON after event 1: a page needs fields that are the leaves of the state's JSON (see Domain.fields)"
    }
  }

  @Test("a part of more events than the limit is refused, naming its size")
  func limit() throws {
    let directory = TemporaryDirectory()
    let session = try timeline(Counter(), events, in: directory)
    #expect(
      throws: PageError(
        .tooManyEvents,
        "the session has 8 events (1–8); a page holds at most 3: choose a part with --from and --to, e.g. --from 0 --to 3"
      )
    ) {
      try SessionPage.html(of: session, from: 0, to: 8, options: options, renderer: nil, limit: 3)
    }
    #expect(
      throws: PageError(
        .tooManyEvents,
        "the part asked for has 4 events (3–6); a page holds at most 3: choose a part with --from and --to, e.g. --from 2 --to 5"
      )
    ) {
      try SessionPage.html(of: session, from: 2, to: 6, options: options, renderer: nil, limit: 3)
    }
    #expect(
      try SessionPage.html(of: session, from: 5, to: 8, options: options, renderer: nil, limit: 3)
        .count > 0)
  }

  @Test(
    "the page: its policy names the hashes of its script and styles; its data inflates to the payload"
  )
  func assembly() throws {
    let directory = TemporaryDirectory()
    let session = try timeline(Counter(), events, in: directory)
    let renderer = PageRenderer(
      script: "RewindPage.defineRenderer({ render() {} });", style: ".counter { color: red; }",
      data: .object([("unit", "apples")]))
    let html = String(
      decoding: try SessionPage.html(
        of: session, from: 0, to: 8, options: options, renderer: renderer),
      as: UTF8.self)
    #expect(html.contains("<title>A &lt;title&gt;</title>"))
    #expect(html.contains(#"<h1 id="title">A &lt;title&gt;</h1>"#))
    func contents(of tag: String, _ occurrence: Int) -> String {
      var rest = Substring(html)
      for _ in 0..<occurrence { rest = rest[rest.range(of: "<\(tag)>")!.upperBound...] }
      return String(rest[..<rest.range(of: "</\(tag)>")!.lowerBound])
    }
    let policy = html[html.range(of: #"Content-Security-Policy" content=""#)!.upperBound...]
      .prefix { $0 != "\"" }
    func source(_ text: String) -> String {
      "'sha256-\(Base64.encode(SHA256.hash(Array(text.utf8))))'"
    }
    let script = contents(of: "script", 1)
    #expect(script.hasSuffix("RewindPage.defineRenderer({ render() {} });\nRewindPage.start();\n"))
    #expect(
      policy
        == "default-src 'none'; script-src \(source(script)); style-src \(source(contents(of: "style", 1))) \(source(".counter { color: red; }")); base-uri 'none'; form-action 'none'"
    )
    #expect(contents(of: "style", 2) == ".counter { color: red; }")
    // The data: Base64 of raw DEFLATE, which inflates (here with gzip) to the payload.
    let element = html[
      html.range(of: #"<script type="application/octet-stream" id="rewind-data" data-length=""#)!
        .upperBound...]
    let length = Int(element.prefix { $0 != "\"" })!
    let base64 = element[element.range(of: ">")!.upperBound...].prefix { $0 != "<" }
    let payload = try SessionPage.Payload.build(
      session, from: 0, to: 8, options: options, rendererData: .object([("unit", "apples")]),
      progress: { _ in }
    ).bytes
    #expect(length == payload.count)
    let deflated = [UInt8](Data(base64Encoded: String(base64))!)
    write(
      [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF] + deflated + [UInt8](repeating: 0, count: 8),
      to: directory.file("data.gz"))
    // The trailer's checksum is not computed here: gzip says so, after writing the data.
    _ = try run(
      "/bin/sh",
      ["-c", "gzip -dc '\(directory.file("data.gz"))' > '\(directory.file("data"))' 2>/dev/null"])
    #expect(bytes(of: directory.file("data")) == payload)
  }

  @Test("the byte search that guards the page's script finds a marker anywhere, and only it")
  func byteSearch() {
    func has(_ text: String, _ marker: String) -> Bool {
      SessionPage.contains(Array(text.utf8), Array(marker.utf8))
    }
    #expect(has("</script", "</script") && has("a</scriptb", "</script"))
    #expect(has("x = 1; <!--", "<!--") && has("<<!--", "<!--"))
    #expect(!has("</scrip", "</script") && !has("</scripT", "</script") && !has("", "<!--"))
    #expect(!has("< /script <!- -", "</script") && !has("<!-", "<!--"))
  }

  @Test("the template is filled in one pass: a value's own braces stay as they are")
  func fill() {
    let filled = SessionPage.fill(
      "a{{x}}b{{y}}c{{x}}", ["x": Array("{{y}}".utf8), "y": Array("<Y>".utf8)])
    #expect(String(decoding: filled, as: UTF8.self) == "a{{y}}b<Y>c{{y}}")
  }
}
