#if canImport(Glibc)
  import Foundation
  import Navigation
  import RewindCore
  import RewindJournal
  import TestSupport
  import Testing

  /// Writes the page of `journal` with the built `rewind` and returns its `file://` URL.
  func writePage(
    _ journal: String, in directory: TemporaryDirectory, name: String = "page.html",
    extra: [String] = [], sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> (path: String, url: String) {
    let path = directory.file(name)
    let result = try rewind(["html", journal, "-o", path, "--force"] + extra)
    #expect(result.status == 0, "\(result.stderr)", sourceLocation: sourceLocation)
    return (path, URL(fileURLWithPath: path).absoluteString)
  }

  @Suite("rewind html: pages in headless Chromium", .serialized)
  struct HTMLPageTests {
    @Test("a page opens, draws its first point and exposes window.rewind", .timeLimit(.minutes(2)))
    func opens() throws {
      let directory = TemporaryDirectory()
      let page = try writePage(sample("ipad-three-column.journal"), in: directory)
      let browser = try HeadlessChromium()
      defer { browser.close() }
      let tab = try browser.newPage()
      try tab.open(page.url)
      #expect(try tab.evaluate("document.documentElement.dataset.ready") as? String == "true")
      let state = try tab.string("window.rewind.shownState()")
      let expected = try rewind("state", sample("ipad-three-column.journal"), "--at", "0", "--json")
      #expect(state + "\n" == expected.stdout)
      #expect(tab.errors.isEmpty, "\(tab.errors)")
      #expect(tab.requests == [page.url], "\(tab.requests)")
    }
  }
#endif
