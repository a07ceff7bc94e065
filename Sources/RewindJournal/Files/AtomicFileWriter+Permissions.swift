#if canImport(Glibc)
  import CFileCalls
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension AtomicFileWriter {
  /// Gives the new file the owner, group and permissions of `previous`, the file it
  /// replaces, before anything is replaced.
  ///
  /// The owner and group first, where this process may give them (`fchown`): run as root,
  /// a user's private journal replaced became root's, and unreadable to its owner. A
  /// process not run as root may not give a file to another user: its failure is expected,
  /// and silent, and it gives the group alone (which a member of it may); root's is said in
  /// a warning of the commit (``warnings``). A group not kept is another group: the
  /// permission bits give it no more than the others had (a `0640` file of the group
  /// `team` does not become readable by the writer's own group), and a warning says so.
  ///
  /// Then the permission bits (`fchmod`; a change of owner may clear some): a private file
  /// stays private. When they cannot be given, what the new file has instead decides: if
  /// it grants anything the previous file did not (a `0600` file would become `0644`, its
  /// content readable by every user), the replacement fails here, the previous file left
  /// as it was, rather than publish what its owner kept private; if it grants no more (a
  /// `0666` file becomes `0644`), the file is written and a warning names both.
  ///
  /// - Returns: Whether the new file has the previous file's group.
  /// - Throws: ``JournalError/Code/io`` naming the destination, both modes and the cause,
  ///   when the new file would grant more than the file it replaces.
  func takeOwnerAndPermissions(of previous: stat) throws(JournalError) -> Bool {
    let path = destination.path
    // The new file's own owner and group (its group is the directory's in a set-group-ID
    // directory, or on macOS, not the process's).
    let current = file.ownerAndGroup()
    if current?.owner != previous.st_uid || current?.group != previous.st_gid,
      system.fchown(file.descriptor, previous.st_uid, previous.st_gid) != 0
    {
      if geteuid() == 0 {
        warnings.append(
          JournalError(
            .io,
            "the new file could not be given the owner and group of the file it replaced, user \(previous.st_uid) and group \(previous.st_gid) (\(errnoCause())): it is root's",
            path: path))
      } else {
        // The group alone, which a member of it may give (the owner, it may not).
        _ = system.fchown(file.descriptor, uid_t.max, previous.st_gid)
      }
    }
    var wanted = previous.st_mode & 0o777
    // A group not kept is another group: it gets no more than the others had (the
    // previous file's group may have read what the new file's must not).
    let group = file.ownerAndGroup()?.group
    let groupKept = group == previous.st_gid
    if let group, !groupKept {
      let narrowed = wanted & ~0o070 | (wanted & 0o070 & ((wanted & 0o007) << 3))
      if narrowed != wanted {
        warnings.append(
          JournalError(
            .io,
            "the new file's group is \(group), not the \(previous.st_gid) of the file it replaced, which could not be given to it: it has the permissions \(Self.describe(narrowed)), its group no more than the others, not \(Self.describe(wanted))",
            path: path))
        wanted = narrowed
      }
    }
    guard system.fchmod(file.descriptor, wanted) != 0 else { return groupKept }
    let cause = errnoCause()
    let own = file.permissions()
    if let own, own & ~wanted == 0 {
      guard own != wanted else { return groupKept }
      warnings.append(
        JournalError(
          .io,
          "the new file has the permissions \(Self.describe(own)), not the \(Self.describe(wanted)) of the file it replaced, which could not be given to it (\(cause))",
          path: path))
      return groupKept
    }
    let instead = own.map { "it would have \(Self.describe($0)), which grants more" }
    throw JournalError(
      .io,
      "cannot give the new file the permissions of the file it replaces (\(Self.describe(wanted))): \(instead ?? "nor tell which it has"); the previous file is left as it was",
      path: path, cause: cause)
  }

  /// Gives the new file the access control list of the file it replaces, and its extended
  /// attributes of users (`user.*`), after ``takeOwnerAndPermissions(of:)``: without the
  /// list, the permission bits alone would stand, whose group bits are the list's mask (a
  /// file whose group may read nothing, and one named user may, `0640` with its list,
  /// would become readable by its group). They are read from the file the permissions
  /// came from (through a symbolic link replaced, the file it leads to). A list that cannot
  /// be given fails the replacement, the previous file left as it was; a user's attribute
  /// that cannot be is said in a warning. Where the new file could not be given the
  /// previous file's group (`groupKept` false), the list is not given, and a warning says
  /// so: its group entry is that group's, and the bits were narrowed for the new one.
  /// Other attributes (`security.*`, `trusted.*`) are the system's to give a new file. On
  /// Linux only (macOS's lists are another system's).
  ///
  /// - Throws: ``JournalError/Code/io`` naming the destination when the list cannot be
  ///   given.
  func takeAccessList(groupKept: Bool) throws(JournalError) {
    #if os(Linux)
      let path = destination.path
      let list = "system.posix_acl_access"
      var notKept: [String] = []
      for name in Self.attributeNames(of: path) where name == list || name.hasPrefix("user.") {
        if name == list, !groupKept {
          notKept.append("\(list) (its group is not the new file's)")
          continue
        }
        guard let value = Self.attribute(name, of: path) else { continue }
        guard rewind_fsetxattr(file.descriptor, name, value, UInt(value.count), 0) != 0 else {
          continue
        }
        let cause = errnoCause()
        guard name != list else {
          throw JournalError(
            .io,
            "cannot give the new file the access control list of the file it replaces (its permission bits alone would grant its group what the list's mask does); the previous file is left as it was",
            path: path, cause: cause)
        }
        notKept.append("\(name) (\(cause))")
      }
      if !notKept.isEmpty {
        warnings.append(
          JournalError(
            .io,
            "the new file could not be given the extended \(notKept.count == 1 ? "attribute" : "attributes") of the file it replaced: \(notKept.joined(separator: ", "))",
            path: path))
      }
    #endif
  }

  #if os(Linux)
    /// The names of the extended attributes of the file at `path` (following links), read
    /// again while the list grows between the call that sizes it and the one that reads.
    private static func attributeNames(of path: String) -> [String] {
      while true {
        let size = rewind_listxattr(path, nil, 0)
        guard size > 0 else { return [] }
        var names = [CChar](repeating: 0, count: Int(size))
        let read = Int(rewind_listxattr(path, &names, UInt(names.count)))
        if read < 0, errno == ERANGE { continue }
        guard read > 0, read <= names.count else { return [] }
        return names[..<read].split(separator: 0).map {
          String(decoding: $0.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
      }
    }

    /// The value of the extended attribute `name` of the file at `path` (following
    /// links); nil when it is not there (removed meanwhile).
    private static func attribute(_ name: String, of path: String) -> [UInt8]? {
      while true {
        let size = rewind_getxattr(path, name, nil, 0)
        guard size >= 0 else { return nil }
        var value = [UInt8](repeating: 0, count: Int(size))
        let read = Int(rewind_getxattr(path, name, &value, UInt(value.count)))
        if read < 0, errno == ERANGE { continue }
        guard read >= 0, read <= value.count else { return nil }
        return Array(value[..<read])
      }
    }
  #endif

  /// Takes from the file what `permissions` do not grant (a copy of a private file stays
  /// private), never granting more than it was created with (the process's `umask`),
  /// unless it replaces a file, whose own it keeps (``takeOwnerAndPermissions(of:)``).
  ///
  /// - Throws: ``JournalError/Code/io`` naming the destination, both modes and the cause,
  ///   when they cannot be taken (`fchmod`): the copy would grant what its source did
  ///   not. The caller discards the file.
  func narrowPermissions(to permissions: mode_t) throws(JournalError) {
    guard let own = file.permissions() else { return }
    let wanted = own & permissions & 0o777
    guard wanted != own, system.fchmod(file.descriptor, wanted) != 0 else { return }
    throw unwritten(
      JournalError(
        .io,
        "cannot make the new file as private as the file it is made from (\(Self.describe(permissions & 0o777))): it would have \(Self.describe(own))",
        path: destination.path, cause: errnoCause()))
  }

  /// Permission bits as `ls -l` and `chmod` show them: `0640 (rw-r-----)`.
  static func describe(_ mode: mode_t) -> String {
    let digits = String(mode & 0o777, radix: 8)
    let letters = (0..<9).map { bit in
      mode & (0o400 >> mode_t(bit)) != 0 ? ["r", "w", "x"][bit % 3] : "-"
    }
    return String(repeating: "0", count: 4 - digits.count) + digits + " (\(letters.joined()))"
  }
}
