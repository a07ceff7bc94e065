/// What a journal says about its session: the first frame of every journal file.
public struct JournalHeader: Sendable, Equatable {
  /// The format version the file was written with (set by the writer).
  public var formatVersion: FormatVersion
  /// The domain whose events the records hold, e.g. `navigation`.
  public var domain: String
  /// The domain's schema version the events were encoded with.
  public var schemaVersion: UInt32
  /// A random identifier of the session.
  public var sessionID: SessionID
  /// When the session started: microseconds since 1970-01-01T00:00:00Z.
  public var startTime: Int64
  /// A free description of the recording device (`iPad Pro 11-inch, iOS 18.1`).
  public var device: String
  /// The domain's settings for this session (the navigation catalog), opaque here.
  public var settings: [UInt8]
  /// A snapshot is expected every this many events (and at each frame start).
  public var snapshotInterval: UInt32
  /// The session this one continues, when it was started from a point of another
  /// (`rewind play`'s continue-from-here): its first events are that session's (format
  /// 1.2).
  public var parent: ParentSession?

  public init(
    domain: String, schemaVersion: UInt32, sessionID: SessionID, startTime: Int64,
    device: String, settings: [UInt8], snapshotInterval: UInt32, parent: ParentSession? = nil
  ) {
    self.formatVersion = JournalFormat.version
    self.domain = domain
    self.schemaVersion = schemaVersion
    self.sessionID = sessionID
    self.startTime = startTime
    self.device = device
    self.settings = settings
    self.snapshotInterval = snapshotInterval
    self.parent = parent
  }

  /// Checks the fields a writer is about to store.
  func validate() throws(JournalError) {
    guard !domain.isEmpty, domain.utf8.count <= JournalLimits.maximumDomainLength else {
      throw JournalError(
        .invalidArgument,
        "domain identifier must be 1 to \(JournalLimits.maximumDomainLength) bytes")
    }
    guard device.utf8.count <= JournalLimits.maximumDeviceLength else {
      throw JournalError(
        .invalidArgument,
        "device description is longer than \(JournalLimits.maximumDeviceLength) bytes")
    }
    guard settings.count <= JournalLimits.maximumSettingsSize else {
      throw JournalError(
        .tooLarge, "settings of \(settings.count) bytes exceed \(JournalLimits.maximumSettingsSize)"
      )
    }
    guard snapshotInterval >= 1, snapshotInterval <= JournalLimits.maximumSnapshotInterval else {
      throw JournalError(
        .invalidArgument,
        "snapshot interval must be 1 to \(JournalLimits.maximumSnapshotInterval) events")
    }
    if let parent {
      guard !parent.path.isEmpty, parent.path.utf8.count <= JournalLimits.maximumParentPathLength
      else {
        throw JournalError(
          .invalidArgument,
          "the parent journal's path must be 1 to \(JournalLimits.maximumParentPathLength) bytes")
      }
      guard parent.sequence <= JournalLimits.maximumSequence else {
        throw JournalError(
          .invalidArgument,
          "the parent's event \(parent.sequence) is beyond \(JournalLimits.maximumSequence)")
      }
    }
  }

  /// The header as a whole metadata frame.
  func encoded() -> [UInt8] {
    MetadataFrame.encode(.header, body: encodedBody())
  }

  /// The header's body: what the header frame holds between its tag and its checksum,
  /// and what its copies hold.
  func encodedBody() -> [UInt8] {
    var writer = ByteWriter(capacity: 256 + settings.count)
    writer.writeLittleEndian(formatVersion.major)
    writer.writeLittleEndian(formatVersion.minor)
    writer.writeLittleEndian(schemaVersion)
    writer.writeLittleEndian(snapshotInterval)
    writer.writeLittleEndian(startTime)
    writer.write(contentsOf: sessionID.bytes)
    writer.writeString(domain)
    writer.writeString(device)
    writer.writeVarint(UInt64(settings.count))
    writer.write(contentsOf: settings)
    // 1.2: the parent session, behind a flag byte.
    if formatVersion >= FormatVersion(major: 1, minor: 2) {
      if let parent {
        writer.write(1)
        writer.write(contentsOf: parent.sessionID.bytes)
        writer.writeLittleEndian(parent.sequence)
        writer.writeString(parent.path)
      } else {
        writer.write(0)
      }
    }
    return writer.bytes
  }

