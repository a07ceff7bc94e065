// `rewind-nats`: the `rewind` tool, dynamically linked, so that it can load the NATS C
// client; the statically linked release `rewind` on Linux runs command lines that talk to
// a NATS server here (RewindCLI's `NatsHelper`).
import Navigation
import RewindCLI

RewindCLI.main(domains: [NavigationDomain.self])
