// swift-tools-version:6.2
import PackageDescription

/// The libFuzzer runner of Rewind: its own package, built only by `Tools/fuzz`, with
/// coverage instrumentation and AddressSanitizer on every module (`-sanitize=fuzzer,address`
/// for the compiler's frontend, one combined flag: given twice, only the last `-sanitize=`
/// counts and the fuzzer gets no coverage; `-sanitize=address` for the driver, which
/// links ASan's runtime), so that the main package's `swift build` and `swift test` are
/// untouched. libFuzzer is linked into the runner alone: linked into the build tools too
/// (embed-resources), its `main` would want an `LLVMFuzzerTestOneInput` there.
///
/// Every target compiles in Swift 6 language mode, and a warning fails the build; imports
/// are internal unless they say otherwise.
let strict: [SwiftSetting] = [
  .swiftLanguageMode(.v6),
  .treatAllWarnings(as: .error),
  .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
  name: "rewind-fuzz",
  platforms: [.macOS(.v15)],
  dependencies: [
    .package(name: "Rewind", path: "../..")
  ],
  targets: [
    // libFuzzer's driver entry point, which the toolchain's runtime provides.
    .systemLibrary(name: "CLibFuzzer", path: "Sources/CLibFuzzer"),
    .executableTarget(
      name: "rewind-fuzz",
      dependencies: ["CLibFuzzer", .product(name: "RewindFuzzing", package: "Rewind")],
      path: "Sources/RewindFuzz",
      swiftSettings: strict,
      // libFuzzer itself, linked into the runner alone (see Tools/fuzz).
      linkerSettings: [.unsafeFlags(["-Xclang-linker", "-fsanitize=fuzzer"])]),
  ]
)
