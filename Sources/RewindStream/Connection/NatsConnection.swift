import CNatsLibrary

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension Substring {
  func trimmingSpaces() -> String {
    String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
  }
}

/// A message as the stream holds it: its stream sequence, subject, headers and data.
struct StoredMessage {
  var sequence: UInt64
  var subject: String
  var data: [UInt8]
  var headers: [String: String]
}

/// One connection to a NATS server and its JetStream context: the few calls of libnats
/// that Rewind needs, with errors that name the server. Not thread-safe.
final class NatsConnection {
  /// The copies the stream of sessions keeps, as the last push found or made it (nil
  /// before one): `--replicas` applies only to a stream a push creates.
  private(set) var streamReplicas: Int?
  let server: StreamServer
  private var connection: OpaquePointer?
  private var context: OpaquePointer?
  private var buckets: [String: OpaquePointer] = [:]
  /// libnats' functions.
  private let nats: RewindNatsLibrary

  /// Loads libnats if no connection did before, and connects within the server's timeout.
  init(_ server: StreamServer) throws(StreamError) {
    if let problem = server.addressProblem {
      throw StreamError(.invalidAddress, problem, server: server.displayURL)
    }
    // A file that is none (a directory, a device, empty) would connect with no
    // credentials, or no authorities, without a word (``StreamServer/filesProblem``).
    if let problem = server.filesProblem() {
      throw StreamError(.authorization, problem, server: server.displayURL)
    }
    // The password file is read as each connection is made: once, if it is a pipe.
    var server = server
    if let file = server.passwordFile { server.password = try server.password(fromFile: file) }
    self.server = server
    if let problem = server.credentialsProblem {
      throw StreamError(.authorization, problem, server: server.displayURL)
    }
    nats = try NatsLibrary.shared(for: server.displayURL)
    var options: OpaquePointer?
    try check(nats.natsOptions_Create(&options), "cannot create the connection's options")
    defer { nats.natsOptions_Destroy(options) }
    let urls = server.addresses
    if urls.count > 1 {
      // A cluster's nodes: the connection picks one and moves to another if it goes.
      let cURLs = urls.map { UnsafePointer(strdup($0)) }
      defer { for url in cURLs { free(UnsafeMutablePointer(mutating: url)) } }
      let status = cURLs.withUnsafeBufferPointer { buffer in
        nats.natsOptions_SetServers(
          options, UnsafeMutablePointer(mutating: buffer.baseAddress), Int32(buffer.count))
      }
      try check(status, "cannot use the server list \(server.displayURL)")
    } else {
      try check(nats.natsOptions_SetURL(options, urls[0]), "cannot use the address")
    }
    _ = nats.natsOptions_SetName(options, server.connectionName)
    _ = nats.natsOptions_SetTimeout(options, server.timeoutMilliseconds)
    // A cluster's node may go away while a session is pushed: the connection moves to
    // another for a while, and requests are retried meanwhile.
    _ = nats.natsOptions_SetMaxReconnect(options, 120)
    _ = nats.natsOptions_SetReconnectWait(options, 250)
    if let user = server.user {
      _ = nats.natsOptions_SetUserInfo(options, user, server.password ?? "")
    }
    if let file = server.credentialsFile {
      try check(
        nats.natsOptions_SetUserCredentialsFromFiles(options, file, nil),
        "cannot use the credentials file \(file)", kind: .authorization)
    }
    if let file = server.certificateAuthorityFile {
      try check(
        nats.natsOptions_LoadCATrustedCertificates(options, file),
        "cannot load the certificate authorities of \(file)", kind: .authorization)
      try check(
        nats.natsOptions_SetSecure(options, true), "cannot turn TLS on", kind: .authorization)
    } else if urls.contains(where: { $0.lowercased().hasPrefix("tls://") }) {
      // A tls:// address asks for TLS: libnats takes it only from a server that requires
      // it, and would otherwise send the credentials in clear.
      try check(
        nats.natsOptions_SetSecure(options, true), "cannot turn TLS on", kind: .authorization)
    }
    let status = nats.natsConnection_Connect(&connection, options)
    guard status == NATS_OK else {
      let problem: (StreamError.Kind, String)
      switch status {
      case NATS_NO_SERVER:
        problem = (.noServer, Self.noServerAnswers(server))
      case NATS_CONNECTION_AUTH_FAILED, NATS_NOT_PERMITTED:
        var message = "the server refused the credentials (authorization violation)"
        if server.user == nil, server.credentialsFile == nil, !server.urlGivesUser {
          message =
            "the server asks for credentials, and none were given (authorization violation): a user and password (USER:PASSWORD@ in the URL, or --user and --password, --password-file or NATS_PASSWORD), or a credentials file (--creds, or NATS_CREDS in the environment)"
        } else if server.credentialsFromEnvironment, let file = server.credentialsFile {
          // The user may not know the variable is set.
          message += " (those of \(file), which NATS_CREDS names)"
        } else if server.passwordFromEnvironment {
          message += " (the password NATS_PASSWORD holds)"
        } else if let file = server.passwordFile {
          message += " (the password \(file) holds)"
        }
        problem = (.authorization, message)
      case NATS_SECURE_CONNECTION_REQUIRED:
        problem = (
          .authorization,
          "the server requires TLS (a tls:// address; a private authority's certificate is trusted with --tls-ca FILE, or NATS_CA=FILE in the environment)"
        )
      case NATS_SECURE_CONNECTION_WANTED:
        var message = "the server does not offer TLS"
        if server.authoritiesFromEnvironment, let file = server.certificateAuthorityFile {
          message +=
            " (TLS was asked for by NATS_CA=\(file) in the environment; unset it for this server)"
        }
        problem = (.authorization, message)
      case NATS_SSL_ERROR:
        var message = "TLS failed: \(lastError(status))"
        let unknownAuthority = ["issuer certificate", "self-signed", "self signed"].contains {
          message.contains($0)
        }
        if server.certificateAuthorityFile == nil, unknownAuthority {
          // The system's authorities do not know the server's: one of its own.
          message +=
            " (a server whose certificate a private authority signed is trusted with --tls-ca FILE, or NATS_CA=FILE in the environment)"
        }
        problem = (.authorization, message)
      case NATS_TIMEOUT:
        problem = (.noServer, "no server answered within \(server.timeoutMilliseconds) ms")
      case _ where lastError(status).contains("Expected 'PONG', got ''"):
        // The server's answer to the client's first ping not in within the time (libnats
        // says so in its own words with a short --timeout); another answer is libnats'.
        problem = (
          .noServer,
          "the server did not answer the connection's first ping within \(server.timeoutMilliseconds) ms (--timeout)"
        )
      default:
        var message = "cannot connect: \(lastError(status))"
        // A credentials file that does not hold credentials is read as the client connects:
        // one the environment named is said to be (the user may not know it is set).
        if server.credentialsFromEnvironment, let file = server.credentialsFile,
          message.contains(file)
        {
          message += " (the credentials file NATS_CREDS names)"
        }
        problem = (.other, message)
      }
      throw StreamError(problem.0, problem.1, server: server.displayURL)
    }
    var jsOptions = CNatsLibrary.jsOptions()
    _ = nats.jsOptions_Init(&jsOptions)
    jsOptions.Wait = server.timeoutMilliseconds
    try check(
      nats.natsConnection_JetStream(&context, connection, &jsOptions), "no JetStream context")
  }

