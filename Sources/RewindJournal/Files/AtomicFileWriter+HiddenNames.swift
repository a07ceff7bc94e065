import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a hidden name a writer gives beside its destination holds, as its spelling says:
/// the cleanup of a later writer treats each as far as it can be sure of it.
enum HiddenNameRole: Equatable {
  /// `.NAME.PID-N.new.tmp`: a new file, written under that name (where the file system has
  /// no unnamed files) or given it to be moved into place. Never the destination's only
  /// copy: a move takes the name away.
  case newFile
  /// `.NAME.PID-N.previous.tmp`: a second name of the file a replacement replaces, to move
  /// it back if the directory cannot be synced; once the new file is in place, the
  /// previous file's only name.
  case previousFile
  /// `.NAME.PID-N.tmp`: a name of an earlier version of the writer, for either.
  case earlier

  /// How a name of this role ends, after `PID-N`.
  var ending: String {
    switch self {
    case .newFile: ".new.tmp"
    case .previousFile: ".previous.tmp"
    case .earlier: ".tmp"
    }
  }
}

extension AtomicFileWriter {
  private static let counter = Atomic<UInt64>(0)

  /// The hidden names that writers of this process hold now.
  private static let liveNames = Mutex<Set<String>>([])

  /// The largest process number the system gives: Linux's `PID_MAX_LIMIT` (2^22), the
  /// `PID_MAX` of Apple's systems.
  static var largestProcessID: pid_t {
    #if os(Linux)
      4_194_304
    #elseif canImport(Darwin)
      99_999
    #else
      pid_t.max
    #endif
  }

  /// A fresh hidden name beside `path` for `role`: `.NAME.PID-N.new.tmp` or
  /// `.NAME.PID-N.previous.tmp`, held (spared by ``removeLeftovers(beside:system:)``)
  /// until ``release(_:)``.
  static func temporaryName(beside path: String, for role: HiddenNameRole) -> String {
    let number = counter.add(1, ordering: .relaxed).newValue
    let (directory, prefix) = hiddenPrefix(beside: path)
    let name = "\(directory)\(prefix)\(getpid())-\(number)\(role.ending)"
    _ = liveNames.withLock { $0.insert(name) }
    return name
  }

  /// The directory of `path` as `path` gives it (with its slash; empty for a bare name),
  /// and `.NAME.`, the start of the hidden names beside it.
  ///
  /// A name of more than 200 bytes is cut to its first 200 (whole characters): the hidden
  /// names stay within the 255 bytes a name may have, for a file whose own name does.
  private static func hiddenPrefix(beside path: String) -> (directory: String, prefix: String) {
    let base = path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
    var kept = Substring(base)
    while kept.utf8.count > 200 { kept = kept.dropLast() }
    return (path.contains("/") ? JournalFile.directory(of: path) + "/" : "", ".\(kept).")
  }

  /// Stops holding `names`: another writer's cleanup may take them for leftovers.
  static func release(_ names: [String]) {
    liveNames.withLock { live in
      for name in names { live.remove(name) }
    }
  }

  /// Removes the hidden names beside `path` that a writer of a process that is gone left
  /// (a power cut or `kill -9` during its commit), or a writer of this process that no
  /// longer holds them (a power cut the tests simulate), where it is sure that nothing is
  /// lost with them. A failure is ignored: the names harm nothing, and the next writer
  /// tries again.
  ///
  /// A name is removed only when all of these hold:
  /// - it is spelt exactly as a writer spells it (``hiddenName(_:)``), after `.NAME.`;
  /// - it is a regular file's (not a symbolic link's, a directory's…);
  /// - its process is gone (or is this one, and no writer of it holds the name);
  /// - it is a new file's (``HiddenNameRole/newFile``: never the destination's only copy),
  ///   or else (the previous file's, or an earlier version's, which may be either) the
  ///   destination is that same file (device and inode): the previous file is still in
  ///   place, and the name a spare. Elsewhere it may be the previous file's only name (the
  ///   new file moved in, the process gone before it removed that name, or an error that
  ///   named it): it stays.
  static func removeLeftovers(beside path: String, system: FileSystemCalls) {
    let (directory, prefix) = hiddenPrefix(beside: path)
    guard let stream = opendir(JournalFile.directory(of: path)) else { return }
    var found: [(name: String, process: pid_t, role: HiddenNameRole)] = []
    while let entry = readdir(stream) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
        String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
      }
      guard name.hasPrefix(prefix), let (process, role) = hiddenName(name.dropFirst(prefix.count))
      else { continue }
      found.append((name, process, role))
    }
    closedir(stream)
    let ownProcess = getpid()
    for (name, process, role) in found {
      let full = directory + name
      let gone =
        process == ownProcess
        ? !liveNames.withLock { $0.contains(full) }
        : kill(process, 0) != 0 && errno == ESRCH
      var status = stat()
      guard gone, system.lstat(full, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
        continue
      }
      if role != .newFile {
        guard let destination = JournalFile.status(of: path, system: system),
          FileIdentity(destination) == FileIdentity(status)
        else { continue }
      }
      _ = system.unlink(full)
    }
  }

  /// The process number and role that a hidden name says after its `.NAME.`: `PID-N`
  /// then a role's ending (``HiddenNameRole/ending``), both numbers in decimal digits
  /// without a sign or a leading zero, the process within the system's range and `N`
  /// within 64 bits; nil for anything else, which no writer made.
  static func hiddenName(_ rest: Substring) -> (process: pid_t, role: HiddenNameRole)? {
    guard
      let role = [HiddenNameRole.newFile, .previousFile, .earlier].first(where: {
        rest.hasSuffix($0.ending)
      })
    else { return nil }
    let parts = rest.dropLast(role.ending.count).split(
      separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 2, let process = decimal(parts[0]), decimal(parts[1]) != nil,
      process <= UInt64(largestProcessID)
    else { return nil }
    return (pid_t(process), role)
  }

  /// The value of `digits` spelt as a writer spells a number: ASCII digits, no sign, no
  /// leading zero (so never 0); nil for anything else, or a value beyond 64 bits.
  private static func decimal(_ digits: Substring) -> UInt64? {
    guard let first = digits.utf8.first, first != UInt8(ascii: "0"),
      digits.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
    else { return nil }
    return UInt64(digits)
  }
}
