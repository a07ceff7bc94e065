import Navigation
import RewindCore
import RewindJournal

// The child process of the store's crash test: a recording store, fed by a seeded
// simulated user in bursts, flushed after each burst, until it is killed. After each
// flush returns it prints `flushed <sequence>` on stdout, so the parent knows which
// events were acknowledged as durable.
//
// Usage: store-crash-recorder <journal> <seed>
// Creates the journal, or continues it if it exists (as a recovered journal is). The
// events after the journal's last are those of `SimulatedUser(seed:domain:)`, in order.
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

func report(_ line: String, to descriptor: Int32 = 1) {
  var text = line + "\n"
  text.withUTF8 { bytes in _ = write(descriptor, bytes.baseAddress, bytes.count) }
}

let arguments = CommandLine.arguments
guard arguments.count == 3, let seed = UInt64(arguments[2]) else {
  report("usage: store-crash-recorder <journal> <seed>", to: 2)
  exit(64)
}
let path = arguments[1]
let journal = JournalWriterOptions(frameSize: 1024)

do {
  let exists = access(path, F_OK) == 0
  let start = exists ? try JournalReader(path: path).lastSequence : 0
  let store =
    exists
    ? try Store<NavigationDomain>(continuing: path, options: journal)
    : try Store(
      domain: NavigationDomain(), recordingTo: path,
      options: RecordingOptions(snapshotInterval: 64, journal: journal))
  var user = SimulatedUser(seed: seed, domain: store.domain)
  var random = seed | 1
  var sent: UInt64 = 0
  while true {
    // xorshift64: bursts of 1–200 events between flushes.
    random ^= random << 13
    random ^= random >> 7
    random ^= random << 17
    for _ in 0..<(1 + random % 200) {
      store.send(user.next().event)
      sent += 1
    }
    try store.flushAndWait()
    report("flushed \(start + sent)")
  }
} catch {
  report("store-crash-recorder: \(error)", to: 2)
  exit(1)
}
