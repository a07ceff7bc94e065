// The `rewind` command-line tool: the navigation domain, handed to the tool's library.
import Navigation
import RewindCLI

RewindCLI.main(domains: [NavigationDomain.self])
