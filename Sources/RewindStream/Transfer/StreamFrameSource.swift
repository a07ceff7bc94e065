public import RewindJournal

/// A session on a server read as a journal: the frames a `JournalReader` asks for,
/// fetched one message each by stream sequence when it reads them.
final class StreamFrameSource: FrameSource {
  let store: StreamStore
  let summary: SessionSummary
  let frames: [StreamFrame]
  let name: String
  /// The frame fetched last: a reader reads a frame's header (for its snapshots), then
  /// the frame, and the message is fetched once.
  private var last: (number: Int, bytes: [UInt8])?

  init(store: StreamStore, summary: SessionSummary, frames: [StreamFrame], name: String) {
    self.store = store
    self.summary = summary
    self.frames = frames
    self.name = name
  }

  func frameBytes(_ info: FrameInfo) throws(JournalError) -> [UInt8] {
    guard frames.indices.contains(info.number) else {
      throw JournalError(.outOfRange, "the session has no frame \(info.number)", path: name)
    }
    if let last, last.number == info.number { return last.bytes }
    do throws(StreamError) {
      let bytes = try store.frameBytes(frames[info.number], number: info.number, of: summary)
      last = (info.number, bytes)
      return bytes
    } catch {
      // The error is named after the session (the server and session are the name's),
      // and its message names the frame as `pull`'s does: "cannot read frame N (stream
      // sequence S): …".
      throw JournalError(.io, error.message, path: name)
    }
  }

  func another() throws(JournalError) -> any FrameSource {
    do throws(StreamError) {
      return StreamFrameSource(
        store: try StreamStore(store.server), summary: summary, frames: frames, name: name)
    } catch {
      throw JournalError(.io, error.description, path: name)
    }
  }
}

extension StreamStore {
  /// Whether `text` names a session on a server (`nats://HOST:PORT/SESSION-ID`, or
  /// `tls://…`) rather than a file.
  public static func isSessionURL(_ text: String) -> Bool {
    sessionURL(text) != nil
  }

  /// Whether `text` starts as a session's URL does (`nats://` or `tls://`), whether or not
  /// it is one: for a message that says what it lacks, rather than that no such file exists.
  public static func looksLikeSessionURL(_ text: String) -> Bool {
    text.hasPrefix("nats://") || text.hasPrefix("tls://")
  }

  /// `text`, an address that cannot be read as a session's URL (a space in it, a scheme in
  /// capitals or another one), with everything from each scheme (`nats://`, `HTTP://`) to
  /// the last `@` before the next written `***`: where the URL cannot be read, neither can
  /// where a password in it ends (`nats://***@HOST:PORT/…`).
  public static func maskingUnreadableCredentials(in text: String) -> String {
    /// Where each scheme's `://` is, and its end.
    func scheme(in text: Substring) -> Range<Substring.Index>? {
      var rest = text
      while let found = rest.firstRange(of: "://") {
        if found.lowerBound > rest.startIndex, rest[rest.index(before: found.lowerBound)].isLetter {
          return found
        }
        rest = rest[found.upperBound...]
      }
      return nil
    }
    var result = ""
    var rest = Substring(text)
    while let found = scheme(in: rest) {
      result += rest[..<found.upperBound]
      rest = rest[found.upperBound...]
      let next =
        scheme(in: rest).map { found in
          // The next address starts at its scheme's first letter.
          rest[..<found.lowerBound].lastIndex { !$0.isLetter }.map { rest.index(after: $0) }
            ?? rest.startIndex
        } ?? rest.endIndex
      if let at = rest[..<next].lastIndex(of: "@") {
        result += "***"
        rest = rest[at...]
      } else {
        result += rest[..<next]
        rest = rest[next...]
      }
    }
    return result + rest
  }

