import CNatsLibrary
import Testing

@testable import RewindStream

/// libnats is loaded when the first connection is made, not when `rewind` starts: these
/// need no server.
@Suite("libnats, loaded by the first connection")
struct NatsLibraryTests {
  @Test("the library loads by its soname")
  func loads() {
    #expect(throws: Never.self) { _ = try NatsLibrary.shared(for: "nats://127.0.0.1:4222") }
  }

  #if os(Linux)
    @Test("a missing library is an error naming it and the server")
    func missing() {
      let error = #expect(throws: StreamError.self) {
        _ = try NatsLibrary.load("libnats-missing.so.0", for: "nats://127.0.0.1:4222")
      }
      #expect(error?.kind == .other)
      let description = error?.description ?? ""
      #expect(
        description.hasPrefix(
          "nats://127.0.0.1:4222: cannot load libnats-missing.so.0, the NATS C client that"
            + " commands talking to a NATS server need (libnats-missing.so.0: "))
      #expect(
        description.hasSuffix(
          "); install it (Debian and Ubuntu: libnats\(NATS_VERSION_MAJOR).\(NATS_VERSION_MINOR))"))
    }

    @Test("the library's name and package are those of the release the tool is built against")
    func names() {
      let release = "\(NATS_VERSION_MAJOR).\(NATS_VERSION_MINOR)"
      #expect(String(cString: rewind_nats_soname()) == "libnats.so.\(release)")
      #expect(String(cString: rewind_nats_package()) == "libnats\(release)")
    }

    @Test("a library that is not libnats is an error naming the function it lacks")
    func notNats() {
      let error = #expect(throws: StreamError.self) {
        _ = try NatsLibrary.load("libzstd.so.1", for: "nats://127.0.0.1:4222")
      }
      #expect(error?.message.contains("(libzstd.so.1: no function natsOptions_Create)") == true)
    }
  #endif
}
