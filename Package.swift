// swift-tools-version:6.2
import PackageDescription

/// Every target compiles in Swift 6 language mode with complete concurrency checking
/// (the default of that mode), and a warning fails the build. An import is internal unless
/// it says otherwise (`public import` only where a module's public API shows the imported
/// module's types), so a module's dependencies are not its users' by accident.
let strict: [SwiftSetting] = [
  .swiftLanguageMode(.v6),
  .treatAllWarnings(as: .error),
  .enableUpcomingFeature("InternalImportsByDefault"),
]

/// How the release build of `rewind-nats` is linked on Linux (and was `rewind`'s before
/// it was linked statically):
/// - `-static-stdlib`: the Swift runtime and standard library linked in, not loaded.
/// - `-lstdc++` and libgcc linked statically too: `Tools/link` holds a linker script named
///   `libstdc++.so` that the linker finds before the shared library and that names the
///   static archive (`libstdc++.a`, from the libstdc++-N-dev package the toolchain needs).
///   libstdc++.so.6 had 4,303 symbol relocations of its own to resolve at every start.
///   libzstd the same way (`Tools/link/libzstd.so` names `libzstd.a`, from libzstd-dev):
///   one library less to load, 0.07 ms less at every start.
/// - `-no-pie`: the binary is loaded at its linked address, so none of its 31,500 pointers
///   in data is relocated at start (each page holding one was copied: 98 pages of 4 KiB).
///   The tool's own code is then not at a random address (ASLR of the executable; the
///   libraries, heap and stacks still are).
/// - `--no-export-dynamic`: the runtime's `dladdr` at start scanned the 6,000 symbols the
///   static runtime exported.
/// A path in a flag must be absolute: Tools/rewind-bench builds this package as a
/// dependency from its own folder.
let releaseLinkFlags = [
  "-static-stdlib", "-Xclang-linker", "-static-libgcc", "-L", packageFolder + "/Tools/link",
  "-Xclang-linker", "-no-pie", "-Xlinker", "--no-export-dynamic",
]

/// How the release `rewind` is linked on Linux: statically, the C library too
/// (`-static-executable`), so that a command starts with no dynamic loader, libc.so and
/// libm.so to map (0.3 ms less at every start: BENCHMARKS.md "Session 47: a statically
/// linked rewind"). Such a program cannot load libnats, whose `dlopen` would bring a second
/// C library into it: a command line that may talk to a NATS server runs in
/// `rewind-nats`, linked by `releaseLinkFlags` (RewindCLI's `NatsHelper`).
///
/// Linked by lld (`-use-ld=lld`, the toolchain's), which lays out first, in the order of
/// `Tools/link/rewind.order`, the functions and data a command touches as it starts and
/// runs: a start then faults in fewer pages of the program (`check` of a short journal: 227
/// → 160 page faults, BENCHMARKS.md "Session 48: the program laid out for its start").
/// `Tools/order-symbols` writes the file; a name no longer in the program is passed over.
let staticReleaseLinkFlags = [
  "-static-executable", "-L", packageFolder + "/Tools/link", "-Xlinker", "--no-export-dynamic",
  "-use-ld=lld", "-Xlinker", "--symbol-ordering-file=" + packageFolder + "/Tools/link/rewind.order",
  "-Xlinker", "--no-warn-symbol-ordering",
]

/// The folder of this manifest.
var packageFolder: String {
  let path = #filePath
  guard let slash = path.lastIndex(of: "/") else { return "." }
  return String(path[..<slash])
}

