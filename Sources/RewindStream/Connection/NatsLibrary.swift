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

  /// Tears the library down, if a connection loaded it (`rewind_nats_close`, which calls
  /// `nats_CloseAndWait`): waits at most `milliseconds` for the threads libnats still runs
  /// once every connection is destroyed. One of them (a subscription's delivery thread)
  /// may drop the last reference to a connection, and so free its TLS context, after the
  /// connection's owner destroyed it: left running while `exit` runs OpenSSL's cleanup,
  /// it crashed the process now and then (signal 11 in libcrypto) after a command had
  /// succeeded. Nothing is loaded for it.
  /// - Returns: Whether the library was closed, or never loaded: false when its threads
  ///   did not end in time (a connection not destroyed).
  @discardableResult
  static func close(waitingAtMost milliseconds: Int64) -> Bool {
    rewind_nats_close(milliseconds) == 0  // NATS_OK
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
