// swift-tools-version:6.2
import PackageDescription

/// The benchmark runner of Rewind: its own package, so that its baselines (SQLite,
/// Foundation's JSON coders, a second zstd door) never burden users of Rewind.
///
/// Every target compiles in Swift 6 language mode, and a warning fails the build; imports
/// are internal unless they say otherwise.
let strict: [SwiftSetting] = [
  .swiftLanguageMode(.v6),
  .treatAllWarnings(as: .error),
  .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
  name: "rewind-bench",
  platforms: [.macOS(.v15)],
  dependencies: [
    .package(name: "Rewind", path: "../..")
  ],
  targets: [
    .systemLibrary(
      name: "CSQLite", pkgConfig: "sqlite3",
      providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
    .systemLibrary(
      name: "CZstdStream", pkgConfig: "libzstd",
      providers: [.apt(["libzstd-dev"]), .brew(["zstd"])]),
    .executableTarget(
      name: "rewind-bench",
      dependencies: [
        "CSQLite", "CZstdStream",
        .product(name: "RewindJournal", package: "Rewind"),
        .product(name: "RewindCore", package: "Rewind"),
        .product(name: "Navigation", package: "Rewind"),
        .product(name: "RewindArguments", package: "Rewind"),
        .product(name: "RewindPlayer", package: "Rewind"),
        .product(name: "RewindTerminal", package: "Rewind"),
      ],
      path: "Sources/RewindBench",
      swiftSettings: strict),
  ]
)
