extension SessionPage {
  /// The page's own scripts, in the order they run: each defines a part of the
  /// `RewindPage` namespace the next ones use.
  static let scripts = [
    EmbeddedResources.inflateJS, EmbeddedResources.jsonJS, EmbeddedResources.pointJS,
    EmbeddedResources.conditionJS, EmbeddedResources.sessionJS, EmbeddedResources.scrubberJS,
    EmbeddedResources.eventListJS, EmbeddedResources.playerJS,
  ]

  /// The page: the template (`page.html`) filled with the title, the styles, the data and
  /// the script, under a Content-Security-Policy that allows no request and runs only
  /// that script and those styles.
  ///
  /// - Parameters:
  ///   - title: the page's title, escaped here.
  ///   - data: the compressed data, carried as Base64.
  ///   - rendererScript: the domain's renderer, run after the page's script; nil for none.
  ///   - rendererStyle: the renderer's CSS.
  ///   - dataLength: the data's length before compression.
  static func assemble(
    title: String, data: [UInt8], dataLength: Int, rendererScript: String?,
    rendererStyle: String?
  ) -> [UInt8] {
    // One namespace for the page's scripts and the renderer.
    var script = "\"use strict\";\nconst RewindPage = {};\n" + scripts.joined(separator: "\n")
    if let rendererScript { script += "\n" + rendererScript }
    script += "\nRewindPage.start();\n"
    let style = EmbeddedResources.pageCSS
    let screenStyle = rendererStyle ?? ""
    for (name, text) in [("script", script), ("style", style + screenStyle)] {
      // The HTML parser ends a script or style at `</script` or `</style` whatever the
      // language says; `<!--` and `<script` change how it reads what follows.
      let lowercased = Array(text.utf8).map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
      for marker in ["</script", "</style", "<!--", "<script"] {
        precondition(
          !contains(lowercased, Array(marker.utf8)),
          "the page's \(name) must not contain '\(marker)'")
      }
    }
    let policy = [
      "default-src 'none'", "script-src \(hashSource(script))",
      "style-src \(hashSource(style)) \(hashSource(screenStyle))", "base-uri 'none'",
      "form-action 'none'",
    ].joined(separator: "; ")
    var encoded: [UInt8] = []
    Base64.encode(data, into: &encoded)
    return fill(
      EmbeddedResources.pageHTML,
      [
        "policy": Array(policy.utf8), "title": Array(HTMLText.escaped(title).utf8),
        "style": Array(style.utf8), "screenStyle": Array(screenStyle.utf8), "data": encoded,
        "dataLength": Array(String(dataLength).utf8),
        "script": Array(script.utf8),
      ])
  }

  /// Whether `bytes` holds `marker` anywhere: a byte search, since the HTML parser reads
  /// bytes (a `String` search compares characters and costs a tenth of a second on the
  /// page's 100 KB of script).
  static func contains(_ bytes: [UInt8], _ marker: [UInt8]) -> Bool {
    guard let first = marker.first, bytes.count >= marker.count else { return false }
    var index = 0
    let last = bytes.count - marker.count
    while index <= last {
      if bytes[index] == first && bytes[index..<(index + marker.count)].elementsEqual(marker) {
        return true
      }
      index += 1
    }
    return false
  }

  /// `'sha256-…'`: a CSP source naming an inline script or style by its hash.
  static func hashSource(_ text: String) -> String {
    "'sha256-\(Base64.encode(SHA256.hash(Array(text.utf8))))'"
  }

  /// The template with each `{{name}}` replaced by its value, in one pass: a value is
  /// never read for names itself.
  /// - Precondition: every name in the template has a value.
  static func fill(_ template: String, _ values: [String: [UInt8]]) -> [UInt8] {
    var output: [UInt8] = []
    output.reserveCapacity(values.values.reduce(template.utf8.count) { $0 + $1.count })
    let bytes = Array(template.utf8)
    var index = 0
    while index < bytes.count {
      if bytes[index] == UInt8(ascii: "{"), index + 1 < bytes.count,
        bytes[index + 1] == UInt8(ascii: "{")
      {
        var end = index + 2
        while end + 1 < bytes.count
          && !(bytes[end] == UInt8(ascii: "}") && bytes[end + 1] == UInt8(ascii: "}"))
        {
          end += 1
        }
        let name = String(decoding: bytes[(index + 2)..<end], as: UTF8.self)
        guard let value = values[name] else {
          preconditionFailure("page.html names {{\(name)}}, which has no value")
        }
        output += value
        index = end + 2
      } else {
        output.append(bytes[index])
        index += 1
      }
    }
    return output
  }
}