  /// What a connection no server of `server` took says (libnats' `NATS_NO_SERVER`, the
  /// same for a name that does not resolve as for a refusal): the hosts whose names do not
  /// resolve, asked of the system's resolver (``HostResolution``), are named; when none of
  /// them resolves, they alone. A server that refuses or cannot be reached is "no server
  /// answers (connection refused or unreachable)".
  private static func noServerAnswers(_ server: StreamServer) -> String {
    var hosts: [String] = []
    for address in server.addresses {
      let host = StreamServer.endpoint(of: address).host
      if !hosts.contains(host) { hosts.append(host) }
    }
    let unresolved = HostResolution.failures(
      of: hosts, waitingAtMost: Int(min(server.timeoutMilliseconds, 2000)))
    let names = unresolved.map { "cannot resolve \($0.host): \($0.reason)" }
      .joined(separator: "; ")
    if !unresolved.isEmpty, unresolved.count == hosts.count { return names }
    return
      "no server answers (connection refused or unreachable\(names.isEmpty ? "" : "; " + names))"
  }

  deinit {
    for bucket in buckets.values { nats.kvStore_Destroy(bucket) }
    if let context { nats.jsCtx_Destroy(context) }
    if let connection {
      nats.natsConnection_Close(connection)
      nats.natsConnection_Destroy(connection)
    }
  }

  /// The largest message the server accepts.
  var maximumPayload: Int { Int(nats.natsConnection_GetMaxPayload(connection)) }

  // MARK: Streams

