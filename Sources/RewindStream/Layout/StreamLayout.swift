public import RewindJournal

/// Where Rewind keeps sessions on a JetStream server (FORMAT.md, "Sessions on a NATS
/// JetStream server"): one stream of every session's messages, a bucket of summaries and
/// a bucket of frame indexes.
public enum StreamLayout {
  /// The stream of every session: subjects `rewind.<domain>.<session-id>`.
  public static let stream = "REWIND"
  /// The subjects of ``stream``.
  public static let subjects = ["rewind.>"]
  /// The bucket of session summaries, one per session, keyed by its id.
  public static let sessionsBucket = "REWIND_SESSIONS"
  /// The bucket of frame indexes: key `<session-id>.<chunk>`, ``indexChunkSize`` frames
  /// each.
  public static let indexBucket = "REWIND_INDEX"
  /// Frames per value of ``indexBucket``.
  public static let indexChunkSize = 256

  /// The subject of a session's messages: the domain's letters, digits, `-` and `_`
  /// (anything else `_`), then the session id.
  public static func subject(domain: String, session: SessionID) -> String {
    let token = String(
      domain.unicodeScalars.map { scalar -> Character in
        let allowed =
          ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
          || ("0"..."9").contains(scalar) || scalar == "-" || scalar == "_"
        return allowed ? Character(scalar) : "_"
      })
    return "rewind.\(token).\(session)"
  }

  /// The message id of a session's header message.
  public static func headerMessageID(_ session: SessionID) -> String { "\(session).header" }
  /// The message id of frame `number` of a session.
  public static func frameMessageID(_ session: SessionID, _ number: Int) -> String {
    "\(session).\(number)"
  }
  /// The key of index chunk `chunk` of a session in ``indexBucket``.
  static func indexKey(_ session: String, chunk: Int) -> String { "\(session).\(chunk)" }

  /// Message headers: what a message holds (`header` or `frame`), and a frame's number.
  static let kindHeader = "Rewind-Kind"
  static let frameHeader = "Rewind-Frame"
  static let eventsHeader = "Rewind-Events"
}
