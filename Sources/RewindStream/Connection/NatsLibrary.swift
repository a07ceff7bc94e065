import CNatsLibrary

/// libnats, the NATS C client, loaded when the first connection is made: a command that
/// never talks to a NATS server starts without it and the libraries it pulls in (libssl,
/// libcrypto, libprotobuf-c), whose loading was half of every command's start.
enum NatsLibrary {
  /// The library's functions, loaded once for the process.
  /// - Parameter server: The server the connection is for, named by the error.
  /// - Throws: ``StreamError`` naming the library and why it could not be loaded.
  static func shared(for server: String) throws(StreamError) -> RewindNatsLibrary {
    guard isLoadable else {
      throw StreamError(
        .other,
        "this program is statically linked and cannot load \(String(cString: rewind_nats_soname())), the NATS C client that commands talking to a NATS server need (a second C library would come with it); a dynamically linked build of it can",
        server: server)
    }
    var problem: UnsafePointer<CChar>?
    guard let library = rewind_nats_library(&problem) else {
      throw loadError(
        String(cString: rewind_nats_soname()), problem.map { String(cString: $0) },
        server: server)
    }
    return library.pointee
  }

  /// Whether this process can load the library (`rewind_nats_loadable`): false in a
  /// statically linked executable, which ``shared(for:)`` then refuses before trying.
  static var isLoadable: Bool { rewind_nats_loadable() != 0 }

  /// Loads the library by another name: for the tests of the error a missing library
  /// gives.
  static func load(_ soname: String, for server: String) throws(StreamError)
    -> RewindNatsLibrary
  {
    let slot = UnsafeMutablePointer<RewindNatsLibrary>.allocate(capacity: 1)
    defer { slot.deallocate() }
    var problem = [CChar](repeating: 0, count: 512)
    let capacity = problem.count
    guard rewind_nats_load(soname, slot, &problem, capacity) == 0 else {
      let reason = problem.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
      throw loadError(soname, String(decoding: reason, as: UTF8.self), server: server)
    }
    return slot.pointee
  }

  private static func loadError(_ soname: String, _ reason: String?, server: String)
    -> StreamError
  {
    StreamError(
      .other,
      "cannot load \(soname), the NATS C client that commands talking to a NATS server need"
        + " (\(reason ?? "no reason given")); install it (Debian and Ubuntu:"
        + " \(String(cString: rewind_nats_package())))",
      server: server)
  }
}