  /// Whether the stream `name` exists; creates it over `subjects` when asked to.
  /// - Throws: ``StreamError/Kind/streamMissing`` when it does not and `create` is false.
  ///
  /// A stream that exists is checked when `create` is set (a push): one whose settings
  /// would lose or refuse a session's messages is an error (``unsuitability(of:subjects:)``).
  func ensureStream(_ name: String, subjects: [String], create: Bool) throws(StreamError) {
    try requireConnected("cannot read the stream \(name)")
    var info: UnsafeMutablePointer<jsStreamInfo>?
    var code = jsErrCode(0)
    let status = nats.js_GetStreamInfo(&info, context, name, nil, &code)
    if status == NATS_OK {
      let config = info?.pointee.Config?.pointee
      defer { nats.jsStreamInfo_Destroy(info) }
      if create, let config {
        try checkSuitable(name, config: config, subjects: subjects)
        streamReplicas = Int(config.Replicas)
      }
      return
    }
    guard status == NATS_NOT_FOUND || code == JSStreamNotFoundErr else {
      throw failure(status, code, "cannot read the stream \(name)")
    }
    guard create else {
      throw StreamError(
        .streamMissing,
        "the server has no stream \(name) (nothing was pushed to it, or a first push was cut short: push again)",
        server: server.displayURL)
    }
    try createStream(name, subjects: subjects)
  }

  /// Creates the stream `name` over `subjects` as Rewind keeps sessions (file storage,
  /// the server's replicas, direct get, no deletion), with `configure` applied to those
  /// settings (a stream made otherwise, in the tests).
  func createStream(
    _ name: String, subjects: [String], configure: (inout jsStreamConfig) -> Void = { _ in }
  ) throws(StreamError) {
    var config = jsStreamConfig()
    _ = nats.jsStreamConfig_Init(&config)
    let cName = strdup(name)
    let cSubjects = subjects.map { UnsafePointer(strdup($0)) }
    defer {
      free(cName)
      for subject in cSubjects { free(UnsafeMutablePointer(mutating: subject)) }
    }
    config.Name = UnsafePointer(cName)
    config.Storage = js_FileStorage
    config.Replicas = Int64(server.replicas)
    config.AllowDirect = true
    config.DenyDelete = true
    var info: UnsafeMutablePointer<jsStreamInfo>?
    var code = jsErrCode(0)
    let status = cSubjects.withUnsafeBufferPointer { buffer in
      config.Subjects = UnsafeMutablePointer(mutating: buffer.baseAddress)
      config.SubjectsLen = Int32(buffer.count)
      configure(&config)
      return nats.js_AddStream(&info, context, &config, nil, &code)
    }
    guard status == NATS_OK else {
      if code == JSStreamSubjectOverlapErr { throw overlap(creating: name, over: subjects) }
      throw failure(status, code, "cannot create the stream \(name)")
    }
    nats.jsStreamInfo_Destroy(info)
    streamReplicas = server.replicas
  }

  /// The error of the stream `name`, over `subjects`, that the server would not create
  /// because another stream takes some of them (a subject belongs to one stream only):
  /// it names the streams that do, with their subjects (the JetStream API lists streams
  /// by subject), and says what to do. The server's own words ("subjects overlap with an
  /// existing stream") named none.
  private func overlap(creating name: String, over subjects: [String]) -> StreamError {
    var found: [String] = []
    for subject in subjects {
      for other in streams(overlapping: subject) where !found.contains(other) && other != name {
        found.append(other)
      }
    }
    let ours = subjects.joined(separator: ", ")
    let what = "cannot create the stream \(name): its subjects, \(ours), overlap those of"
    let fix =
      "a subject is kept by one stream only, and Rewind keeps sessions in a stream of its own: take \(ours) out of its subjects (nats stream edit), or delete it if nothing needs it (nats stream rm), then push again"
    guard !found.isEmpty else {
      return StreamError(
        .conflict, "\(what) another stream (nats stream ls lists them); \(fix)",
        server: server.displayURL)
    }
    let named = found.map { other in
      let taken = (try? streamInfo(other) { info in Self.subjects(of: info.Config?.pointee) }) ?? []
      return taken.isEmpty ? other : "\(other) (\(taken.joined(separator: ", ")))"
    }
    let streams = found.count == 1 ? "the stream " : "the streams "
    return StreamError(
      .conflict, "\(what) \(streams)\(named.joined(separator: ", ")); \(fix)",
      server: server.displayURL)
  }

