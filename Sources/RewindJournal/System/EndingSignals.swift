import CSignalCleanup
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What `SIGINT` (Ctrl-C), `SIGTERM` and `SIGHUP` do to this process's temporary files:
/// their names are removed, then the process dies by the signal, as it would have (a shell
/// sees 128 + its number).
///
/// Without it a Ctrl-C was a `kill -9` to the files: on a file system without unnamed
/// temporary files (NFS, SMB, FAT, macOS) the whole partial output stayed under its hidden
/// name until the next write of the same file. A program that wants this (`rewind` does, as
/// it starts) calls ``install()``; ``AtomicFileWriter`` registers each hidden name it makes
/// (``add(_:)``) and takes it out (``remove(_:)``) before the name may become the
/// destination's or the previous file's only one, and holds the signals back
/// (``hold()``, ``release()``) while a replacement takes its last steps, so that a signal
/// then ends the process once they are done, not in their middle.
///
/// The handler is C (`CSignalCleanup`): a handler may call only async-signal-safe
/// functions, which Swift's runtime is not. It reads a registry of fixed size, made on the
/// first ``add(_:)``: 64 paths of up to 4,095 bytes. A name beyond that, or a signal
/// in the instant between a file's creation and its registration, leaves the name for the
/// next writer's cleanup, as a `kill -9` does.
package enum EndingSignals {
  /// The registry, made on first use and never freed; nil when memory was short (no name
  /// is then removed by a signal).
  nonisolated(unsafe) private static let registry: UnsafeMutableRawPointer? = {
    let registry = rewind_cleanup_make()
    if let registry { rewind_cleanup_attach(registry) }
    return registry
  }()

  /// Installs the handler of `SIGINT`, `SIGTERM` and `SIGHUP`, each where it has its
  /// default action: one ignored (as under `nohup`) stays ignored, one the program handles
  /// stays its own. A terminal session (`live`, `play`) installs its own while it runs and
  /// puts this one back after.
  ///
  /// It also ignores `SIGXFSZ`: a write past the file size limit (`ulimit -f`) then fails
  /// with `EFBIG` and is said as any write that fails is, its temporary file removed,
  /// where the signal ended the process without a word (exit 153) and left the file's
  /// hidden name on a file system without unnamed files. A program the process becomes
  /// (`rewind-nats`, by `execv`) keeps it ignored.
  /// - Complexity: seven `sigaction` calls; nothing is allocated until a name is added.
  package static func install() {
    for signal in [SIGINT, SIGTERM, SIGHUP] { _ = rewind_cleanup_install(signal) }
    _ = signal(SIGXFSZ, SIG_IGN)
    pipeWasDefault.store(rewind_signal_is_default(SIGPIPE) == 1, ordering: .relaxed)
  }

  /// Whether `SIGPIPE` had its default action when the process started (``install()``).
  private static let pipeWasDefault = Atomic<Bool>(false)

  /// A write to a pipe whose reader stopped reading failed (`EPIPE`): the process ends by
  /// `SIGPIPE` as it would have at the write (status 141, which `set -o pipefail` counts),
  /// its temporary files' names removed first, when the signal had its default action at
  /// the start; a library that ignores it since (libnats, for its sockets, in
  /// `rewind-nats`) made the command go on writing nothing and exit 0. Where the user
  /// ignored it, this returns: the command goes on.
  package static func pipeClosed() {
    guard pipeWasDefault.load(ordering: .relaxed) else { return }
    rewind_cleanup_end_now(SIGPIPE)
  }

  /// Registers `path`, the name of a file this process made, for a signal to remove.
  /// - Returns: the slot to give ``remove(_:)``; -1 when the registry is full (the name is
  ///   then left to the next writer's cleanup).
  static func add(_ path: String) -> Int32 {
    guard let registry else { return -1 }
    return rewind_cleanup_add(registry, path)
  }

  /// Takes `slot` out: no signal removes its name from now on. Called before a step that
  /// makes the name one that must stay (the destination's, the previous file's only one),
  /// and once the name is gone. If a signal is removing it already, the process is ending:
  /// this never returns then, and the step never happens.
  static func remove(_ slot: Int32) {
    guard let registry, slot >= 0 else { return }
    rewind_cleanup_remove(registry, slot)
  }

  /// Holds back a signal that would end the process, until the matching ``release()``:
  /// it then waits for a replacement's last steps (a second one ends the process at once).
  static func hold() {
    guard let registry else { return }
    rewind_cleanup_hold(registry)
  }

  /// Whether the next ``release()`` ends the process: a signal came while a replacement
  /// held signals back, and no other replacement holds them.
  static var endsAtRelease: Bool {
    guard let registry else { return false }
    return rewind_cleanup_pending(registry) != 0 && rewind_cleanup_holding(registry) == 1
  }

  /// Ends one ``hold()``. When none is left and a signal came meanwhile, ends the process
  /// by it, after removing the names still registered: this does not return then.
  static func release() {
    guard let registry else { return }
    rewind_cleanup_release(registry)
  }
}
