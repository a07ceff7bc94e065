import JournalFixtures
import RewindJournal

// The child process of the journal's crash test: appends records and flushes in a loop
// until it is killed. After each flush returns it prints `flushed <sequence>` on stdout,
// so the parent knows which records were acknowledged as durable.
//
// Usage: journal-crash-writer <journal> <seed> [batch]
// Creates the journal, or continues it if it exists (as a recovered journal is). With
// `batch` it creates the journal as batch work does (it appears only on close, which
// never comes).
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
guard arguments.count == 3 || (arguments.count == 4 && arguments[3] == "batch"),
  let seed = UInt64(arguments[2])
else {
  report("usage: journal-crash-writer <journal> <seed> [batch]", to: 2)
  exit(64)
}
let path = arguments[1]
let batch = arguments.count == 4
let options = JournalWriterOptions(frameSize: 1024, durability: .sealedFrames)

do {
  let writer =
    batch
    ? try JournalWriter.create(
      FileDestination(path), header: header(interval: 50), options: options)
    : access(path, F_OK) == 0
      ? try JournalWriter.open(at: path, domain: "test", schemaVersion: 1, options: options)
      : try JournalWriter.create(at: path, header: header(interval: 50), options: options)
  var random = seed | 1
  while true {
    // xorshift64: bursts of 1–200 records between flushes.
    random ^= random << 13
    random ^= random >> 7
    random ^= random << 17
    let burst = 1 + random % 200
    let first = writer.lastSequence + 1
    try appendEvents(writer, first...(first + burst - 1))
    try writer.flush()
    report("flushed \(writer.lastSequence)")
  }
} catch {
  report("journal-crash-writer: \(error)", to: 2)
  exit(1)
}