  /// The names of the streams that take subjects overlapping `subject`, in order
  /// (`js_StreamNames`, filtered by subject); none when they cannot be listed.
  func streams(overlapping subject: String) -> [String] {
    var options = CNatsLibrary.jsOptions()
    _ = nats.jsOptions_Init(&options)
    options.Wait = server.timeoutMilliseconds
    var list: UnsafeMutablePointer<jsStreamNamesList>?
    let status = subject.withCString { filter in
      options.Stream.Info.SubjectsFilter = filter
      return nats.js_StreamNames(&list, context, &options, nil)
    }
    guard status == NATS_OK, let list else { return [] }
    defer { nats.jsStreamNamesList_Destroy(list) }
    let names = (0..<Int(max(list.pointee.Count, 0))).compactMap { index in
      list.pointee.List?[index].map { String(cString: $0) }
    }
    return names.sorted()
  }

  /// The subjects of a stream's settings.
  private static func subjects(of config: jsStreamConfig?) -> [String] {
    guard let config else { return [] }
    return (0..<Int(max(config.SubjectsLen, 0))).compactMap { index in
      config.Subjects?[index].map { String(cString: $0) }
    }
  }

  /// What in a stream's `config` would lose a session's messages (a limit on their
  /// number, size or age; memory storage; a retention that removes them once consumed) or
  /// refuse them (a limit on a message's size; sealed; a mirror; no acknowledgements; not
  /// `subjects`; no direct get, which readers use); nil when nothing would. Without
  /// `subjects` (a bucket's stream, whose subjects are its own), those and the messages a
  /// subject keeps (a bucket's history) are not looked at.
  static func unsuitability(of config: jsStreamConfig, subjects: [String]?) -> String? {
    var problems: [String] = []
    if config.Retention != js_LimitsPolicy {
      problems.append(
        "retention \(config.Retention == js_WorkQueuePolicy ? "workqueue" : "interest"), which removes messages once consumed"
      )
    }
    var limits = [
      ("max_msgs", config.MaxMsgs), ("max_bytes", config.MaxBytes), ("max_age", config.MaxAge),
      ("max_msg_size", Int64(config.MaxMsgSize)),
    ]
    if subjects != nil { limits.append(("max_msgs_per_subject", config.MaxMsgsPerSubject)) }
    for (limit, value) in limits where value > 0 {
      // An age is in nanoseconds.
      let shown =
        limit != "max_age"
        ? "\(value)"
        : value % 1_000_000_000 == 0 ? "\(value / 1_000_000_000) s" : "\(value / 1_000_000) ms"
      problems.append("\(limit) \(shown)")
    }
    if config.Storage == js_MemoryStorage {
      problems.append("memory storage, lost when the server restarts")
    }
    if config.Sealed { problems.append("sealed") }
    if config.Mirror != nil { problems.append("a mirror of another stream") }
    if config.NoAck { problems.append("no acknowledgements (no_ack)") }
    guard let subjects else { return problems.isEmpty ? nil : problems.joined(separator: "; ") }
    let taken = Self.subjects(of: config)
    let missing = subjects.filter { !taken.contains($0) && !taken.contains(">") }
    if !missing.isEmpty {
      problems.append(
        "subjects \(taken.isEmpty ? "none" : taken.joined(separator: ", ")), not \(missing.joined(separator: ", "))"
      )
    }
    if !config.AllowDirect { problems.append("no direct get (allow_direct false)") }
    return problems.isEmpty ? nil : problems.joined(separator: "; ")
  }

  /// Throws when the stream `name`, whose settings are `config`, would lose or refuse a
  /// session's messages (``unsuitability(of:subjects:)``), saying which and what to do.
  /// - Parameter subjects: the stream's subjects; nil for a bucket's stream.
  private func checkSuitable(_ name: String, config: jsStreamConfig, subjects: [String]?)
    throws(StreamError)
  {
    guard let problem = Self.unsuitability(of: config, subjects: subjects) else { return }
    let made =
      subjects.map {
        "create it without limits, with file storage, over \($0.joined(separator: ", ")), with direct get allowed"
      } ?? "create it without limits, with file storage"
    throw StreamError(
      .invalidData,
      "the stream \(name) exists with settings that would lose or refuse a session's messages (\(problem)); Rewind keeps every frame of a session: delete it and push creates it, or \(made)",
      server: server.displayURL)
  }

  /// The name of the server leading the stream `name` (its RAFT group's leader), or nil
  /// when it has none now or is not replicated.
  func leader(of name: String) throws(StreamError) -> String? {
    try streamInfo(name) { info in info.Cluster?.pointee.Leader.map { String(cString: $0) } }
  }

