#if canImport(Glibc)
  import Foundation
  import Navigation
  import RewindCore
  import RewindJournal
  import TestSupport
  import Testing

  /// Writes the page of `journal` with the built `rewind` and returns its path and
  /// `file://` URL.
  func writePage(
    _ journal: String, in directory: TemporaryDirectory, name: String = "page.html",
    extra: [String] = [], sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> (path: String, url: String) {
    let path = directory.file(name)
    let result = try rewind(["html", journal, "-o", path, "--force"] + extra)
    #expect(result.status == 0, "\(result.stderr)", sourceLocation: sourceLocation)
    return (path, URL(fileURLWithPath: path).absoluteString)
  }

  /// A string as a JavaScript literal.
  func literal(_ text: String) -> String {
    let data = try! JSONSerialization.data(
      withJSONObject: [text], options: [.withoutEscapingSlashes])
    return String(String(decoding: data, as: UTF8.self).dropFirst().dropLast())
  }

  /// The time (microseconds from the start) of every event of a journal, by sequence.
  func eventTimes(_ journal: String) throws -> [UInt64] {
    let log = try rewind("log", journal, "--json")
    var times: [UInt64] = [0]
    for line in log.lines {
      times.append(UInt64(try parseObject(line)["time_us"] as? Int ?? -1))
    }
    return times
  }

  /// Whether two values Foundation parsed from JSON are the same JSON.
  func sameJSON(_ a: Any, _ b: Any) throws -> Bool {
    let options: JSONSerialization.WritingOptions = [.sortedKeys, .fragmentsAllowed]
    return try JSONSerialization.data(withJSONObject: a, options: options)
      == JSONSerialization.data(withJSONObject: b, options: options)
  }

  extension BrowserPage {
    /// The sequence number of the cursor.
    func cursor() throws -> Int { Int(try number("window.rewind.position().sequence")) }

    /// Checks what every page must: it asked for nothing but itself, and reported no error
    /// (an exception, a console error, a Content-Security-Policy violation).
    func expectQuiet(_ url: String, sourceLocation: SourceLocation = #_sourceLocation) {
      #expect(requests.count == 1, "requests: \(requests)", sourceLocation: sourceLocation)
      #expect(
        requests.first.map { $0.hasPrefix("file://") } ?? false, sourceLocation: sourceLocation)
      // The network log has the address without its fragment (`#at=…`).
      let address = url.split(separator: "#", maxSplits: 1).first.map(String.init)
      #expect(requests.first == address, "\(requests)", sourceLocation: sourceLocation)
      #expect(errors.isEmpty, "\(errors)", sourceLocation: sourceLocation)
    }
  }

  @Suite("rewind html: pages in headless Chromium", .serialized)
  struct HTMLPageTests {
    @Test(
      "at random points the page shows exactly the state `rewind state --at P --json` prints",
      .timeLimit(.minutes(4)))
    func statesAtRandomPoints() throws {
      let seed = testSeed("HTMLPageTests.statesAtRandomPoints")
      var random = SplitMix64(seed: seed)
      let directory = TemporaryDirectory()
      let generated = directory.file("generated.journal")
      let generate = try rewind(
        "generate", "-o", generated, "--events", "2500", "--seed", String(seed % 1_000_000),
        "--snapshot-interval", "256")
      #expect(generate.status == 0, "\(generate.stderr)")
      // The generated session has 50 points; a page of a part of it, and every sample
      // (one of schema 1, read upcast), a few each.
      let cases: [(journal: String, range: [String], points: Int)] = [
        (generated, [], 50), (generated, ["--from", "700", "--to", "+20m"], 8),
        (sample("ipad-three-column.journal"), [], 8), (sample("iphone-compact.journal"), [], 8),
        (sample("two-column.journal"), [], 6), (sample("day-menu.journal"), [], 6),
        (sample("rejected-interactions.journal"), [], 6),
        (sample("schema1/day-menu.journal"), [], 6),
      ]
      let browser = try HeadlessChromium()
      defer { browser.close() }
      for (index, (journal, range, points)) in cases.enumerated() {
        let page = try writePage(journal, in: directory, name: "page\(index).html", extra: range)
        let tab = try browser.newPage()
        try tab.open(page.url)
        let info = try parseObject(try rewind("info", journal, "--json").stdout)
        let last = info["lastSequence"] as? Int ?? 0
        let duration = info["durationMicroseconds"] as? Int ?? 0
        let times = try eventTimes(journal)
        // The page's points: all of them, or those of its part.
        var first = 0
        var end = last
        if !range.isEmpty {
          first = 700
          end = times.lastIndex { $0 <= 20 * 60_000_000 } ?? last
          #expect(try tab.cursor() == first)
        }
        for _ in 0..<points {
          let point: String
          // An event whose time, as the page and `rewind log` show it, is the point.
          var shownEvent: Int?
          switch random.next() % 10 {
          case 0: point = random.next() % 2 == 0 ? "end" : String(first)
          case 4 where end > first:
            let event = first + 1 + Int(random.next() % UInt64(end - first))
            shownEvent = event
            point = Format.offset(times[event])
          case 1...3:
            let low = Int(times[first])
            let high = range.isEmpty ? duration + duration / 10 + 1 : Int(times[end])
            point = "+\(Int(random.next() % UInt64(max(high - low, 1))) + low)us"
          default: point = String(first + Int(random.next() % UInt64(end - first + 1)))
          }
          let expected = try rewind("state", journal, "--at", point, "--json")
          #expect(expected.status == 0, "\(expected.stderr)")
          let position = try tab.evaluate("window.rewind.seek(\(literal(point))).sequence") as? Int
          if let sequence = Int(point) { #expect(position == sequence) }
          // A time as shown leads back to its event, or the last one shown at it.
          if let event = shownEvent {
            let last = (event...end).last { Format.offset(times[$0]) == point }
            #expect(position == last, "\(point)")
          }
          let shown = try tab.string("window.rewind.shownState()")
          #expect(
            shown + "\n" == expected.stdout,
            "\(journal) \(range) at \(point) (seed \(seed)): the page shows\n\(shown)")
        }
        tab.expectQuiet(page.url)
        try tab.send("Page.close")
      }
    }

    /// A page of a range took a time before its first point for its first point, and one
    /// past its last for its last, without a word: the state shown was not the one
    /// `rewind state --at TIME` prints.
    @Test(
      "a page of a range refuses a time outside it, as it refuses a sequence number",
      .timeLimit(.minutes(2)))
    func timesOutsideARange() throws {
      let directory = TemporaryDirectory()
      let journal = directory.file("generated.journal")
      #expect(try rewind("generate", "-o", journal, "--events", "2500", "--seed", "7").status == 0)
      let times = try eventTimes(journal)
      #expect(times[699] < times[700] && times[1500] < times[1501])
      let page = try writePage(journal, in: directory, extra: ["--from", "700", "--to", "1500"])
      let browser = try HeadlessChromium()
      defer { browser.close() }
      let tab = try browser.newPage()
      try tab.open(page.url)
      func seek(_ point: String) throws -> String {
        try tab.string(
          "(() => { try { return String(window.rewind.seek(\(literal(point))).sequence) } catch (error) { return error.message } })()"
        )
      }
      // Times as the page says them: to the millisecond, or the microsecond where that
      // tells them apart.
      func said(_ times: UInt64...) -> [String] {
        let shown = times.map { Format.offset($0) }
        guard Set(shown).count < shown.count else { return shown }
        return times.map {
          $0 < 1_000_000
            ? "+\($0)us" : "+\($0 / 1_000_000)." + String(format: "%06d", $0 % 1_000_000) + "s"
        }
      }
      #expect(try seek("+\(times[700])us") == "700")
      #expect(try seek("+\(times[1501] - 1)us") == "1500")
      // A compound offset, read as the tools read it.
      #expect(try seek("+\(times[900] / 60_000_000)m \(times[900] % 60_000_000)us") == "900")
      let before = said(times[700] - 1, times[700])
      #expect(
        try seek("+\(times[700] - 1)us")
          == "\(before[0]) is before this page (its first point, event 700, is at \(before[1]))")
      let after = said(times[1501], times[1500], times[1501])
      #expect(
        try seek("+\(times[1501])us")
          == "\(after[0]) is after this page (its last point is event 1500, at \(after[1]); event 1501, not in it, is at \(after[2]))"
      )
      #expect(
        try seek("2020-01-01T00:00:00Z").hasPrefix(
          "a time before the session's start is before this page"))
      // By address: the cursor stays, and the position line says why.
      try tab.evaluate("window.rewind.seek(900)")
      try tab.evaluate("location.hash = '#at=+0s'")
      try tab.nextFrame()
      #expect(try tab.cursor() == 900)
      #expect(
        try tab.string("document.getElementById('position').textContent").hasPrefix(
          "The address names no point of this page: +0.000s is before this page"))
      // The position counts the session's events, not the page's (it said "of 1500").
      try tab.evaluate("window.rewind.seek(1500)")
      try tab.nextFrame()
      #expect(
        try tab.string("document.getElementById('position').textContent").hasPrefix(
          "Event 1500 of 2500 at "))
      // A match at the page's start reads as `rewind find` writes one at its search's start.
      try tab.evaluate(
        "document.getElementById('find-input').value = 'menu.viewportWidth > 0'; document.getElementById('find-form').requestSubmit()"
      )
      try tab.nextFrame()
      #expect(
        try tab.string("document.querySelector('#find-matches .match-place')?.textContent ?? ''")
          == "at event 700 (the page's start)")
      // The timeline's outcome band: rejected events (553 of 200,000) show at the bottom
      // of their columns, not as whole red columns (which made a session of few
      // rejections look mostly rejected).
      let large = try writePage(
        sample("generated-200k.journal"), in: directory, name: "large.html")
      tab.expectQuiet(page.url)
      let largeTab = try browser.newPage()
      try largeTab.open(large.url)
      let band = try largeTab.string(
        """
        (() => {
          const canvas = document.querySelector('#scrubber canvas');
          const context = canvas.getContext('2d');
          const { width, height } = canvas;
          const red = (y) => Array.from({ length: width }, (_, x) => context.getImageData(x, y, 1, 1).data)
            .filter(([r, g, b, a]) => a > 0 && r > 200 && g < 80 && b < 80).length;
          return `${red(Math.round(height * 0.6))} ${red(height - 1)}`;
        })()
        """)
      let (top, bottom) = (
        Int(band.split(separator: " ")[0]) ?? -1, Int(band.split(separator: " ")[1]) ?? -1
      )
      #expect(bottom > 100 && top == 0, "red columns at the band's top and bottom: \(band)")
      largeTab.expectQuiet(large.url)
    }

    @Test(
      "every event of a page is the line `rewind log --json` prints for it; a page of another format is refused",
      .timeLimit(.minutes(3)))
    func eventsAsLogLines() throws {
      let seed = testSeed("HTMLPageTests.eventsAsLogLines")
      var random = SplitMix64(seed: seed)
      let directory = TemporaryDirectory()
      let generated = directory.file("generated.journal")
      let generate = try rewind(
        "generate", "-o", generated, "--events", String(1_000 + random.next() % 2_000), "--seed",
        String(seed % 1_000_000), "--snapshot-interval", "300")
      #expect(generate.status == 0, "\(generate.stderr)")
      let from = Int(random.next() % 500)
      let cases: [(journal: String, range: [String])] = [
        (generated, []), (generated, ["--from", String(from), "--to", String(from + 400)]),
        (sample("rejected-interactions.journal"), []), (sample("schema1/day-menu.journal"), []),
      ]
      let browser = try HeadlessChromium()
      defer { browser.close() }
      for (index, (journal, range)) in cases.enumerated() {
        let page = try writePage(journal, in: directory, name: "page\(index).html", extra: range)
        let log = try rewind("log", journal, "--json")
        #expect(log.status == 0, "\(log.stderr)")
        let lines = log.lines
        let first = range.isEmpty ? 1 : from + 1
        let last = range.isEmpty ? lines.count : from + 400
        let tab = try browser.newPage()
        try tab.open(page.url)
        let shown =
          try tab.evaluate(
            "Array.from({ length: \(last - first + 1) }, (_, index) => window.rewind.event(\(first) + index))"
          ) as? [String] ?? []
        #expect(shown.count == last - first + 1, "\(journal) \(range)")
        // The schema as `rewind info` says it: a journal of schema 1 is read as schema 2.
        let facts = try tab.string("document.getElementById('session-facts').textContent")
        let schema =
          journal.hasSuffix("schema1/day-menu.journal")
          ? "navigation (schema 1, read as 2)" : "navigation (schema 2)"
        #expect(facts.contains(schema), "\(facts)")
        for (offset, line) in shown.enumerated() where line != lines[first - 1 + offset] {
          Issue.record(
            "\(journal) \(range), event \(first + offset) (seed \(seed)): the page has\n\(line)\nrewind log --json prints\n\(lines[first - 1 + offset])"
          )
          break
        }
        if index == 0 {
          // Data that is not what the page announces: refused, each with a message. `rows`
          // are bytes: an event's four numbers, each one byte here (a varint below 128).
          func refusal(_ text: String, rows: [UInt8] = []) throws -> String {
            try tab.string(
              """
              (() => {
                const text = new TextEncoder().encode(\(literal(text)));
                const data = new Uint8Array(text.length + \(rows.count));
                data.set(text);
                data.set([\(rows.map(String.init).joined(separator: ","))], text.length);
                try { new RewindPage.Session(data); return "read"; } catch (error) { return error.message; }
              })()
              """)
          }
          #expect(
            try refusal(#"{"page":{"format":2}}"# + "\n{}") == "the page's data has format 2, not 3"
          )
          let tables = ["[0]", #"{"event":"a"}"#, "[]", #""no""#, "{}", ""]
          func data(rows: Int) -> String {
            let meta =
              #"{"page":{"format":3,"from":0,"to":2,"fromTime":0,"events":2,"rows":\#(rows),"kinds":["a"],"keyframeInterval":256,"keyframes":1,"counts":{"applied":1,"unchanged":0,"rejected":1},"tables":{"bodies":1,"changes":1,"reasons":1},"fields":[]}}"#
            return ([meta, #"{"header":{}}"#] + tables).joined(separator: "\n")
          }
          let malformed: [(rows: [UInt8], message: String)] = [
            // One reason, as the counts say, but no rejected event among the codes.
            ([0, 0, 0, 0, 0, 0, 0, 0], "the page's data has 0 rejected events but 1 reasons"),
            // Two rejected events among the codes, one reason.
            ([0, 2, 0, 0, 0, 2, 0, 0], "the page's data has 2 rejected events but 1 reasons"),
            // A kind that is not in `kinds`.
            (
              [0, 0, 0, 0, 0, 5, 0, 0],
              "the page's data does not hold the tables and keyframes it announces"
            ),
            // An event without its last number; one with a number more.
            ([0, 0, 0, 0, 0, 2, 0], "the page's data does not hold the events it announces"),
            ([0, 0, 0, 0, 0, 2, 0, 0, 0], "the page's data does not hold the events it announces"),
            // A varint that does not end.
            (
              [0, 0, 0, 0, 0, 2, 0, 0x80, 0x80],
              "the page's data does not hold the events it announces"
            ),
          ]
          for (rows, message) in malformed {
            #expect(try refusal(data(rows: rows.count), rows: rows) == message, "\(rows)")
          }
          #expect(
            try refusal(data(rows: 4_000), rows: [0, 2, 0, 0, 0, 0, 0, 0])
              == "the page's data does not hold the rows it announces")
          #expect(try refusal(data(rows: 8), rows: [0, 2, 0, 0, 0, 0, 0, 0]) == "read")
        }
        tab.expectQuiet(page.url)
        try tab.send("Page.close")
      }
    }

    @Test(
      "clicking an event, ←/→, the buttons and dragging the scrubber move the cursor where they should",
      .timeLimit(.minutes(2)))
    func interactions() throws {
      let directory = TemporaryDirectory()
      let journal = sample("ipad-three-column.journal")
      let page = try writePage(journal, in: directory)
      let times = try eventTimes(journal)
      let browser = try HeadlessChromium()
      defer { browser.close() }
      let tab = try browser.newPage()
      try tab.open(page.url)
      #expect(try tab.cursor() == 0)

      // Clicking an event in the list goes there; a row out of view is scrolled to first.
      try tab.click("#event-7")
      #expect(try tab.cursor() == 7)
      #expect(try tab.string("document.activeElement.id") == "event-list")
      try tab.evaluate("document.getElementById('event-list').scrollTop = 1e6")
      try tab.nextFrame()
      try tab.click("#event-30")
      #expect(try tab.cursor() == 30)
      #expect(
        try tab.evaluate("document.getElementById('event-30').getAttribute('aria-selected')")
          as? String == "true")

      // The arrow keys step by event, in the list and anywhere else on the page.
      try tab.press("ArrowLeft")
      try tab.press("ArrowLeft")
      #expect(try tab.cursor() == 28)
      try tab.evaluate("document.activeElement.blur()")
      try tab.press("ArrowRight")
      #expect(try tab.cursor() == 29)
      try tab.press("Home")
      #expect(try tab.cursor() == 0)
      try tab.press("ArrowLeft")
      #expect(try tab.cursor() == 0)
      try tab.press("End")
      #expect(try tab.cursor() == 32)
      try tab.press("ArrowRight")
      #expect(try tab.cursor() == 32)
      try tab.click("#first")
      try tab.click("#next")
      try tab.click("#next")
      #expect(try tab.cursor() == 2)
      try tab.click("#previous")
      #expect(try tab.cursor() == 1)
      try tab.click("#last")
      #expect(try tab.cursor() == 32)
      #expect(
        try tab.string("document.getElementById('position').textContent").hasPrefix(
          "Event 32 of 32"))

      // Dragging the scrubber: the cursor is the last event at or before the time under
      // the pointer. Targets in the middle of gaps of 6 pixels or more between events.
      let box = try tab.box("#scrubber")
      let span = Double(times.last!)
      func x(_ time: Double) -> Double { box.x + time / span * box.width }
      var targets: [(time: Double, sequence: Int)] = []
      for sequence in 1..<(times.count - 1)
      where x(Double(times[sequence + 1])) - x(Double(times[sequence])) >= 6 {
        targets.append(((Double(times[sequence]) + Double(times[sequence + 1])) / 2, sequence))
      }
      #expect(targets.count >= 6)
      let y = box.y + box.height / 2
      var from = (x: x(0) + 1, y: y)
      for target in targets.enumerated().filter({ $0.offset % 3 == 0 }).map(\.element) {
        try tab.drag(from: from, to: (x(target.time), y))
        #expect(try tab.cursor() == target.sequence, "dragged to \(target.time) µs")
        from = (x(target.time), y)
      }
      // Turning the iPad (events 27 and 31) moved nothing around the screen.
      let after = try tab.box("#scrubber")
      #expect(after.x == box.x && after.y == box.y && after.width == box.width)
      // A click on the scrubber goes there too, and leaves the focus on it for the keys.
      let click = targets[targets.count / 2]
      try tab.click(x: x(click.time), y: y)
      #expect(try tab.cursor() == click.sequence)
      #expect(try tab.string("document.activeElement.id") == "scrubber")
      try tab.press("ArrowRight")
      #expect(try tab.cursor() == click.sequence + 1)
      // The address follows the cursor once it rests: it names the point shown.
      try expectAddress("#at=\(click.sequence + 1)", on: tab)
      #expect(
        try tab.evaluate("document.getElementById('scrubber').getAttribute('aria-valuenow')")
          as? String == String(click.sequence + 1))
      // Past either end: the page's first point, the start (before the events at +0s,
      // which a position in the box reaches), and the last point.
      try #require(times[1] == 0)
      try tab.drag(from: (x(click.time), y), to: (box.x - 40, y))
      #expect(try tab.cursor() == 0)
      try tab.click(x: box.x + 1, y: y)
      #expect(try tab.cursor() >= times.lastIndex { $0 == 0 }!)
      try tab.drag(from: (box.x, y), to: (box.x + box.width + 40, y))
      #expect(try tab.cursor() == 32)
      // A click on the right-most pixel (the scrubber's border), on the last column of
      // ticks (where events 31 and 32, at the end, are drawn) or just past the right end
      // goes to the last point, as one just past the left end goes to the start. (The
      // right-most pixel gave event 30: the time a pixel before the end.) A few pixels in,
      // a click is at the time under it.
      let right = box.x + box.width
      for (clickX, expected) in [
        (right - 1, 32), (right - 2, 32), (right + 3, 32), (box.x - 3, 0),
        (right - 6, times.lastIndex { Double($0) <= (box.width - 6) / box.width * span }!),
      ] {
        try tab.evaluate("window.rewind.seek(5)")
        try tab.click(x: clickX, y: y)
        #expect(try tab.cursor() == expected, "a click at \(clickX - box.x) px of \(box.width)")
      }

      // The address names a point: #at=+30s is the last event at or before 30 s.
      try tab.evaluate("location.hash = '#at=+30s'")
      try tab.nextFrame()
      #expect(try tab.cursor() == times.lastIndex { $0 <= 30_000_000 })
      // An address that stands for the cursor stays as written.
      usleep(600_000)
      #expect(try tab.string("location.hash") == "#at=+30s")
      // end-N is N events before the page's last point, by address or by script.
      try tab.evaluate("location.hash = '#at=end-1'")
      try tab.nextFrame()
      #expect(try tab.cursor() == 31)
      #expect(try tab.evaluate("window.rewind.seek('end-32').sequence") as? Int == 0)
      try tab.evaluate("location.hash = '#at=+30s'")
      try tab.nextFrame()
      // One that names no point of the page (or is not even text: a lone `%E0`; or a
      // time whose UTC offset is no time of day) leaves the cursor where it is and says so.
      for bad in [
        "zzz", "%E0%A4", "2026-11-30T15:05:00-99:00", "2026-11-30T15:05:00+01:60", "end-33",
      ] {
        try tab.evaluate("location.hash = '#at=\(bad)'")
        try tab.nextFrame()
        #expect(try tab.cursor() == times.lastIndex { $0 <= 30_000_000 })
        #expect(
          try tab.string("document.getElementById('position').textContent").hasPrefix(
            "The address names no point of this page: "), "#at=\(bad)")
        // The address stays as typed until the cursor moves.
        usleep(400_000)
        #expect(try tab.string("location.hash") == "#at=\(bad)")
      }
      try tab.evaluate("location.hash = '#at=%E0%A4'")
      try tab.nextFrame()
      #expect(
        try tab.string("document.getElementById('position').textContent")
          == "The address names no point of this page: '%E0%A4' is not text: in an address, a % and two hexadecimal digits stand for a byte of UTF-8"
      )

      // Play at ×32 from the start reaches the end (67 s of session in about 2 s).
      try tab.evaluate(
        "const speed = document.getElementById('speed'); speed.value = '32'; speed.dispatchEvent(new Event('change'))"
      )
      try tab.click("#first")
      try tab.click("#play")
      #expect(
        try tab.string("document.getElementById('play').getAttribute('aria-pressed')") == "true")
      let deadline = Date().addingTimeInterval(20)
      var seen = Set<Int>()
      var addresses = Set<String>()
      while Date() < deadline, try tab.cursor() < 32 {
        seen.insert(try tab.cursor())
        addresses.insert(try tab.string("location.hash"))
        usleep(50_000)
      }
      #expect(try tab.cursor() == 32)
      #expect(seen.count > 2, "playing passes through the points: \(seen.sorted())")
      // The address is not written while playing (browsers limit how often it changes); at
      // the end, it is.
      #expect(addresses == ["#at=%E0%A4"])
      try expectAddress("#at=32", on: tab)
      #expect(
        try tab.string("document.getElementById('play').getAttribute('aria-pressed')") == "false")
      tab.expectQuiet(page.url)

      // A page opened at an address that names no point opens at its start, saying so
      // (it was replaced by "This page cannot be shown").
      try tab.open("about:blank")
      try tab.open(page.url + "#at=zzz")
      #expect(try tab.cursor() == 0)
      #expect(
        try tab.string("document.getElementById('position').textContent").hasPrefix(
          "The address names no point of this page: "))
      #expect(try tab.number("document.querySelectorAll('p.error').length") == 0)
    }

    /// Waits up to 3 seconds for the page's address to end in `fragment`.
    private func expectAddress(
      _ fragment: String, on tab: BrowserPage, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
      let deadline = Date().addingTimeInterval(3)
      var address = try tab.string("location.hash")
      while address != fragment, Date() < deadline {
        usleep(50_000)
        address = try tab.string("location.hash")
      }
      #expect(address == fragment, sourceLocation: sourceLocation)
    }

    /// The box of a list item's marker (its number, as the browser's DevTools have it), of
    /// the first line of its first element's text and of that element.
    private func markerAndFirstLine(of selector: String, on tab: BrowserPage) throws -> (
      marker: (y: Double, height: Double), firstLine: (y: Double, height: Double),
      button: (y: Double, height: Double)
    ) {
      let document = try tab.send("DOM.getDocument", ["depth": 0])
      let root = (document["root"] as? [String: Any])?["nodeId"] as? Int ?? 0
      let item = try tab.send("DOM.querySelector", ["nodeId": root, "selector": selector])
      let described = try tab.send("DOM.describeNode", ["nodeId": item["nodeId"] ?? 0, "depth": 1])
      let pseudo =
        (described["node"] as? [String: Any])?["pseudoElements"] as? [[String: Any]] ?? []
      let marker = try #require(pseudo.first { $0["pseudoType"] as? String == "marker" })
      let model = try tab.send("DOM.getBoxModel", ["backendNodeId": marker["backendNodeId"] ?? 0])
      let quad =
        ((model["model"] as? [String: Any])?["border"] as? [NSNumber])?.map(\.doubleValue) ?? []
      try #require(quad.count == 8)
      let boxes = try #require(
        try tab.evaluate(
          """
          (() => { const element = document.querySelector(\(literal(selector))).firstElementChild;
            const line = element.getClientRects()[0];
            const range = document.createRange();
            range.selectNodeContents(element);
            const first = range.getClientRects()[0];
            return [first.top, first.height, line.top, line.height]; })()
          """) as? [NSNumber])
      return (
        (quad[1], quad[5] - quad[1]), (boxes[0].doubleValue, boxes[1].doubleValue),
        (boxes[2].doubleValue, boxes[3].doubleValue)
      )
    }

    /// The matches the find box lists after typing `condition` and pressing Enter, or its
    /// message when it refuses it.
    private func findInBox(_ condition: String, on tab: BrowserPage) throws -> (
      matches: [Int], status: String
    ) {
      try tab.evaluate("document.getElementById('find-input').value = ''")
      try tab.click("#find-input")
      try tab.type(condition)
      try tab.press("Enter")
      let matches =
        try tab.evaluate(
          "[...document.querySelectorAll('#find-matches button.match')].map((b) => Number(b.dataset.sequence))"
        ) as? [Int] ?? []
      return (matches, try tab.string("document.getElementById('find-status').textContent"))
    }

    @Test(
      "the event list keeps the cursor's row in view through resizes of a 200,000-event page, its rows never overlapping",
      .timeLimit(.minutes(2)))
    func eventListThroughResizes() throws {
      let directory = TemporaryDirectory()
      let page = try writePage(sample("generated-200k.journal"), in: directory)
      let browser = try HeadlessChromium()
      defer { browser.close() }
      let tab = try browser.newPage()
      try tab.open(page.url)
      for point in [100_000, 199_990] {
        try tab.evaluate("window.rewind.seek(\(point))")
        for width in [1000, 1200, 900, 1280] {
          try tab.resize(width: width, height: 900)
          try tab.nextFrame()
          try tab.nextFrame()
          // The cursor's row exists and lies within the list's box.
          let inView =
            try tab.evaluate(
              """
              (() => {
                const row = document.getElementById('event-\(point)');
                if (!row) return false;
                const list = document.getElementById('event-list').getBoundingClientRect();
                const box = row.getBoundingClientRect();
                return box.top >= list.top - 1 && box.bottom <= list.bottom + 1;
              })()
              """) as? Bool
          #expect(inView == true, "event \(point) at width \(width)")
        }
      }
      // Rows are as tall as they are apart, their text within them: none overlaps the next
      // (measured near the list's top, where boxes read exactly).
      try tab.evaluate("window.rewind.seek(3)")
      try tab.nextFrame()
      let rows =
        try tab.evaluate(
          """
          [...document.querySelectorAll('#event-list .event-row')]
            .sort((a, b) => Number(a.dataset.sequence) - Number(b.dataset.sequence))
            .map((row) => [row.getBoundingClientRect().top, row.getBoundingClientRect().height,
                           row.scrollHeight <= row.clientHeight + 0.5])
          """) as? [[Any]] ?? []
      #expect(rows.count > 10)
      for (row, next) in zip(rows, rows.dropFirst()) {
        let top = row[0] as? Double ?? 0
        let height = row[1] as? Double ?? 0
        #expect(abs((next[0] as? Double ?? 0) - (top + height)) < 0.01, "\(row) then \(next)")
        #expect(row[2] as? Bool == true, "a row's text overflows it: \(row)")
      }
    }

    @Test(
      "playback keeps its clock through a change of speed; the script interface names events outside the page; Esc leaves the find box; a match reads as rewind find's line",
      .timeLimit(.minutes(2)))
    func playbackAndMessages() throws {
      let directory = TemporaryDirectory()
      let journal = sample("ipad-three-column.journal")
      let times = try eventTimes(journal)
      #expect(times[12] == 24_500_000 && times[13] == 30_800_000)
      let page = try writePage(journal, in: directory)
      let browser = try HeadlessChromium()
      defer { browser.close() }
      let tab = try browser.newPage()
      try tab.open(page.url)
      // Playing from event 12 at ×1 for 4 s, then at ×2: event 13 comes about 1.15 s later
      // ((30.8 − 28.5) / 2), not 3.15 s (the clock sent back to event 12's time).
      try tab.evaluate("window.rewind.seek(12)")
      try tab.click("#play")
      Thread.sleep(forTimeInterval: 4)
      #expect(try tab.cursor() == 12)
      try tab.evaluate(
        "(() => { const speed = document.getElementById('speed'); speed.value = '2'; speed.dispatchEvent(new Event('change')); })()"
      )
      let switched = Date()
      while try tab.cursor() < 13, Date().timeIntervalSince(switched) < 6 {
        Thread.sleep(forTimeInterval: 0.05)
      }
      let waited = Date().timeIntervalSince(switched)
      #expect(waited < 2.5, "event 13 came \(waited) s after the change of speed")
      try tab.click("#play")

      // `event(N)` of a point that is no event of the page says so, as `seek` does.
      for (argument, message) in [
        ("0", "0 is not an event of this page (its events are 1–32)"),
        ("33", "33 is not an event of this page (its events are 1–32)"),
        ("1.5", "1.5 is not an event of this page (its events are 1–32)"),
      ] {
        #expect(
          try tab.string(
            "(() => { try { window.rewind.event(\(argument)); return 'no error'; } catch (error) { return error.message; } })()"
          ) == message)
      }

      // Esc in the find box gives the keys back to the player.
      try tab.click("#find-input")
      try tab.press("Escape")
      #expect(try tab.string("document.activeElement.id") == "scrubber")
      try tab.press("ArrowRight")
      #expect(try tab.cursor() == 14)

      // A match reads as `rewind find` prints it: the event, and a value only for a
      // condition that names a field.
      let rejected = sample("rejected-interactions.journal")
      let other = try writePage(rejected, in: directory, name: "rejected.html")
      let rejectedTab = try browser.newPage()
      try rejectedTab.open(other.url)
      for condition in ["outcome == rejected", "changed(split.selectedItem)"] {
        let box = try findInBox(condition, on: rejectedTab)
        let first = try rejectedTab.string(
          "document.querySelector('#find-matches button.match').textContent")
        let line = try rewind("find", rejected, "--where", condition).lines[1]
        #expect(
          first
            == line.trimmingCharacters(in: .whitespaces).replacingOccurrences(
              of: "  → ", with: " → "),
          "\(condition)")
        #expect(box.status.hasSuffix(" holds."), "\(box.status)")
      }
      rejectedTab.expectQuiet(other.url)

      // A part of no event says what it shows.
      let empty = try writePage(
        journal, in: directory, name: "empty.html", extra: ["--from", "5", "--to", "5"])
      try tab.open(empty.url)
      #expect(
        try tab.string("document.getElementById('session-facts').textContent").contains(
          "Partthe state after event 5, no event (of 32)"))
    }

    @Test(
      "the find box's messages quote a long value cut short and escape control characters, as `rewind find` does",
      .timeLimit(.minutes(2)))
    func findMessagesQuoted() throws {
      let directory = TemporaryDirectory()
      let journal = sample("ipad-three-column.journal")
      let page = try writePage(journal, in: directory)
      let browser = try HeadlessChromium()
      defer { browser.close() }
      let tab = try browser.newPage()
      try tab.open(page.url)
      let long = String(repeating: "x", count: 3_000)
      for condition in [
        "split.selectedItem == \(long)", "split.style == \(long)", "split.\(long) == 1",
        "split.style == balanced \(long)", "split.style == \"a\\u0007b\"",
        "split.selectedItem == \"\\u202eevil\"",
      ] {
        let cli = try rewind("find", journal, "--where", condition)
        #expect(cli.status == 64, "\(condition): \(cli.stderr)")
        let message = cli.stderr.split(separator: "\n").first.map(String.init) ?? ""
        let reason = try #require(message.range(of: "': ")).upperBound
        let box = try findInBox(condition, on: tab)
        #expect(
          box.status == "The condition is invalid: " + message[reason...], "\(condition)")
      }
    }

    @Test(
      "the find box finds what `rewind find` finds, and refuses what it refuses",
      .timeLimit(.minutes(3)))
    func findBox() throws {
      let directory = TemporaryDirectory()
      let generated = directory.file("generated.journal")
      #expect(
        try rewind("generate", "-o", generated, "--events", "1500", "--seed", "7").status == 0)
      let cases: [(journal: String, conditions: [String])] = [
        (
          sample("ipad-three-column.journal"),
          [
            "split.selectedItem == espresso-machines/leva", "changed(split.columnVisibility)",
            "split.style != automatic", "split.overlay == true", "menu.viewportWidth == 834",
            #"split.expanded == ["espresso-machines/linea", "espresso-machines/strada"]"#,
            "split.selectedCategory == null", "changed(menu.selectedIndex)",
            "  split.visibleColumns == [\"detail\"]  ", "split.style == Balanced",
            "split.stile == balanced", "split.selectedItem == Leva", #"menu.selectedIndex == "2""#,
            "menu.selectedIndex == 1.5", "menu.selectedIndex == 1.0",
            "menu.selectedIndex == 18446744073709551616",
            "split.style == balanced && menu.selectedIndex == 1", "split.style = balanced",
            "changed(split.style", #"split.selectedItem == "unterminated"#, "split.expanded == [1]",
            "split.expanded == espresso-machines/leva", "", "split..style == x",
            "split.style == balanced extra", "menu.selectedIndex == [1,",
            "split.style == balanced || split.overlay == true && !(menu.selectedIndex < 2)",
            "changed(split.selectedItem) && split.expanded contains espresso-machines/leva",
            "(event == itemSelected || event == backTapped) && outcome != rejected",
            "split.selectedCategory contains machines && menu.viewportWidth >= 800",
            "event == categorySelectd", "split.expanded contains Leva", "split.style < 2",
            "(split.style == balanced", "outcome == rejectd || changed(event)",
            // JavaScript's strict operators, single quotes, and `!(…)` nested as one level
            // each: the page read `===` as == and a value `=balanced`, quoted values as
            // bare words, and `!(` as two levels.
            "split.style === balanced", "split.style !== balanced",
            "split.selectedItem == 'espresso-machines/leva'", "reason == 'not allowed'",
            "split.style == '' || split.style == balanced",
            // A value that only starts with one is a bare word, in both.
            "split.selectedItem == 'leva", "split.style == 'balanced && outcome == applied",
            String(repeating: "!(", count: 40) + "split.style == balanced"
              + String(repeating: ")", count: 40),
            // A boolean field alone is a condition; any other path alone is refused alike.
            "split.overlay", "!split.overlay", "(split.overlay) && split.style != automatic",
            "split.style", "split.overlay || !menu.selectedIndex", "split.expanded", "event",
            "!outcome", "(reason)", "true", "split.overlay && false", "split.overlai",
            "split.overlay true",
            // A menu label is one of the session's, as ids are.
            "menu.labels contains monday", "menu.labels contains Monday",
            "menu.labels contains Mon", #"menu.labels == ["Monday", "tuesday"]"#,
            "menu.labels < 3", "menu.labels",
          ]
        ),
        (
          generated,
          [
            "menu.selectedIndex == 2", "changed(split.sizeClass)", "split.compactColumn == detail",
            "menu.scrollOffset == 0", "split.orientation == portrait",
            "menu.scrollOffset > 100 && !changed(menu.scrollOffset)",
            "changed(split.sizeClass) || menu.selectedIndex >= 3 && event == menuTabTapped",
          ]
        ),
        (
          sample("rejected-interactions.journal"),
          [
            "changed(split.selectedItem)", "split.overlay != false", "outcome == rejected",
            #"reason contains "category" || event == itemExpanded && outcome == unchanged"#,
            "!(outcome == applied) && split.selectedItem != null",
          ]
        ),
      ]
      let browser = try HeadlessChromium()
      defer { browser.close() }
      for (index, (journal, conditions)) in cases.enumerated() {
        let page = try writePage(journal, in: directory, name: "page\(index).html")
        let tab = try browser.newPage()
        try tab.open(page.url)
        for condition in conditions {
          let cli = try rewind("find", journal, "--where", condition, "--all", "--json")
          let box = try findInBox(condition, on: tab)
          if cli.status == 0 {
            let matches = try parseObject(cli.stdout)["matches"] as? [[String: Any]] ?? []
            let expected = matches.map { $0["seq"] as? Int ?? -1 }
            #expect(
              Array(box.matches.prefix(500)) == Array(expected.prefix(500)),
              "\(journal): \(condition): the box lists \(box.matches), rewind find \(expected)")
            // The script interface gives every match with its value, as rewind find does.
            let hits =
              try tab.evaluate("window.rewind.find(\(literal(condition)))") as? [[String: Any]]
              ?? []
            #expect(hits.map { $0["sequence"] as? Int ?? -1 } == expected)
            // A condition on the event alone shows no value: null, not the text "null".
            for (hit, match) in zip(hits, matches) where match["value"] == nil {
              #expect(hit["value"] is NSNull, "\(condition): event \(match["seq"] ?? "")")
            }
            for (hit, match) in zip(hits, matches) where match["value"] != nil {
              let value = try parseJSON(hit["value"] as? String ?? "")
              #expect(
                try sameJSON(value, match["value"] as Any),
                "\(condition): event \(match["seq"] ?? ""): \(value) ≠ \(match["value"] ?? "")")
            }
            if let first = expected.first {
              #expect(try tab.cursor() >= first, "the page went to a match")
            }
          } else {
            #expect(cli.status == 64, "\(cli.stderr)")
            let message = cli.stderr.split(separator: "\n").first.map(String.init) ?? ""
            let prefix = "Error: The value '\(condition)' is invalid for '--where <condition>': "
            #expect(message.hasPrefix(prefix), "\(message)")
            #expect(
              box.status == "The condition is invalid: " + message.dropFirst(prefix.count),
              "\(condition)")
            #expect(box.matches.isEmpty)
          }
        }
        if index == 0 {
          // A match whose text wraps has its number on its first line.
          _ = try findInBox("split.style == balanced", on: tab)
          let lines = try markerAndFirstLine(of: "#find-matches li", on: tab)
          try #require(lines.button.height > lines.firstLine.height * 1.5, "the match wraps")
          #expect(
            abs(
              lines.marker.y + lines.marker.height / 2 - lines.firstLine.y - lines.firstLine.height
                / 2) < 4,
            "the number at \(lines.marker), the first line at \(lines.firstLine)")
          // Enter again on the same condition goes to the next match, and round.
          let changes = try findInBox("changed(split.columnVisibility)", on: tab)
          #expect(changes.matches == [12, 13, 21, 28])
          try tab.evaluate("window.rewind.seek(14)")
          for expected in [21, 28, 12] {
            try tab.click("#find-input")
            try tab.press("Enter")
            #expect(try tab.cursor() == expected)
          }
          try tab.click("#find-previous")
          #expect(try tab.cursor() == 28)
        }
        tab.expectQuiet(page.url)
        try tab.send("Page.close")
      }
    }

    @Test(
      "a hostile journal's ids, names, device and file name show as text and run nothing",
      .timeLimit(.minutes(2)))
    func hostileJournal() throws {
      let directory = TemporaryDirectory()
      let injected = "<script>window.owned=1</script>"
      let image = #""'><img src=x onerror="window.owned=2">"#
      let catalog = try Catalog(
        layout: .threeColumn, menuLabels: ["<b>Mon</b>", "Tue\"s", "</style>Wed"],
        categories: [
          Catalog.Node(
            injected, image: "</script><script>window.owned=3</script>",
            children: [Catalog.Node(image, image: image)]),
          Catalog.Node("Plain"),
        ])
      let domain = NavigationDomain(catalog: catalog)
      let path = directory.file("h<img src=x onerror=window.owned=6>'\"\u{1B}[2J.journal")
      let recorder = try JournalRecorder.create(
        at: path, domain: domain,
        session: SessionInfo(
          startTime: 1_767_225_600_000_000,
          device: "dev </script><script>window.owned=4</script>\u{1B}]0;t\u{07}\u{202E}"),
        options: RecordingOptions(snapshotInterval: 2))
      let hostileID = "</script><script>window.owned=5</script>\u{0}\u{1B}[2J\"'"
      let category = catalog.categories[0]
      _ = try recorder.record(.categorySelected(domain.internedRef(hostileID)), at: 1_000)
      _ = try recorder.record(.categorySelected(category), at: 2_000)
      _ = try recorder.record(.itemSelected(catalog.children(of: category)[0]), at: 3_000)
      _ = try recorder.record(.menuTabTapped(index: 2), at: 4_000)
      _ = try recorder.record(.itemExpanded(domain.internedRef(hostileID)), at: 5_000)
      try recorder.close()

      let page = try writePage(path, in: directory)
      let html = String(decoding: bytes(of: page.path), as: UTF8.self)
      #expect(
        !html.contains("<img") && !html.contains("<script>window"),
        "the markup holds the injected tags")
      let browser = try HeadlessChromium()
      defer { browser.close() }
      let tab = try browser.newPage()
      try tab.open(page.url + "#at=3")
      #expect(try tab.evaluate("typeof window.owned") as? String == "undefined")
      #expect(try tab.number("document.querySelectorAll('script').length") == 2)
      #expect(try tab.number("document.querySelectorAll('img, iframe, object, embed').length") == 0)
      #expect(
        try tab.string("document.title")
          == #"h<img src=x onerror=window.owned=6>'"\u{1B}[2J.journal"#)
      let text = try tab.string("document.body.innerText")
      for shown in [
        injected, image, "<b>Mon</b>", "</style>Wed",
        "dev </script><script>window.owned=4</script>",
      ] {
        #expect(text.contains(shown), "the page does not show \(shown)")
      }
      #expect(text.contains("window.owned=5"), "the event list shows the unknown id")
      for point in ["0", "1", "2", "3", "4", "5"] {
        try tab.evaluate("window.rewind.seek(\(literal(point)))")
        let expected = try rewind("state", path, "--at", point, "--json")
        #expect(
          try tab.string("window.rewind.shownState()") + "\n" == expected.stdout, "at \(point)")
      }
      // The find box takes the hostile id as a value, as rewind find does.
      let find = try findInBox(
        #"split.selectedItem == "\#(image.replacingOccurrences(of: "\"", with: "\\\""))""#, on: tab)
      #expect(find.matches.isEmpty)
      #expect(try tab.evaluate("typeof window.owned") as? String == "undefined")
      tab.expectQuiet(page.url)
    }

    @Test(
      "a journal's control characters and bidi overrides show escaped and reorder none of the page's text",
      .timeLimit(.minutes(2)))
    func controlCharacters() throws {
      let directory = TemporaryDirectory()
      let path = directory.file("c\u{202E}lmth.journal")
      let domain = NavigationDomain()
      let recorder = try JournalRecorder.create(
        at: path, domain: domain,
        session: SessionInfo(
          startTime: 1_767_225_600_000_000, device: "dev\u{1B}]0;t\u{07}\u{202E}ecived"),
        options: RecordingOptions(snapshotInterval: 2))
      // An id without a space or a quote, which the page shows as it is, not as JSON.
      let hostileID = "id\u{202E}live\u{2066}\u{1B}[2J"
      _ = try recorder.record(.categorySelected(domain.internedRef(hostileID)), at: 1_000)
      _ = try recorder.record(.menuTabTapped(index: 2), at: 2_000)
      try recorder.close()

      let page = try writePage(path, in: directory)
      let browser = try HeadlessChromium()
      defer { browser.close() }
      let tab = try browser.newPage()
      try tab.open(page.url + "#at=1")
      // The controls a terminal would obey, written out independently of the page's list.
      let controls =
        #"/[\u0000-\u0009\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/u"#
      for element in ["session-facts", "title", "event-list", "changes-body"] {
        let text = try tab.string("document.getElementById('\(element)').innerText")
        #expect(
          try tab.evaluate("\(controls).test(document.getElementById('\(element)').innerText)")
            as? Bool == false, "#\(element) holds a raw control character: \(text.debugDescription)"
        )
      }
      let changes = try tab.string("document.getElementById('changes-body').innerText")
      #expect(changes.contains("rejected: the id is not in the session's catalog"), "\(changes)")
      let facts = try tab.string("document.getElementById('session-facts').innerText")
      #expect(facts.contains(#"dev\u{1B}]0;t\u{7}\u{202E}ecived"#), "\(facts)")
      #expect(facts.contains(#"c\u{202E}lmth.journal"#), "\(facts)")
      tab.expectQuiet(page.url)
    }

    @Test("the page reads at 200 % zoom, in the light and the dark scheme", .timeLimit(.minutes(2)))
    func zoomAndColourSchemes() throws {
      let directory = TemporaryDirectory()
      let page = try writePage(sample("ipad-three-column.journal"), in: directory)
      let browser = try HeadlessChromium()
      defer { browser.close() }
      let tab = try browser.newPage(width: 640, height: 450)
      try tab.open(page.url + "#at=13")
      // 1280 × 900 at 200 %: one column, nothing scrolls sideways, every panel as wide as the page.
      #expect(try tab.number("document.documentElement.scrollWidth") <= 640)
      let lefts =
        try tab.evaluate(
          "[...document.querySelectorAll('main > .column > section')].map((s) => Math.round(s.getBoundingClientRect().left))"
        ) as? [Int] ?? []
      #expect(lefts.count == 6, "\(lefts)")
      #expect(Set(lefts).count == 1, "\(lefts)")
      let device = try tab.box(".nav-device")
      #expect(device.width <= 640 && device.width > 0.6 * 640, "\(device)")
      // A phone's width (and 400 % zoom): still nothing scrolls sideways.
      try tab.resize(width: 360, height: 640)
      try tab.nextFrame()
      #expect(try tab.number("document.documentElement.scrollWidth") <= 360)
      try tab.resize(width: 640, height: 450)
      try tab.nextFrame()
      func luminance(_ expression: String) throws -> Double {
        let colour = try tab.string("getComputedStyle(\(expression)).backgroundColor")
        let parts = colour.split { !$0.isNumber }.compactMap { Double($0) }
        return (parts[0] + parts[1] + parts[2]) / 765
      }
      try tab.send(
        "Emulation.setEmulatedMedia",
        ["features": [["name": "prefers-color-scheme", "value": "light"]]])
      #expect(try luminance("document.body") > 0.8)
      #expect(try luminance("document.querySelector('.nav-menu')") == 0)
      try tab.send(
        "Emulation.setEmulatedMedia",
        ["features": [["name": "prefers-color-scheme", "value": "dark"]]])
      #expect(try luminance("document.body") < 0.2)
      #expect(
        try luminance("document.querySelector('.nav-menu')") == 0, "the menu strip stays black")
      #expect(
        try luminance("document.querySelector('.nav-screen')") > 0.8,
        "the screens keep the seeds' look")
      tab.expectQuiet(page.url + "#at=13")
    }

    @Test("every control is reached and worked with the keyboard alone", .timeLimit(.minutes(2)))
    func keyboard() throws {
      let directory = TemporaryDirectory()
      let page = try writePage(sample("iphone-compact.journal"), in: directory)
      let browser = try HeadlessChromium()
      defer { browser.close() }
      let tab = try browser.newPage()
      try tab.open(page.url)
      var reached: [String] = []
      for _ in 0..<20 {
        try tab.press("Tab")
        reached.append(
          try tab.string("document.activeElement.id || document.activeElement.tagName"))
      }
      for control in [
        "first", "previous", "play", "next", "last", "speed", "scrubber", "pin", "event-list",
        "find-input",
      ] {
        #expect(reached.contains(control), "Tab never reaches #\(control): \(reached)")
      }
      // Space on a button presses it; Enter in the list does not move; keys on the slider.
      try tab.evaluate("document.getElementById('next').focus()")
      try tab.press(" ")
      #expect(try tab.cursor() == 1)
      try tab.evaluate("document.getElementById('event-list').focus()")
      try tab.press("ArrowDown")
      try tab.press("ArrowDown")
      #expect(try tab.cursor() == 3)
      try tab.press("End")
      #expect(try tab.cursor() == 20)
      try tab.evaluate("document.getElementById('scrubber').focus()")
      try tab.press("Home")
      #expect(try tab.cursor() == 0)
      try tab.press("ArrowUp")
      #expect(try tab.cursor() == 1)
      // p pins the point; the diff lists what differs from it.
      try tab.evaluate("document.activeElement.blur()")
      try tab.press("p")
      #expect(try tab.evaluate("window.rewind.pinned()") as? Int == 1)
      try tab.evaluate("window.rewind.seek(10)")
      let diff = try tab.string("document.getElementById('diff-body').textContent")
      #expect(diff.contains("split.selectedCategory"), "\(diff)")
      let expected = try rewind(
        "diff", sample("iphone-compact.journal"), "--from", "1", "--to", "10", "--json")
      let fields = (try parseObject(expected.stdout)["changes"] as? [[String: Any]] ?? [])
        .compactMap {
          $0["path"] as? String
        }
      let shown =
        try tab.evaluate(
          "[...document.querySelectorAll('#diff-body tbody th')].map((th) => th.textContent)")
        as? [String] ?? []
      #expect(shown == fields)
      // / goes to the find box.
      try tab.press("/")
      #expect(try tab.string("document.activeElement.id") == "find-input")
      tab.expectQuiet(page.url)
    }

    @Test(
      "a page whose data is compressed in several chunks (their empty stored blocks between) opens on two threads' bytes and shows the states `rewind state` prints",
      .timeLimit(.minutes(3)))
    func chunkedData() throws {
      let seed = testSeed("HTMLPageTests.chunkedData") % 1_000_000
      let directory = TemporaryDirectory()
      let journal = directory.file("chunked.journal")
      let generate = try rewind(
        "generate", "-o", journal, "--events", "70000", "--seed", String(seed))
      #expect(generate.status == 0, "\(generate.stderr)")
      let page = try writePage(journal, in: directory, extra: ["--jobs", "2"])
      // The data is three chunks of 256 KiB or more: 70,000 events of ~10 bytes (rows of
      // about 6, the tables and keyframes).
      let html = String(decoding: bytes(of: page.path), as: UTF8.self)
      let length =
        html.components(separatedBy: #"data-length=""#).dropFirst().first
        .flatMap { Int($0.prefix { $0 != "\"" }) } ?? 0
      #expect(length > 2 * 262_144, "seed \(seed): \(length) bytes of data")
      let browser = try HeadlessChromium()
      defer { browser.close() }
      let tab = try browser.newPage()
      try tab.open(page.url)
      for point in ["end", "1", "13000", "27000", "39999", "69999"] {
        let expected = try rewind("state", journal, "--at", point, "--json")
        try tab.evaluate("window.rewind.seek(\(literal(point)))")
        #expect(
          try tab.string("window.rewind.shownState()") + "\n" == expected.stdout,
          "seed \(seed): at \(point)")
      }
      tab.expectQuiet(page.url)
    }

    @Test(
      "inflate.js reads what gzip writes: stored (empty too), fixed and dynamic blocks",
      .timeLimit(.minutes(2))
    )
    func inflate() throws {
      let directory = TemporaryDirectory()
      let page = try writePage(sample("day-menu.journal"), in: directory)
      let browser = try HeadlessChromium()
      defer { browser.close() }
      let tab = try browser.newPage()
      try tab.open(page.url)
      var random = SplitMix64(seed: testSeed("HTMLPageTests.inflate"))
      let text = Array(try rewind("log", sample("ipad-three-column.journal"), "--json").stdout.utf8)
      let noise = (0..<70_000).map { _ in UInt8(truncatingIfNeeded: random.next()) }
      // Stored blocks mid-stream, the empty one the chunks of `rewind html` end with among
      // them: "abc" (not final), empty (not final), "de" (final).
      let stored: [UInt8] =
        [0, 3, 0, 0xFC, 0xFF] + Array("abc".utf8) + [0, 0, 0, 0xFF, 0xFF]
        + [1, 2, 0, 0xFD, 0xFF] + Array("de".utf8)
      let inflatedStored =
        try tab.evaluate(
          "Array.from(RewindPage.inflate(new Uint8Array(\(stored)), 5))") as? [Int] ?? []
      #expect(inflatedStored.map(UInt8.init) == Array("abcde".utf8))
      for (input, level) in [
        (text, "-9"), (text, "-1"), (noise, "-6"), ([UInt8](), "-6"), (Array("a".utf8), "-6"),
      ] {
        let source = directory.file("input")
        write(input, to: source)
        let zipped = directory.file("input.gz")
        #expect(
          try run("/bin/sh", ["-c", "gzip -c \(level) < '\(source)' > '\(zipped)'"]).status == 0)
        let member = bytes(of: zipped)
        // The raw DEFLATE stream: after the 10-byte header, before the 8-byte trailer.
        let deflated = Array(member[10..<(member.count - 8)])
        let inflated =
          try tab.evaluate(
            "Array.from(RewindPage.inflate(Uint8Array.from(atob('\(Data(deflated).base64EncodedString())'), (c) => c.charCodeAt(0)), \(input.count)))"
          ) as? [Int] ?? []
        #expect(inflated.map(UInt8.init) == input, "gzip \(level) of \(input.count) bytes")
      }
      tab.expectQuiet(page.url)
    }
  }
#endif