  /// Decodes a header body (after the tag, before the checksum).
  /// - Throws: ``JournalError/Code/unsupportedVersion`` for a newer major version, a
  ///   ``CodecError`` (wrapped by the caller) for malformed bytes.
  static func decode(body: UnsafeRawBufferPointer) throws(CodecError) -> JournalHeader {
    var reader = ByteReader(body)
    let major = try reader.readLittleEndian(UInt16.self)
    let minor = try reader.readLittleEndian(UInt16.self)
    let version = FormatVersion(major: major, minor: minor)
    guard JournalFormat.reads(major: major) else {
      // Reported by the caller as unsupportedVersion: nothing else can be trusted.
      throw CodecError(.invalidValue, "format version \(version)", at: 0)
    }
    let schemaVersion = try reader.readLittleEndian(UInt32.self)
    let interval = try reader.readLittleEndian(UInt32.self)
    let startTime = try reader.readLittleEndian(Int64.self)
    let session = try reader.readBytes(16)
    let domainStart = reader.offset
    let domain = try reader.readString(maxLength: JournalLimits.maximumDomainLength)
    guard !domain.isEmpty else {
      throw CodecError(.invalidValue, "the domain identifier is empty", at: domainStart)
    }
    let device = try reader.readString(maxLength: JournalLimits.maximumDeviceLength)
    let settingsLength = try reader.readVarint(
      atMost: UInt64(JournalLimits.maximumSettingsSize), "settings length")
    let settings = Array(try reader.readBytes(Int(settingsLength)))
    guard interval >= 1, interval <= JournalLimits.maximumSnapshotInterval else {
      throw CodecError(.invalidValue, "snapshot interval \(interval) is out of range", at: 4)
    }
    var parent: ParentSession?
    if version >= FormatVersion(major: 1, minor: 2) {
      parent = try ParentSession.decode(from: &reader)
    }
    // Fields a later minor version appends follow here; this version skips them.
    var header = JournalHeader(
      domain: domain, schemaVersion: schemaVersion, sessionID: SessionID(bytes: Array(session)),
      startTime: startTime, device: device, settings: settings, snapshotInterval: interval,
      parent: parent)
    header.formatVersion = version
    return header
  }
}

/// The session a journal continues: a journal started from a point of another session
/// holds that session's events up to the point, then its own (format 1.2).
public struct ParentSession: Sendable, Equatable {
  /// The parent journal's path, as it was opened (made absolute by the tool).
  public var path: String
  /// The parent session's identifier.
  public var sessionID: SessionID
  /// The point continued from: this journal's events 1…`sequence` are the parent's.
  public var sequence: UInt64

  public init(path: String, sessionID: SessionID, sequence: UInt64) {
    self.path = path
    self.sessionID = sessionID
    self.sequence = sequence
  }

  /// Reads the parent field of a header body: a flag byte, then the parent if it is 1.
  /// - Throws: ``CodecError`` for a flag other than 0 or 1, a sequence number out of
  ///   range or a path too long.
  static func decode(from reader: inout ByteReader) throws(CodecError) -> ParentSession? {
    let flagOffset = reader.offset
    switch try reader.readByte() {
    case 0:
      return nil
    case 1:
      let session = try reader.readBytes(16)
      let sequenceOffset = reader.offset
      let sequence = try reader.readLittleEndian(UInt64.self)
      guard sequence <= JournalLimits.maximumSequence else {
        throw CodecError(
          .invalidValue, "the parent's event \(sequence) is out of range", at: sequenceOffset)
      }
      let pathOffset = reader.offset
      let path = try reader.readString(maxLength: JournalLimits.maximumParentPathLength)
      guard !path.isEmpty else {
        throw CodecError(.invalidValue, "the parent journal's path is empty", at: pathOffset)
      }
      return ParentSession(
        path: path, sessionID: SessionID(bytes: Array(session)), sequence: sequence)
    case let flag:
      throw CodecError(.invalidValue, "parent flag \(flag) is not 0 or 1", at: flagOffset)
    }
  }
}

/// A session's 128-bit random identifier, printed in UUID form.
public struct SessionID: Sendable, Hashable, CustomStringConvertible {
  /// The 16 bytes.
  public let bytes: [UInt8]

  /// Wraps 16 bytes.
  public init(bytes: [UInt8]) {
    precondition(bytes.count == 16, "a session id is 16 bytes")
    self.bytes = bytes
  }

  /// The package's one maker of UUIDs: an identifier in the version 4 (random) UUID
  /// layout, its version and variant bits set and its other 122 bits taken from `bytes`
  /// (random ones, or seeded ones for reproducible output).
  /// - Precondition: `bytes` has 16 elements.
  public init(randomBytes bytes: [UInt8]) {
    var bytes = bytes
    precondition(bytes.count == 16, "a session id is 16 bytes")
    bytes[6] = (bytes[6] & 0x0F) | 0x40
    bytes[8] = (bytes[8] & 0x3F) | 0x80
    self.init(bytes: bytes)
  }

  /// A fresh random identifier (version 4 UUID layout).
  public static func random() -> SessionID {
    var generator = SystemRandomNumberGenerator()
    return SessionID(
      randomBytes: (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) })
  }

  /// Parses `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`.
  public init?(parsing text: String) {
    let digits = text.filter { $0 != "-" }
    guard digits.count == 32, text.count == 36 else { return nil }
    var bytes: [UInt8] = []
    var index = digits.startIndex
    while index < digits.endIndex {
      let next = digits.index(index, offsetBy: 2)
      guard let byte = UInt8(digits[index..<next], radix: 16) else { return nil }
      bytes.append(byte)
      index = next
    }
    self.bytes = bytes
  }

  /// The lowercase UUID form.
  public var description: String {
    var text = ""
    for (index, byte) in bytes.enumerated() {
      if [4, 6, 8, 10].contains(index) { text += "-" }
      text += byte < 16 ? "0" + String(byte, radix: 16) : String(byte, radix: 16)
    }
    return text
  }
}