  /// What `read` reads of the information on the stream `name`.
  private func streamInfo<T>(
    _ name: String, _ read: (jsStreamInfo) throws(StreamError) -> T
  ) throws(StreamError) -> T {
    try requireConnected("cannot read the stream \(name)")
    var info: UnsafeMutablePointer<jsStreamInfo>?
    var code = jsErrCode(0)
    let status = nats.js_GetStreamInfo(&info, context, name, nil, &code)
    guard status == NATS_OK, let info else {
      throw failure(status, code, "cannot read the stream \(name)")
    }
    defer { nats.jsStreamInfo_Destroy(info) }
    return try read(info.pointee)
  }

  // MARK: Messages

  /// Publishes `data` on `subject` with the message id `id` (the server drops a message
  /// whose id it has seen in its deduplication window) and, when given, the sequence the
  /// subject's last message must have (0: the subject must have none).
  /// - Returns: the stream sequence and whether the server had it already.
  func publish(
    _ data: [UInt8], subject: String, id: String?, headers: [(String, String)],
    expectedLastSubjectSequence: UInt64?
  ) throws(StreamError) -> (sequence: UInt64, duplicate: Bool) {
    try requireConnected("cannot publish on \(subject)")
    var message: OpaquePointer?
    let created = data.withUnsafeBufferPointer { buffer in
      buffer.withMemoryRebound(to: CChar.self) {
        nats.natsMsg_Create(&message, subject, nil, $0.baseAddress, Int32($0.count))
      }
    }
    try check(created, "cannot make a message of \(data.count) bytes")
    defer { nats.natsMsg_Destroy(message) }
    for (key, value) in headers { _ = nats.natsMsgHeader_Set(message, key, value) }
    var options = jsPubOptions()
    _ = nats.jsPubOptions_Init(&options)
    options.MaxWait = server.timeoutMilliseconds
    if let expected = expectedLastSubjectSequence {
      if expected == 0 {
        options.ExpectNoMessage = true
      } else {
        options.ExpectLastSubjectSeq = expected
      }
    }
    var ack: UnsafeMutablePointer<jsPubAck>?
    var code = jsErrCode(0)
    let status: natsStatus
    if let id {
      status = id.withCString { cID in
        options.MsgId = cID
        return nats.js_PublishMsg(&ack, context, message, &options, &code)
      }
    } else {
      status = nats.js_PublishMsg(&ack, context, message, &options, &code)
    }
    guard status == NATS_OK, let ack else {
      if status == NATS_MAX_PAYLOAD || code == JSStreamMessageExceedsMaximumErr {
        throw StreamError(
          .tooLarge,
          "a message of \(data.count) bytes and its headers is more than the server accepts (max_payload, \(maximumPayload) bytes, counts both; raise it)",
          server: server.displayURL)
      }
      if code == JSStreamWrongLastSequenceErr {
        throw StreamError(
          .conflict, "another writer appended to the session meanwhile", server: server.displayURL)
      }
      throw failure(status, code, "cannot publish on \(subject)")
    }
    defer { nats.jsPubAck_Destroy(ack) }
    return (ack.pointee.Sequence, ack.pointee.Duplicate)
  }

  /// The message at `sequence` of `stream`; an error says it cannot read `what` (by
  /// default, message `sequence` of `stream`).
  func message(_ stream: String, sequence: UInt64, what: String? = nil) throws(StreamError)
    -> StoredMessage?
  {
    var message: OpaquePointer?
    var code = jsErrCode(0)
    let status = nats.js_GetMsg(&message, context, stream, sequence, nil, &code)
    return try stored(
      message, status, code, "cannot read \(what ?? "message \(sequence) of \(stream)")")
  }

  /// The last message on `subject`, or nil if it has none.
  func lastMessage(_ stream: String, subject: String) throws(StreamError) -> StoredMessage? {
    var message: OpaquePointer?
    var code = jsErrCode(0)
    let status = nats.js_GetLastMsg(&message, context, stream, subject, nil, &code)
    return try stored(message, status, code, "cannot read the last message on \(subject)")
  }

  /// The first message on `subject` at or after `sequence`, or nil if there is none.
  func nextMessage(_ stream: String, subject: String, from sequence: UInt64) throws(StreamError)
    -> StoredMessage?
  {
    var message: OpaquePointer?
    var options = jsDirectGetMsgOptions()
    _ = nats.jsDirectGetMsgOptions_Init(&options)
    options.Sequence = sequence
    let status = subject.withCString { cSubject in
      options.NextBySubject = cSubject
      return nats.js_DirectGetMsg(&message, context, stream, nil, &options)
    }
    return try stored(message, status, jsErrCode(0), "cannot read the messages on \(subject)")
  }

