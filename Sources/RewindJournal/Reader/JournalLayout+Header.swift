extension JournalLayout {
  /// The journal header as found on opening: from the header frame, or from a copy.
  struct FoundHeader {
    var header: JournalHeader
    /// The body the header was decoded from.
    var body: [UInt8]
    /// Where the frames may begin.
    var end: UInt64
    /// Set when the header is damaged and a copy was read.
    var damage: HeaderDamage?
  }

  /// Reads and checks the header frame at the start of the file; if it is damaged, reads
  /// a copy of it instead (FORMAT.md, "Copies of the header").
  /// - Throws: ``JournalError/Code/notAJournal``, ``JournalError/Code/unsupportedVersion``,
  ///   or ``JournalError/Code/corruptHeader`` when the header is damaged and no intact
  ///   copy is found.
  static func readHeader(_ file: JournalFile, fileSize: UInt64) throws(JournalError)
    -> FoundHeader
  {
    let failure: JournalError
    switch try metadataFrame(in: file, fileSize: fileSize, at: 0, tag: .header) {
    case .success(let (body, end)):
      return FoundHeader(
        header: try decodeHeader(body, path: file.path), body: body, end: end, damage: nil)
    case .failure(let error):
      failure = error
    }
    // A file that starts with neither the magic nor, 8 bytes on, the header's tag is no
    // journal; a journal whose first bytes are damaged keeps one of the two.
    guard fileSize >= 12, let start = try file.read(count: 12, at: 0) else { throw failure }
    let magic = start.withUnsafeBytes { MetadataFrame.prefix($0).magic }
    let tag = start.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 8, as: UInt32.self) }
    // (A whole metadata frame of another tag is no header, and no damaged one either.)
    guard
      failure.code == .corruptHeader
        || (magic != JournalFormat.metadataMagic
          && UInt32(littleEndian: tag) == JournalFormat.Tag.header.rawValue)
    else { throw failure }
    guard let copy = try findCopy(in: file, fileSize: fileSize, declaredEnd: start) else {
      var error = failure
      if error.code != .corruptHeader {
        error = JournalError(
          .corruptHeader, "the journal header is damaged", path: file.path, byteOffset: 0)
      }
      error.message += "; no intact copy of it was found"
      throw error
    }
    let header = try decodeHeader(copy.body, path: file.path)
    let damage = try describeDamage(
      in: file, fileSize: fileSize, comparedWith: copy, failure: failure)
    return FoundHeader(header: header, body: copy.body, end: copy.end, damage: damage)
  }

  /// What is wrong with the copy that follows `found`, a whole header (FORMAT.md,
  /// "Copies of the header"): damaged, missing, or other bytes than the header's; nil
  /// when it is whole and the same, for a header read from a copy, or for format 1.0,
  /// which has none.
  /// - Throws: ``JournalError`` when the file cannot be read.
  /// - Complexity: one read of the copy's frame.
  static func headerCopyDamage(in file: JournalFile, fileSize: UInt64, after found: FoundHeader)
    throws(JournalError) -> JournalCondition.HeaderCopyDamage?
  {
    // Since format 1.1 a copy follows the header.
    guard found.damage == nil, found.header.formatVersion >= FormatVersion(major: 1, minor: 1)
    else { return nil }
    let reason: String
    switch try metadataFrame(in: file, fileSize: fileSize, at: found.end, tag: .headerCopy) {
    case .success(let (body, _)):
      guard body != found.body else { return nil }
      reason = "the copy of the journal header differs from the header"
    case .failure(let error):
      // The message of a damaged copy names it already.
      reason =
        error.code == .notAJournal
        ? "the copy of the journal header is missing after the header" : error.message
    }
    return JournalCondition.HeaderCopyDamage(offset: found.end, reason: reason)
  }

  private static func notAJournal(_ path: String) -> JournalError {
    JournalError(
      .notAJournal, "not a Rewind journal (it does not start with a journal header)", path: path)
  }

  /// Reads the metadata frame at `offset` and checks that it is whole, that its checksum
  /// verifies and that its tag is `tag`.
  /// - Returns: the body and where the frame ends, or why it is not one (an error whose
  ///   code is ``JournalError/Code/notAJournal`` or ``JournalError/Code/corruptHeader``).
  static func metadataFrame(
    in file: JournalFile, fileSize: UInt64, at offset: UInt64, tag: JournalFormat.Tag
  ) throws(JournalError) -> Result<([UInt8], UInt64), JournalError> {
    let what = tag == .header ? "the journal header" : "the copy of the journal header"
    guard fileSize >= offset + 8, let prefixBytes = try file.read(count: 8, at: offset) else {
      if offset == 0 && fileSize == 0 {
        // A file of /proc or /sys says its size is 0 and holds text all the same.
        if (try? file.read(count: 1, at: 0)) != nil {
          return .failure(
            JournalError(
              .notAJournal,
              "the file says its size is 0 but holds bytes (a file of /proc or /sys), not a Rewind journal",
              path: file.path))
        }
        return .failure(
          JournalError(.notAJournal, "the file is empty, not a Rewind journal", path: file.path))
      }
      // 2 to 7 bytes that start as a journal does (its magic, or the start of it): a
      // journal cut short, not another kind of file (one byte, `[`, may be JSON).
      if offset == 0, fileSize >= 2, fileSize < 8,
        let bytes = try file.read(count: Int(fileSize), at: 0),
        bytes.prefix(4).elementsEqual(
          withUnsafeBytes(of: JournalFormat.metadataMagic.littleEndian, Array.init).prefix(
            Int(fileSize)))
      {
        return .failure(
          JournalError(
            .corruptHeader, "\(what) is cut short (the file has \(fileSize) bytes)",
            path: file.path, byteOffset: 0))
      }
      return .failure(notAJournal(file.path))
    }
    let (magic, payloadSize) = prefixBytes.withUnsafeBytes { MetadataFrame.prefix($0) }
    guard magic == JournalFormat.metadataMagic else { return .failure(notAJournal(file.path)) }
    guard payloadSize <= JournalLimits.maximumSettingsSize + 8192 else {
      return .failure(
        JournalError(
          .corruptHeader, "\(what) declares \(payloadSize) bytes, beyond the limit",
          path: file.path, byteOffset: offset))
    }
    guard UInt64(payloadSize) + 8 <= fileSize - offset,
      let payload = try file.read(count: Int(payloadSize), at: offset + 8)
    else {
      return .failure(
        JournalError(
          .corruptHeader, "\(what) is cut short (the file has \(fileSize) bytes)",
          path: file.path, byteOffset: offset))
    }
    do throws(CodecError) {
      let (foundTag, body) = try payload.withBytes { buffer throws(CodecError) in
        let (tag, body) = try MetadataFrame.open(buffer)
        return (tag, Array(body))
      }
      guard foundTag == tag.rawValue else { return .failure(notAJournal(file.path)) }
      return .success((body, offset + 8 + UInt64(payloadSize)))
    } catch {
      return .failure(
        JournalError(
          .corruptHeader, "\(what) is damaged: \(error.message)", path: file.path,
          byteOffset: offset))
    }
  }

  /// Decodes a header body whose checksum verified.
  /// - Throws: ``JournalError/Code/unsupportedVersion`` for a newer major version,
  ///   ``JournalError/Code/corruptHeader`` for fields that break the format.
  static func decodeHeader(_ body: [UInt8], path: String) throws(JournalError) -> JournalHeader {
    if body.count >= 4 {
      let major = UInt16(body[0]) | UInt16(body[1]) << 8
      let minor = UInt16(body[2]) | UInt16(body[3]) << 8
      guard JournalFormat.reads(major: major) else {
        throw JournalError(
          .unsupportedVersion,
          "journal format \(major).\(minor) is not supported by this version of Rewind (it reads \(JournalFormat.oldestMajor).x to \(JournalFormat.version.major).x); a newer Rewind is needed",
          path: path)
      }
    }
    do throws(CodecError) {
      return try body.withBytes { body throws(CodecError) in
        try JournalHeader.decode(body: body)
      }
    } catch {
      throw JournalError(
        .corruptHeader, "the journal header is invalid: \(error.message)", path: path,
        byteOffset: 12 + UInt64(error.offset))
    }
  }

  /// A copy of the header's body: where it starts, and where the frames may begin after
  /// it.
  private struct Copy {
    var body: [UInt8]
    var offset: UInt64
    var end: UInt64
    /// Whether the copy is the index's (`offset` is then the index's).
    var inIndex = false
  }

  /// Finds an intact copy of the header: the `RWHC` frame where the header's prefix says
  /// the header ends, else the first one in the bytes a header can span, else the copy
  /// in the index.
  private static func findCopy(in file: JournalFile, fileSize: UInt64, declaredEnd start: [UInt8])
    throws(JournalError) -> Copy?
  {
    let payloadSize = start.withUnsafeBytes { MetadataFrame.prefix($0).payloadSize }
    let declared = 8 + UInt64(payloadSize)
    if payloadSize <= JournalLimits.maximumSettingsSize + 8192,
      case .success(let (body, end)) = try metadataFrame(
        in: file, fileSize: fileSize, at: declared, tag: .headerCopy)
    {
      return Copy(body: body, offset: declared, end: end)
    }
    // The prefix itself may be the damaged part: look where a copy can be.
    let span = min(fileSize, UInt64(JournalLimits.maximumSettingsSize + 8192 + 32))
    if let bytes = try file.read(count: Int(span), at: 0) {
      let tag = JournalFormat.Tag.headerCopy.rawValue
      var index = 1
      while index + 12 <= bytes.count {
        defer { index += 1 }
        guard bytes[index] == 0x5B, bytes[index + 1] == 0x2A, bytes[index + 2] == 0x4D,
          bytes[index + 3] == 0x18, bytes[index + 8] == UInt8(tag & 0xFF),
          bytes[index + 9] == UInt8(tag >> 8 & 0xFF), bytes[index + 10] == UInt8(tag >> 16 & 0xFF),
          bytes[index + 11] == UInt8(tag >> 24)
        else { continue }
        if case .success(let (body, end)) = try metadataFrame(
          in: file, fileSize: fileSize, at: UInt64(index), tag: .headerCopy)
        {
          return Copy(body: body, offset: UInt64(index), end: end)
        }
      }
    }
    // A closed journal keeps a copy in its index.
    guard
      case .success(let (index, indexOffset)) = try readIndex(
        file, fileSize: fileSize, after: 0), let body = index.headerCopy
    else { return nil }
    // The frames begin at the first frame header after the damage.
    var walker = FrameWalker(file: file, fileSize: fileSize, start: 0)
    let first = try walker.resynchronize(after: 0)?.offset ?? indexOffset
    return Copy(body: body, offset: indexOffset, end: min(first, indexOffset), inIndex: true)
  }

  /// Compares the header bytes with the header the copy makes, to say which bytes are
  /// damaged.
  private static func describeDamage(
    in file: JournalFile, fileSize: UInt64, comparedWith copy: Copy, failure: JournalError
  ) throws(JournalError) -> HeaderDamage {
    let copyOffset = copy.offset
    let expected = MetadataFrame.encode(.header, body: copy.body)
    let count = Int(min(UInt64(expected.count), fileSize))
    let actual = try file.read(count: count, at: 0) ?? []
    var differing: [Int] = []
    for index in 0..<count where actual[index] != expected[index] { differing.append(index) }
    // Where the copy is, said so that its offset is not read as the damaged byte's twin.
    let place =
      copy.inIndex
      ? "the index's copy (the index starts at byte \(copyOffset))"
      : "the copy after the header, which starts at byte \(copyOffset)"
    let what: String
    switch differing.count {
    case 0:
      what = count < expected.count ? "the file ends inside it" : failure.message
    case 1:
      what = "byte \(differing[0]) differs from \(place)"
    case differing.last! - differing[0] + 1:
      what = "bytes \(differing[0])–\(differing.last!) differ from \(place)"
    default:
      what = "\(differing.count) bytes, the first at byte \(differing[0]), differ from \(place)"
    }
    return HeaderDamage(
      offset: UInt64(differing.first ?? count),
      reason: "the journal header is damaged (\(what)); it was read from the copy",
      copyOffset: copyOffset)
  }
}
