import Navigation
import RewindCore
import RewindJournal
import Testing

@Suite("Refs and identifiers")
struct IdentifierTests {
  @Test("catalog ids map to their node; unknown ids to refs beyond the catalog")
  func refs() {
    let domain = NavigationDomain()
    #expect(domain.ref("espresso-machines") == NodeRef(index: 0))
    #expect(domain.ref("grinders") == NodeRef(index: 18))
    let unknown = domain.ref("teapots")
    #expect(unknown == NodeRef(index: 28))
    #expect(domain.ref("kettles") == NodeRef(index: 29))
    #expect(domain.ref("teapots") == unknown)
    #expect(domain.id(of: unknown) == "teapots")
    #expect(domain.id(of: NodeRef(index: 18)) == "grinders")
    #expect(domain.unknownIdentifierCount == 2)
    #expect(!domain.catalog.contains(unknown))
  }

  @Test("a session owns its table: whatever holds it agrees; another session starts empty")
  func perSession() {
    let session = NavigationDomain()
    let holder = session  // the same session, passed along
    let teapots = holder.ref("teapots")
    #expect(session.id(of: teapots) == "teapots")
    #expect(session.unknownIdentifierCount == 1)
    // A new session of the same settings (another replay, another import) has a table of
    // its own: the same ref names another id there, and the first session is unaffected.
    let other = NavigationDomain(session.navigationSettings)
    #expect(other.unknownIdentifierCount == 0)
    #expect(other.ref("kettles") == teapots)
    #expect(other.id(of: teapots) == "kettles")
    #expect(session.id(of: teapots) == "teapots")
    #expect(session.unknownIdentifierCount == 1)
  }

  @Test("interning is bounded at 65,536 distinct unknown ids per session")
  func bounded() throws {
    let domain = NavigationDomain()
    for index in 0..<65_536 { _ = try domain.internedRef("missing-\(index)") }
    #expect(throws: DomainError("more than 65536 distinct ids missing from the catalog")) {
      try domain.internedRef("one-more")
    }
    // Known ids and ids seen before still work.
    #expect(try domain.internedRef("missing-7") == NodeRef(index: 28 + 7))
    #expect(try domain.internedRef("grinders") == NodeRef(index: 18))
    // The binary codec reports the bound as a CodecError.
    let encoded: [UInt8] = [0x04, 0x00, 0x03] + Array("new".utf8)
    #expect(throws: CodecError.self) { try decodeEvent(domain, encoded) }
    // The next session has the whole bound to itself.
    #expect(try NavigationDomain().internedRef("one-more") == NodeRef(index: 28))
  }

  @Test("interning from many tasks at once gives one ref per id")
  func concurrent() async {
    let domain = NavigationDomain()
    let results = await withTaskGroup(of: [NodeRef].self) { group in
      for _ in 0..<8 {
        group.addTask { (0..<500).map { domain.ref("id-\($0)") } }
      }
      var all: [[NodeRef]] = []
      for await refs in group { all.append(refs) }
      return all
    }
    #expect(Set(results).count == 1)
    #expect(domain.unknownIdentifierCount == 500)
    #expect(Set(results[0]).count == 500)
  }

  @Test("a ref no session made is a programming error")
  func foreignRef() async {
    await #expect(processExitsWith: .failure) {
      _ = NavigationDomain().id(of: NodeRef(index: 9_999))
    }
  }
}