let package = Package(
  name: "Rewind",
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "RewindJournal", targets: ["RewindJournal"]),
    .library(name: "RewindCore", targets: ["RewindCore"]),
    .library(name: "Navigation", targets: ["Navigation"]),
    .library(name: "RewindTerminal", targets: ["RewindTerminal"]),
    .library(name: "RewindArguments", targets: ["RewindArguments"]),
    .library(name: "RewindPage", targets: ["RewindPage"]),
    .library(name: "RewindTesting", targets: ["RewindTesting"]),
    .library(name: "RewindPlayer", targets: ["RewindPlayer"]),
    .library(name: "RewindCLI", targets: ["RewindCLI"]),
    .executable(name: "rewind", targets: ["rewind"]),
    .executable(name: "rewind-nats", targets: ["rewind-nats"]),
    // The fuzz targets' bodies, for the libFuzzer runner in Tools/rewind-fuzz.
    .library(name: "RewindFuzzing", targets: ["RewindFuzzing"]),
    .library(name: "RewindStream", targets: ["RewindStream"]),
  ],
  targets: [
    .systemLibrary(
      name: "CZstd",
      pkgConfig: "libzstd",
      providers: [.apt(["libzstd-dev"]), .brew(["zstd"])]
    ),
    // Where a new thread starts (Linux's CPU affinity calls, which Swift's Glibc module
    // does not declare), in a header: a parallel scan's threads start on the cores the
    // calling thread does not run on. Only RewindJournal imports it (`DetachedThread`).
    .systemLibrary(name: "CThreadPlacement"),
    // An atomic exchange of two names (Linux's renameat2, which Swift's Glibc module does
    // not declare), in a header: an in-place recovery moves its journal in with it.
    .systemLibrary(name: "CFileCalls"),
    // What SIGINT, SIGTERM and SIGHUP do to a process's temporary files, in a header: a
    // fixed registry of their names and a handler that removes them and dies by the signal
    // (async-signal-safe C, which Swift cannot promise). Only RewindJournal imports it
    // (`EndingSignals`).
    .systemLibrary(name: "CSignalCleanup"),
    .target(
      name: "RewindJournal",
      dependencies: ["CZstd", "CThreadPlacement", "CFileCalls", "CSignalCleanup"],
      swiftSettings: strict),
    // The NATS C client, linked: on Apple platforms only, through CNatsLibrary.
    .systemLibrary(
      name: "CNats", pkgConfig: "libnats", providers: [.apt(["libnats-dev"]), .brew(["cnats"])]),
    // The NATS C client loaded when a command first connects (dlopen of its soname on
    // Linux; linked on Apple platforms): its types from its header, its functions through a
    // table. A command that never connects starts without libnats and the libraries it
    // pulls in (BENCHMARKS.md "Issue 17: a faster start"). Only RewindStream imports it.
    .target(
      name: "CNatsLibrary",
      dependencies: [.target(name: "CNats", condition: .when(platforms: [.macOS]))]),
    // Sessions on a NATS JetStream server: a journal's frames as messages, pushed, listed
    // and pulled; it knows journals as frames, never a domain type.
    .target(
      name: "RewindStream", dependencies: ["CNatsLibrary", "RewindJournal"],
      swiftSettings: strict),
    .target(
      name: "RewindCore", dependencies: ["RewindJournal", "RewindSpelling"], swiftSettings: strict),
    .target(
      name: "Navigation",
      dependencies: ["RewindCore", "RewindJournal", "RewindTerminal", "RewindPage"],
      exclude: ["Page/Resources"], swiftSettings: strict, plugins: ["EmbedResources"]),
    // The terminal layer: raw mode, keys and mouse, a screen buffer with minimal redraw,
    // the protocol of a domain's interactive screen; nothing of a command.
    .target(name: "RewindTerminal", dependencies: ["RewindCore"], swiftSettings: strict),
    // `rewind html`: a session as one self-contained web page; its template, styles and
    // scripts are files of Resources/, embedded at build time.
    .target(
      name: "RewindPage", dependencies: ["RewindCore", "RewindJournal"], exclude: ["Resources"],
      swiftSettings: strict, plugins: ["EmbedResources"]),
    // Embeds a target's Resources/ files (a page's HTML, CSS and JavaScript) in a generated
    // Swift source, so that the `rewind` binary needs no resource bundle beside it.
    .plugin(
      name: "EmbedResources", capability: .buildTool(), dependencies: ["embed-resources"]),
    .executableTarget(
      name: "embed-resources", path: "Tools/embed-resources", swiftSettings: strict),
    // Reducer tests: a test store that checks each step's outcome and exact change, for
    // Swift Testing; the code `rewind testgen` writes runs on it.
    .target(name: "RewindTesting", dependencies: ["RewindCore"], swiftSettings: strict),
    // The time-travel player: its model (keys in, cursor moves out) and its screen.
    .target(
      name: "RewindPlayer",
      dependencies: ["RewindCore", "RewindJournal", "RewindTerminal", "RewindSpelling"],
      swiftSettings: strict),
    // The command-line parser: typed declarations, help, usage errors; nothing of Rewind.
    .target(name: "RewindArguments", dependencies: ["RewindSpelling"], swiftSettings: strict),
    // "Did you mean …?": the name a misspelt word most likely meant, for the parser's
    // options and commands, the domain's event kinds and keys, the player's search.
    .target(name: "RewindSpelling", swiftSettings: strict),
    .target(
      name: "RewindCLI",
      dependencies: [
        "RewindArguments", "RewindSpelling", "RewindCore", "RewindJournal", "RewindTerminal",
        "RewindPage",
        "RewindPlayer", "RewindStream",
      ],
      swiftSettings: strict),
    // The release build on Linux links the Swift runtime into the tool (Apple platforms have
    // it in the system), and the C++ library it stands on, so that a command starts with
    // little for the dynamic loader to do (BENCHMARKS.md "Starting a command", "Issue 17: a
    // smaller start"): `releaseLinkFlags`.
    .executableTarget(
      name: "rewind", dependencies: ["RewindCLI", "Navigation"], path: "Tools/rewind",
      swiftSettings: strict,
      linkerSettings: [
        .unsafeFlags(staticReleaseLinkFlags, .when(platforms: [.linux], configuration: .release))
      ]),
    // The same tool, dynamically linked, which the release `rewind` on Linux hands command
    // lines that talk to a NATS server (it can load libnats); a debug `rewind` connects
    // itself.
    .executableTarget(
      name: "rewind-nats", dependencies: ["RewindCLI", "Navigation"], path: "Tools/rewind-nats",
      swiftSettings: strict,
      linkerSettings: [
        .unsafeFlags(releaseLinkFlags, .when(platforms: [.linux], configuration: .release))
      ]),
    // The bodies of the fuzz targets, one per parser of outside input: libFuzzer runs them
    // (Tools/fuzz), and RewindFuzzingTests runs every corpus and regression input through
    // them in `swift test`.
    .target(
      name: "RewindFuzzing",
      dependencies: ["RewindJournal", "RewindCore", "Navigation", "RewindStream"],
      swiftSettings: strict),

    .testTarget(
      name: "RewindJournalTests",
      dependencies: [
        "RewindJournal", "JournalFixtures", "JournalCrashWriter", "TestSupport", "CFileCalls",
      ],
      swiftSettings: strict),
    // Temporary directories, child processes and a failing file system for the tests.
    .target(
      name: "TestSupport", dependencies: ["RewindJournal"], path: "Tests/TestSupport",
      swiftSettings: strict),
    // Runs the built `rewind` binary and checks its output and exit codes; builds the
    // journals no command writes (hostile ones) through the libraries.
    .testTarget(
      name: "EndToEndTests",
      dependencies: [
        "rewind", "TestSupport", "RewindJournal", "RewindCore", "Navigation", "JournalFixtures",
        "NamedTemporariesRewind",
      ],
      swiftSettings: strict),
    // The `rewind` tool writing its files as on a file system without unnamed temporary
    // files (NFS, macOS), for the end-to-end tests of what a signal leaves there.
    .executableTarget(
      name: "NamedTemporariesRewind",
      dependencies: ["RewindCLI", "Navigation", "RewindJournal"],
      path: "Tests/NamedTemporariesRewind", swiftSettings: strict),
    // Records shared by the journal tests and the crash test's child process.
    .target(
      name: "JournalFixtures", dependencies: ["RewindJournal"], path: "Tests/JournalFixtures",
      swiftSettings: strict),
    // The child process of the crash test: appends and flushes until it is killed.
    .executableTarget(
      name: "JournalCrashWriter", dependencies: ["RewindJournal", "JournalFixtures"],
      path: "Tests/JournalCrashWriter", swiftSettings: strict),
    .testTarget(
      name: "RewindCoreTests",
      dependencies: [
        "RewindCore", "RewindJournal", "Navigation", "TestSupport", "StoreCrashRecorder",
        "CanonicalEncodingProbe",
      ],
      swiftSettings: strict),
    // The child process of the canonical-order test: encodes sets and dictionaries of
    // values that are not comparable under a hash seed of its own.
    .executableTarget(
      name: "CanonicalEncodingProbe", dependencies: ["RewindCore"],
      path: "Tests/CanonicalEncodingProbe", swiftSettings: strict),
    // The child process of the store's crash test: records until it is killed.
    .executableTarget(
      name: "StoreCrashRecorder", dependencies: ["RewindCore", "RewindJournal", "Navigation"],
      path: "Tests/StoreCrashRecorder", swiftSettings: strict),
    .testTarget(
      name: "NavigationTests",
      dependencies: [
        "Navigation", "RewindCore", "RewindJournal", "RewindTerminal", "RewindPage", "TestSupport",
      ],
      swiftSettings: strict),
    .testTarget(
      name: "RewindArgumentsTests", dependencies: ["RewindArguments"], swiftSettings: strict),
    .testTarget(
      name: "RewindSpellingTests", dependencies: ["RewindSpelling"], swiftSettings: strict),
    .testTarget(
      name: "RewindTerminalTests", dependencies: ["RewindTerminal", "RewindCore"],
      swiftSettings: strict),
    .testTarget(
      name: "RewindPageTests",
      dependencies: ["RewindPage", "RewindCore", "RewindJournal", "Navigation", "TestSupport"],
      swiftSettings: strict),
    .testTarget(
      name: "RewindTestingTests",
      dependencies: ["RewindTesting", "RewindCore", "Navigation"], swiftSettings: strict),
    // Tests `rewind testgen` wrote from sample journals (Journals/), run as they are;
    // EndToEndTests/TestgenTests regenerates them and finds no difference.
    .testTarget(
      name: "GeneratedTests",
      dependencies: ["RewindTesting", "RewindCore", "Navigation"], swiftSettings: strict),
    .testTarget(
      name: "RewindPlayerTests",
      dependencies: [
        "RewindPlayer", "RewindCore", "RewindJournal", "RewindTerminal", "Navigation",
        "TestSupport",
      ],
      swiftSettings: strict),
    .testTarget(
      name: "RewindCLITests",
      dependencies: [
        "RewindCLI", "RewindArguments", "RewindCore", "RewindJournal", "RewindTerminal",
        "Navigation", "TestSupport",
      ],
      swiftSettings: strict),
    .testTarget(
      name: "RewindStreamTests",
      dependencies: [
        "RewindStream", "RewindJournal", "JournalFixtures", "TestSupport", "RewindCore",
        "Navigation", "CNatsLibrary",
      ],
      swiftSettings: strict),
    .testTarget(
      name: "RewindFuzzingTests",
      dependencies: ["RewindFuzzing", "RewindJournal", "RewindCore", "Navigation"],
      swiftSettings: strict),
  ]
)
