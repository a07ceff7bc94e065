// swift-tools-version:6.2
import PackageDescription

/// Every target compiles in Swift 6 language mode with complete concurrency checking
/// (the default of that mode), and a warning fails the build.
let strict: [SwiftSetting] = [
  .swiftLanguageMode(.v6),
  .treatAllWarnings(as: .error),
]

let package = Package(
  name: "Rewind",
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "RewindJournal", targets: ["RewindJournal"]),
    .library(name: "RewindCore", targets: ["RewindCore"]),
    .library(name: "Navigation", targets: ["Navigation"]),
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

    .testTarget(
      name: "RewindJournalTests", dependencies: ["RewindJournal"], swiftSettings: strict),
    .testTarget(
      name: "RewindCoreTests", dependencies: ["RewindCore", "RewindJournal"],
      swiftSettings: strict),
    .testTarget(
      name: "NavigationTests", dependencies: ["Navigation", "RewindCore", "RewindJournal"],
      swiftSettings: strict),
  ]
)