  private func stored(
    _ message: OpaquePointer?, _ status: natsStatus, _ code: jsErrCode, _ what: String
  )
    throws(StreamError) -> StoredMessage?
  {
    if status == NATS_NOT_FOUND || code == JSNoMessageFoundErr { return nil }
    guard status == NATS_OK, let message else { throw failure(status, code, what) }
    defer { nats.natsMsg_Destroy(message) }
    let length = Int(nats.natsMsg_GetDataLength(message))
    var data = [UInt8](repeating: 0, count: length)
    if length > 0, let bytes = nats.natsMsg_GetData(message) {
      data.withUnsafeMutableBytes {
        $0.copyMemory(from: UnsafeRawBufferPointer(start: bytes, count: length))
      }
    }
    var headers: [String: String] = [:]
    var keys: UnsafeMutablePointer<UnsafePointer<CChar>?>?
    var count: Int32 = 0
    if nats.natsMsgHeader_Keys(message, &keys, &count) == NATS_OK, let keys {
      for index in 0..<Int(count) {
        guard let key = keys[index] else { continue }
        var value: UnsafePointer<CChar>?
        if nats.natsMsgHeader_Get(message, key, &value) == NATS_OK, let value {
          headers[String(cString: key)] = String(cString: value)
        }
      }
      free(keys)
    }
    let subject = nats.natsMsg_GetSubject(message).map { String(cString: $0) } ?? ""
    return StoredMessage(
      sequence: nats.natsMsg_GetSequence(message), subject: subject, data: data, headers: headers)
  }

  // MARK: Key-value buckets

  /// The bucket `name`, created (one value per key) when asked to.
  /// - Throws: ``StreamError/Kind/streamMissing`` when it does not exist and `create` is
  ///   false.
  private func bucket(_ name: String, create: Bool) throws(StreamError) -> OpaquePointer {
    if let bucket = buckets[name] { return bucket }
    var bucket: OpaquePointer?
    var status = nats.js_KeyValue(&bucket, context, name)
    if status == NATS_NOT_FOUND, create {
      var config = kvConfig()
      _ = nats.kvConfig_Init(&config)
      config.History = 1
      config.StorageType = js_FileStorage
      config.Replicas = Int32(server.replicas)
      status = name.withCString { cName in
        config.Bucket = cName
        return nats.js_CreateKeyValue(&bucket, context, &config)
      }
    }
    if status == NATS_NOT_FOUND {
      throw StreamError(
        .streamMissing,
        "the server has no bucket \(name) (nothing was pushed to it, or a first push was cut short: push again)",
        server: server.displayURL)
    }
    guard status == NATS_OK, let bucket else {
      // libnats gives no JetStream code here: the server's words say it.
      if create, lastError(status).contains("subjects overlap with an existing stream") {
        throw overlap(creating: "KV_" + name, over: ["$KV.\(name).>"])
      }
      throw failure(status, jsErrCode(0), "cannot open the bucket \(name)")
    }
    buckets[name] = bucket
    return bucket
  }

  /// Whether the bucket `name` exists; creates it when asked to. When `create` is set (a
  /// push), a bucket that exists is checked as the stream is (its stream's settings): one that
  /// drops values (an age, a size) would lose summaries or index chunks.
  func ensureBucket(_ name: String, create: Bool) throws(StreamError) {
    _ = try bucket(name, create: create)
    guard create else { return }
    // (Checked while the information is held: the settings point into it.)
    let stream = "KV_" + name
    try streamInfo(stream) { info throws(StreamError) in
      if let config = info.Config?.pointee {
        try checkSuitable(stream, config: config, subjects: nil)
      }
    }
  }

  func put(_ value: [UInt8], key: String, bucket name: String) throws(StreamError) {
    try requireConnected("cannot store \(key) in the bucket \(name)")
    let bucket = try bucket(name, create: false)
    var revision: UInt64 = 0
    let status = value.withUnsafeBytes {
      nats.kvStore_Put(&revision, bucket, key, $0.baseAddress, Int32($0.count))
    }
    guard status == NATS_OK else {
      throw failure(status, jsErrCode(0), "cannot store \(key) in the bucket \(name)")
    }
  }

