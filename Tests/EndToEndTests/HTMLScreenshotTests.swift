#if canImport(Glibc)
  import Foundation
  import TestSupport
  import Testing

  /// What a region of a screenshot holds: the share of its pixels that are black, white,
  /// gray (between the two: a gray line, or a line of less than a pixel blended with the
  /// black around it), the seeds' blue, and coloured.
  private struct Region: CustomStringConvertible {
    var black = 0.0
    var white = 0.0
    var gray = 0.0
    var blue = 0.0
    var coloured = 0.0
    var description: String {
      "black \(black), white \(white), gray \(gray), blue \(blue), coloured \(coloured)"
    }
  }

  /// A blank tab that decodes a PNG and measures regions of it.
  private struct ScreenshotReader {
    let tab: BrowserPage

    /// Decodes a PNG; returns its width and height in pixels.
    func load(_ png: String) throws -> [Double] {
      try tab.evaluate(
        """
        (async () => {
          const bytes = Uint8Array.from(atob('\(Data(bytes(of: png)).base64EncodedString())'), (c) => c.charCodeAt(0));
          const bitmap = await createImageBitmap(new Blob([bytes], {type: 'image/png'}));
          const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
          window.shot = canvas.getContext('2d');
          window.shot.drawImage(bitmap, 0, 0);
          return [bitmap.width, bitmap.height];
        })()
        """) as? [Double] ?? []
    }

    /// Measures a region (x, y, width, height, in pixels) of the PNG loaded last, `inset`
    /// pixels inside its edges.
    func measure(_ box: [Double], inset: Double = 0) throws -> Region {
      let values =
        try tab.evaluate(
          """
          (() => {
            const [x, y, w, h] = [\(box[0] + inset), \(box[1] + inset), \(box[2] - 2 * inset), \(box[3] - 2 * inset)];
            const data = window.shot.getImageData(Math.round(x), Math.round(y),
              Math.max(Math.round(w), 1), Math.max(Math.round(h), 1)).data;
            const counts = [0, 0, 0, 0, 0];
            for (let i = 0; i < data.length; i += 4) {
              const [r, g, b] = [data[i], data[i + 1], data[i + 2]];
              const high = Math.max(r, g, b), low = Math.min(r, g, b);
              if (high < 40) counts[0]++;
              if (low > 215) counts[1]++;
              if (high - low < 24 && high >= 40 && low <= 215) counts[2]++;
              if (b > 200 && r < 80 && g > 80 && g < 170) counts[3]++;
              if (high - low > 40) counts[4]++;
            }
            return counts.map((count) => count / (data.length / 4));
          })()
          """) as? [Double] ?? []
      guard values.count == 5 else { return Region() }
      return Region(
        black: values[0], white: values[1], gray: values[2], blue: values[3], coloured: values[4])
    }
  }

  @Suite("Tools/screenshots: the README's screenshots against the page's DOM", .serialized)
  struct HTMLScreenshotTests {
    @Test(
      "fresh screenshots show what the DOM says: the menu strip and its lines, the selection, the photo, the back button",
      .timeLimit(.minutes(3)))
    func screenshots() throws {
      let directory = TemporaryDirectory()
      let script = try run(
        repositoryRoot + "/Tools/screenshots", [directory.path],
        environment: ["REWIND": rewindBinary, "PATH": "/usr/bin:/bin", "HOME": directory.path])
      #expect(script.status == 0, "\(script.stderr)")
      let browser = try HeadlessChromium()
      defer { browser.close() }
      let reader = ScreenshotReader(tab: try browser.newPage())

      for (journal, point) in [("ipad-three-column", 13), ("iphone-compact", 9)] {
        #expect(try reader.load(directory.file("\(journal).png")) == [1280, 860])
        // The same page at the same size, for the DOM's boxes.
        let page = try writePage(
          sample("\(journal).journal"), in: directory, name: "\(journal).html")
        let tab = try browser.newPage(width: 1280, height: 860)
        try tab.open(page.url + "#at=\(point)")
        #expect(try tab.number("window.scrollY") == 0)
        func box(_ selector: String) throws -> [Double] {
          let box = try tab.box(selector)
          return [box.x, box.y, box.width, box.height]
        }
        func text(_ selector: String) throws -> [String] {
          try tab.evaluate(
            "[...document.querySelectorAll(\(literal(selector)))].map((e) => e.textContent)")
            as? [String] ?? []
        }

        // The menu strip: black around white labels; the selected label's line white, the
        // others' gray, where the DOM has them.
        let menu = try box(".nav-menu")
        let strip = try reader.measure([menu[0], menu[1], menu[2], menu[3] * 0.6])
        #expect(strip.black > 0.7 && strip.white > 0.005, "\(journal) strip: \(strip)")
        #expect(try text(".nav-tab.selected .nav-tab-label") == ["Monday"])
        let selected = try reader.measure(try box(".nav-tab.selected .nav-tab-line"))
        // At least one whole row of white pixels (the line may fall across three rows).
        #expect(
          selected.white >= 0.3 && selected.black == 0, "\(journal) selected line: \(selected)")
        let other = try reader.measure(try box(".nav-tab:not(.selected) .nav-tab-line"))
        #expect(other.gray > 0.6 && other.white == 0, "\(journal) other line: \(other)")
        // The selected rows are the seeds' blue; the first title is dark text on white.
        for (index, _) in try text(".nav-row.selected").enumerated() {
          let row =
            try tab.evaluate(
              "(() => { const r = document.querySelectorAll('.nav-row.selected')[\(index)].getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; })()"
            ) as? [Double] ?? [0, 0, 1, 1]
          let selection = try reader.measure(row, inset: 2)
          #expect(selection.blue > 0.5, "\(journal) selected row \(index): \(selection)")
        }
        let title = try reader.measure(try box(".nav-title"))
        #expect(title.black > 0.01 && title.white > 0.3, "\(journal) title: \(title)")

        if journal == "ipad-three-column" {
          #expect(try text(".nav-title") == ["Espresso", "Espresso Machines", "Linea Classic"])
          #expect(try text(".nav-row.selected") == ["Espresso Machines", "Linea Classic"])
          let photo = try reader.measure(try box(".nav-picture"), inset: 3)
          #expect(photo.coloured > 0.2 && photo.black == 0, "photo: \(photo)")
          #expect(try text(".nav-caption") == ["linea-classic"])
          let caption = try reader.measure(try box(".nav-caption"))
          #expect(caption.white > 0.5 && caption.white < 0.98, "caption: \(caption)")
        } else {
          #expect(try text(".nav-title") == ["Espresso Machines"])
          #expect(try text(".nav-back") == ["‹ Espresso"])
          let back = try reader.measure(try box(".nav-back"))
          #expect(back.coloured > 0.03 && back.white > 0.5, "back button: \(back)")
          // One column, as wide as the screen.
          #expect(try box(".nav-column")[2] == (try box(".nav-screen"))[2])
        }
        tab.expectQuiet(page.url + "#at=\(point)")
        try tab.send("Page.close")
      }
    }
  }
#endif
