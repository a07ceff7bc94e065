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

let package = Package(
  name: "Rewind",
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "RewindJournal", targets: ["RewindJournal"]),
    .library(name: "RewindCore", targets: ["RewindCore"]),
    .library(name: "Navigation", targets: ["Navigation"]),
    .library(name: "RewindArguments", targets: ["RewindArguments"]),
    .library(name: "RewindCLI", targets: ["RewindCLI"]),
    .executable(name: "rewind", targets: ["rewind"]),
    // The fuzz targets' bodies, for the libFuzzer runner in Tools/rewind-fuzz.
    .library(name: "RewindFuzzing", targets: ["RewindFuzzing"]),
  ],
  targets: [
    .systemLibrary(
      name: "CZstd",
      pkgConfig: "libzstd",
      providers: [.apt(["libzstd-dev"]), .brew(["zstd"])]
    ),
    .target(name: "RewindJournal", dependencies: ["CZstd"], swiftSettings: strict),
    .target(name: "RewindCore", dependencies: ["RewindJournal"], swiftSettings: strict),
    .target(
      name: "Navigation", dependencies: ["RewindCore", "RewindJournal"], swiftSettings: strict),
    // The command-line parser: typed declarations, help, usage errors; nothing of Rewind.
    .target(name: "RewindArguments", swiftSettings: strict),
    .target(
      name: "RewindCLI", dependencies: ["RewindArguments", "RewindCore", "RewindJournal"],
      swiftSettings: strict),
    .executableTarget(
      name: "rewind", dependencies: ["RewindCLI", "Navigation"], path: "Tools/rewind",
      swiftSettings: strict),
    // The bodies of the fuzz targets, one per parser of outside input: libFuzzer runs them
    // (Tools/fuzz), and RewindFuzzingTests runs every corpus and regression input through
    // them in `swift test`.
    .target(
      name: "RewindFuzzing", dependencies: ["RewindJournal", "RewindCore", "Navigation"],
      swiftSettings: strict),

    .testTarget(
      name: "RewindJournalTests",
      dependencies: ["RewindJournal", "JournalFixtures", "JournalCrashWriter", "TestSupport"],
      swiftSettings: strict),
    // Temporary directories, child processes and a failing file system for the tests.
    .target(
      name: "TestSupport", dependencies: ["RewindJournal"], path: "Tests/TestSupport",
      swiftSettings: strict),
    // Runs the built `rewind` binary and checks its output and exit codes; builds the
    // journals no command writes (hostile ones) through the libraries.
    .testTarget(
      name: "EndToEndTests",
      dependencies: ["rewind", "TestSupport", "RewindJournal", "RewindCore", "Navigation"],
      swiftSettings: strict),
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
      dependencies: ["RewindCore", "RewindJournal", "Navigation", "TestSupport"],
      swiftSettings: strict),
    .testTarget(
      name: "NavigationTests",
      dependencies: ["Navigation", "RewindCore", "RewindJournal", "TestSupport"],
      swiftSettings: strict),
    .testTarget(
      name: "RewindArgumentsTests", dependencies: ["RewindArguments"], swiftSettings: strict),
    .testTarget(
      name: "RewindCLITests",
      dependencies: [
        "RewindCLI", "RewindArguments", "RewindCore", "RewindJournal", "Navigation", "TestSupport",
      ],
      swiftSettings: strict),
    .testTarget(
      name: "RewindFuzzingTests",
      dependencies: ["RewindFuzzing", "RewindJournal", "RewindCore", "Navigation"],
      swiftSettings: strict),
  ]
)