  /// `text` with the password of every server URL in it written `***`, as
  /// ``StreamServer/displayURL`` writes a server's (`nats://USER:PASSWORD@HOST:PORT/…` →
  /// `nats://USER:***@HOST:PORT/…`, `tls://` too, each of a comma-separated list): a
  /// message never shows a password, wherever the URL it quotes came from. With
  /// `hidingTokens`, a user given without a password is written `***` too, as libnats
  /// sends it as a token (`nats://TOKEN@HOST:PORT`).
  public static func maskingPasswords(in text: String, hidingTokens: Bool = false) -> String {
    var result = ""
    var rest = Substring(text)
    while let found = ["nats://", "tls://"].compactMap({ rest.firstRange(of: $0) })
      .min(by: { $0.lowerBound < $1.lowerBound })
    {
      result += rest[..<found.lowerBound]
      var end = authorityEnd(rest[found.upperBound...])
      result += masked(rest[found.lowerBound..<end], hidingTokens: hidingTokens)
      // The next addresses of a list without their scheme (a session's URL takes a
      // cluster's nodes so: `nats://U:P@H1:1,U:P@H2:2/ID`), each masked as well.
      while rest[end...].first == ",",
        !["nats://", "tls://"].contains(where: { rest[rest.index(after: end)...].hasPrefix($0) })
      {
        let start = rest.index(after: end)
        result += ","
        end = authorityEnd(rest[start...])
        result += masked(rest[start..<end], hidingTokens: hidingTokens)
      }
      rest = rest[end...]
    }
    return result + rest
  }

  /// Where the address that `authority` starts with ends (after its scheme, if any): at the
  /// path, a space or the next address of a list, but for credentials holding a slash.
  private static func authorityEnd(_ authority: Substring) -> Substring.Index {
    var end =
      authority.firstIndex { $0 == "/" || $0 == "," || $0.isWhitespace } ?? authority.endIndex
    // A password may hold a slash (a base64 one often does): the credentials end at the
    // last `@` a slash follows (`USER:PA/SS@HOST:PORT/SESSION`), where a point's `@`
    // (`…/SESSION@POINT`) has none after it.
    let run = authority.prefix { !($0 == "," || $0.isWhitespace) }
    if let at = run.indices.last(where: { run[$0] == "@" && run[$0...].contains("/") }),
      at > end, let slash = run[at...].firstIndex(of: "/")
    {
      end = slash
    }
    // A password holding a slash and an `@`, with no session after the host
    // (`nats://U:PA/S@S@HOST:PORT`): an `@` after the first slash that a host and port
    // end the text after (a point never does) ends the credentials too.
    if run.indices.contains(where: { index in
      run[index] == "@" && index > end && Self.isHostAndPort(run[run.index(after: index)...])
    }) {
      end = run.endIndex
    }
    return end
  }

  /// `address` (with its scheme or not) with its credentials masked; one that starts with
  /// a bracket, after its scheme, is an IPv6 host, or the syntax's `[USER:PASSWORD@]`: no
  /// credentials come before it.
  private static func masked(_ address: Substring, hidingTokens: Bool) -> String {
    let host =
      ["nats://", "tls://"].first { address.hasPrefix($0) }.map { address.dropFirst($0.count) }
      ?? address
    return host.first == "["
      ? String(address) : StreamServer.masked(String(address), hidingTokens: hidingTokens)
  }

  /// What is wrong with the session of `text`, a server's URL (or a cluster's) whose
  /// session after the last slash is no id: none follows the slash, or the text after it
  /// is a password's end (`USER:PA/SS@HOST:PORT`, never quoted), or the id is not hex digits
  /// and dashes. Nil for a session's URL, or text whose servers are no URL.
  public static func sessionProblem(in text: String) -> String? {
    guard looksLikeSessionURL(text), sessionURL(text) == nil,
      let slash = text.lastIndex(of: "/"), sessionURL(text[..<slash] + "/0") != nil
    else { return nil }
    let session = text[text.index(after: slash)...]
    if session.isEmpty { return "no session after the slash" }
    if let at = session.firstIndex(of: "@"), endsWithHost(session[at...]) {
      return "no session after the host and port"
    }
    let id = session.prefix { $0 != "@" }
    if id.contains(where: \.isWhitespace) { return "a session's URL holds no space" }
    return
      "'\(id)' is no session id, which is hex digits and dashes (or their beginning), as `rewind sessions` lists them"
  }

  /// Whether `text` (from an `@` on) is an `@` that a host and port follow: a password's
  /// end, not a point's `@`.
  static func endsWithHost(_ text: Substring) -> Bool {
    text.first == "@" && isHostAndPort(text.dropFirst())
  }

  /// Whether `text` is `HOST:PORT` (no slash, no `@`, a port of digits) or `[IPv6]:PORT`.
  static func isHostAndPort(_ text: Substring) -> Bool {
    guard let colon = text.lastIndex(of: ":"), !text.contains("/"), !text.contains("@") else {
      return false
    }
    let port = text[text.index(after: colon)...]
    return !port.isEmpty && port.count <= 5 && port.allSatisfy { ("0"..."9").contains($0) }
      && text.startIndex < colon
  }

