// The `rewind` tool as it runs on a file system without unnamed temporary files (NFS,
// SMB, FAT, macOS): every file it writes is written under a hidden name beside its
// destination first (`AtomicFileWriter.unnamedFiles`). The end-to-end tests send it
// signals while it writes, to see what such a file system is left with.
import Navigation
import RewindCLI
import RewindJournal

AtomicFileWriter.unnamedFiles = false
RewindCLI.main(domains: [NavigationDomain.self])