  /// Stores `value` under `key` in the bucket `name` if the key's value is still the one
  /// of `revision` (0: none, or deleted), as a compare-and-set: the message is published on
  /// the key's subject expecting the subject's last sequence to be `revision`.
  /// - Returns: the value's new revision.
  /// - Throws: ``StreamError/Kind/changedMeanwhile`` when the key holds another revision.
  func put(_ value: [UInt8], key: String, bucket name: String, replacing revision: UInt64)
    throws(StreamError) -> UInt64
  {
    _ = try bucket(name, create: false)
    let subject = "$KV.\(name).\(key)"
    var expected = revision
    while true {
      do throws(StreamError) {
        return try publish(
          value, subject: subject, id: nil, headers: [], expectedLastSubjectSequence: expected
        ).sequence
      } catch {
        guard error.kind == .conflict else { throw error }
        // No value expected, and the key's last message is a deletion: its revision.
        if expected == 0, let last = try lastMessage("KV_" + name, subject: subject),
          Self.deletes(last)
        {
          expected = last.sequence
          continue
        }
        throw StreamError(
          .changedMeanwhile,
          "another writer changed \(key) in the bucket \(name) after this one read it",
          server: server.displayURL)
      }
    }
  }

  func value(key: String, bucket name: String) throws(StreamError) -> [UInt8]? {
    try entry(key: key, bucket: name)?.value
  }

  /// The value of `key` in the bucket `name` and its revision (the stream sequence of the
  /// message holding it); nil when the key has none (never written, or deleted).
  ///
  /// Read as the key's subject's last message from the bucket's stream, which its leader
  /// answers: not by `kvStore_Get`, whose direct get any copy of a replicated bucket may
  /// answer, one lagging behind with an older revision, which a push would then take for
  /// another writer's change.
  func entry(key: String, bucket name: String) throws(StreamError) -> (
    value: [UInt8], revision: UInt64
  )? {
    _ = try bucket(name, create: false)
    guard let last = try lastMessage("KV_" + name, subject: "$KV.\(name).\(key)"),
      !Self.deletes(last)
    else { return nil }
    return (last.data, last.sequence)
  }

  /// Whether `message` of a bucket's stream is a deletion of its key (a delete or purge
  /// marker, as libnats writes them).
  static func deletes(_ message: StoredMessage) -> Bool {
    ["DEL", "PURGE"].contains(message.headers["KV-Operation"])
  }

  /// The keys of the bucket `name`: the subjects its stream holds messages on, as the
  /// stream's information lists them (`subjects_filter`). Not by a consumer, as
  /// `kvStore_Keys` lists them: with a node of a cluster down, nats-server (up to 2.11 at
  /// least) could place that consumer on it, and the listing went unanswered for the whole
  /// timeout in about one run in five. A key another program deleted is listed; its value
  /// reads as none (``value(key:bucket:)``).
  func keys(bucket name: String) throws(StreamError) -> [String] {
    _ = try bucket(name, create: false)
    let prefix = "$KV.\(name)."
    var options = CNatsLibrary.jsOptions()
    _ = nats.jsOptions_Init(&options)
    options.Wait = server.timeoutMilliseconds
    var info: UnsafeMutablePointer<jsStreamInfo>?
    var code = jsErrCode(0)
    let status = (prefix + ">").withCString { filter in
      options.Stream.Info.SubjectsFilter = filter
      return nats.js_GetStreamInfo(&info, context, "KV_" + name, &options, &code)
    }
    guard status == NATS_OK, let info else {
      throw failure(status, code, "cannot list the keys of the bucket \(name)")
    }
    defer { nats.jsStreamInfo_Destroy(info) }
    guard let subjects = info.pointee.State.Subjects?.pointee, let list = subjects.List else {
      return []
    }
    // Over 100,000 keys, the server sends them in pages, which libnats asks for in turn:
    // a key put meanwhile may move one across a page's end, listed twice.
    var seen: Set<String> = []
    return (0..<Int(subjects.Count)).compactMap { index in
      guard list[index].Msgs > 0, let subject = list[index].Subject else { return nil }
      let text = String(cString: subject)
      guard text.hasPrefix(prefix) else { return nil }
      let key = String(text.dropFirst(prefix.count))
      return seen.insert(key).inserted ? key : nil
    }
  }

  // MARK: Errors

  /// Throws at once, `noServer`, while the connection is lost (libnats reconnecting):
  /// a request would wait the whole timeout for nothing, and a caller trying again (a
  /// push, a shipper's round) says meanwhile why it has not got through.
  private func requireConnected(_ what: String) throws(StreamError) {
    guard let connection, nats.natsConnection_Status(connection) != NATS_CONN_STATUS_CONNECTED
    else { return }
    throw StreamError(
      .noServer, "\(what): the connection was lost (reconnecting)", server: server.displayURL)
  }