  /// The session URL `text` as messages name it, as its reader names the session: without
  /// its user and password; any other text with its passwords masked
  /// (``maskingPasswords(in:hidingTokens:)``).
  public static func displayName(_ text: String) -> String {
    guard let (server, session) = sessionURL(text) else { return maskingPasswords(in: text) }
    return "\(server.displayURL)/\(session)"
  }

  /// The server and the session of `nats://[USER:PASSWORD@]HOST:PORT/SESSION-ID`; the
  /// user and password, when given, are the server's (and never shown in messages).
  ///
  /// The server may be a cluster's nodes, separated by commas as `--server` takes them
  /// (`nats://HOST:PORT,nats://HOST:PORT/SESSION-ID`; the scheme of each after the first
  /// may be left out): the session is read from whichever answers, so that a node down
  /// does not stop a read. The user and password may be given with one address or with
  /// each, the same: addresses that give different ones are no session's URL.
  ///
  /// A password may hold a slash (a base64 one often does), as it may in `--server`: the
  /// session follows the last slash, and an address's credentials end at its last `@`
  /// (a point's `@` follows the session). They are taken as written, as `--server`'s are
  /// (not percent-decoded); a comma separates addresses, in a password too, as in
  /// `--server`.
  public static func sessionURL(_ text: String) -> (server: StreamServer, session: String)? {
    guard looksLikeSessionURL(text), let slash = text.lastIndex(of: "/") else { return nil }
    let session = String(text[text.index(after: slash)...])
    // A session's id (or the start of it) is hex digits and dashes, a point's `@` after it:
    // anything else is no session (a password's `/` and `@` read as a path, say: an `@`
    // that a host and port follow is a password's). No URL holds a space.
    let id = session.prefix { $0 != "@" }
    guard !id.isEmpty, id.allSatisfy({ $0.isHexDigit || $0 == "-" }),
      !Self.endsWithHost(session[id.endIndex...]), !text.contains(where: \.isWhitespace)
    else { return nil }
    var server = StreamServer(url: "")
    var credentials: Substring?
    var addresses: [String] = []
    for address in text[..<slash].split(separator: ",", omittingEmptySubsequences: false) {
      let scheme = ["nats://", "tls://"].first { address.hasPrefix($0) } ?? ""
      var rest = address.dropFirst(scheme.count)
      if let at = rest.lastIndex(of: "@") {
        guard credentials == nil || credentials == rest[..<at] else { return nil }
        credentials = rest[..<at]
        rest = rest[rest.index(after: at)...]
      }
      // What follows the credentials is a host and port, which a slash is not part of.
      guard !rest.contains("/") else { return nil }
      addresses.append(scheme + rest)
    }
    guard !addresses.isEmpty, !addresses[0].hasSuffix("://") else { return nil }
    if let credentials {
      if let colon = credentials.firstIndex(of: ":") {
        server.user = String(credentials[..<colon])
        server.password = String(credentials[credentials.index(after: colon)...])
      } else {
        server.user = String(credentials)
      }
    }
    server.url = addresses.joined(separator: ",")
    return (server, session)
  }

  /// A reader of the session `text` names on this server, as of now: its header, index
  /// and summary are read at once, each frame when the reader reads it. A session
  /// still being pushed reads as a journal not yet closed.
  /// - Throws: ``StreamError`` naming the server and the session; the `JournalError`
  ///   of a header that cannot be read.
  public func reader(session text: String) throws -> JournalReader {
    let summary: SessionSummary
    let frames: [StreamFrame]
    let header: [UInt8]
    do throws(StreamError) {
      summary = try self.summary(of: text)
      frames = try self.frames(of: summary)
      header = try headerFrame(of: summary)
    } catch {
      throw error.about(text)
    }
    let name = "\(server.displayURL)/\(summary.session)"
    let body = try JournalAssembler.headerBody(of: header, source: name)
    let source = StreamFrameSource(store: self, summary: summary, frames: frames, name: name)
    return try JournalReader(
      name: name, headerBody: body,
      frames: frames.enumerated().map { $0.element.info(number: $0.offset) },
      isClosed: summary.isClosed, isIncompletePush: summary.isIncomplete, source: source)
  }
}
