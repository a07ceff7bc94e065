import RewindArguments
import RewindCore
import RewindStream

/// Refuses a session on a server where `command` reads a journal file itself (its bytes
/// as stored, to check or write them again: `verify`, `recover`, `push`): a usage error
/// that names the session without the user and password its URL gave, and how to make a
/// file of it, where the file system's "no such file" would say nothing of the server.
/// - Throws: ``UsageError`` when `path` is a session URL and no such file exists.
func requireFile(_ path: String, for command: String) throws(UsageError) {
  guard !fileExists(path), let (server, session) = StreamStore.sessionURL(path) else { return }
  throw UsageError(
    "\(server.displayURL)/\(session) is a session on a server; \(command) reads a journal file: `rewind pull \(Format.shellWord(session)) --server \(server.displayURL) -o FILE` writes one"
  )
}