  /// Whether JetStream is there to answer: a request for the account's information is
  /// answered, or refused for a cluster electing its leaders, or not answered within at
  /// most 2 s (the cluster's own leader is being elected) while the server itself answers
  /// (``serverAnswers()``); false when nothing takes it (no responders: no JetStream). A
  /// stream that does not answer, or a subject no stream takes, then has no leader now.
  func jetStreamAnswers() -> Bool {
    var options = CNatsLibrary.jsOptions()
    _ = nats.jsOptions_Init(&options)
    options.Wait = min(server.timeoutMilliseconds, 2000)
    var info: UnsafeMutablePointer<jsAccountInfo>?
    var code = jsErrCode(0)
    let status = nats.js_GetAccountInfo(&info, context, &options, &code)
    if status == NATS_OK { nats.jsAccountInfo_Destroy(info) }
    if status == NATS_OK || code == JSClusterNotAvailErr { return true }
    return status == NATS_TIMEOUT && serverAnswers()
  }

  /// Whether the server answers a ping within at most 2 s (`natsConnection_FlushTimeout`):
  /// a request it leaves unanswered then waits for JetStream, not for the server.
  func serverAnswers() -> Bool {
    guard let connection else { return false }
    return nats.natsConnection_FlushTimeout(connection, min(server.timeoutMilliseconds, 2000))
      == NATS_OK
  }

  /// The error of a request the stream did not answer while JetStream does
  /// (``jetStreamAnswers()``): the stream has no leader.
  func noLeader(_ what: String) -> StreamError {
    var error = StreamError(
      .timeout, "\(what): the stream has no leader yet (an election)", server: server.displayURL)
    error.noLeader = true
    return error
  }

  private func check(_ status: natsStatus, _ what: String, kind: StreamError.Kind = .other)
    throws(StreamError)
  {
    guard status == NATS_OK else {
      throw StreamError(
        kind, "\(what): \(lastError(status))", server: server.displayURL)
    }
  }

  /// The error for a failed call: timeouts, a server without JetStream and a missing
  /// stream told apart from the rest.
  private func failure(_ status: natsStatus, _ code: jsErrCode, _ what: String) -> StreamError {
    if code == JSStreamNotFoundErr {
      return StreamError(
        .streamMissing, "\(what): the stream is missing", server: server.displayURL)
    }
    if code == JSClusterNotAvailErr { return noLeader(what) }
    switch status {
    case NATS_TIMEOUT:
      // A request the server refused to forward (a user not permitted the API) goes
      // unanswered: the refusal is the connection's last error. Not tried again.
      var text: UnsafePointer<CChar>?
      if let connection, nats.natsConnection_GetLastError(connection, &text) == NATS_NOT_PERMITTED {
        let refusal = text.map { Self.withoutSourceLocation(String(cString: $0)) } ?? ""
        return StreamError(
          .authorization, "\(what): the server does not permit it (\(refusal))",
          server: server.displayURL)
      }
      return StreamError(
        .timeout, "\(what): no answer within \(server.timeoutMilliseconds) ms",
        server: server.displayURL)
    case NATS_NO_RESPONDERS:
      // Nothing takes the message: no JetStream, or (it answers) no leader of the stream
      // now, whose election a later try outlives.
      if jetStreamAnswers() { return noLeader(what) }
      return StreamError(
        .streamMissing, "\(what): the server has no JetStream (start it with -js)",
        server: server.displayURL)
    case NATS_CONNECTION_CLOSED, NATS_CONNECTION_DISCONNECTED, NATS_NO_SERVER:
      return StreamError(.noServer, "\(what): the connection was lost", server: server.displayURL)
    default:
      return StreamError(
        .other, "\(what): \(lastError(status))", server: server.displayURL)
    }
  }

  /// `message` without the place in libnats' sources it may start with (`(url.c:42): `),
  /// which means nothing to a user.
  static func withoutSourceLocation(_ message: String) -> String {
    guard message.hasPrefix("("), let end = message.firstIndex(of: ")") else { return message }
    let place = message[message.index(after: message.startIndex)..<end]
    let parts = place.split(separator: ":")
    guard parts.count == 2, parts[0].hasSuffix(".c"), parts[1].allSatisfy(\.isNumber),
      message[end...].hasPrefix("): ")
    else { return message }
    return String(message[message.index(end, offsetBy: 3)...])
  }

  /// libnats' text for the last error of this thread, or the status's.
  private func lastError(_ status: natsStatus) -> String {
    var last = NATS_OK
    if let text = nats.nats_GetLastError(&last), last != NATS_OK {
      let message = Self.withoutSourceLocation(String(cString: text))
      if !message.isEmpty { return message }
    }
    return nats.natsStatus_GetText(status).map { String(cString: $0) } ?? "error \(status.rawValue)"
  }
}
