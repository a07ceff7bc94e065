import Foundation

/// The directory holding the built products: the test bundle and the executables.
public let productsDirectory: String = {
  let executable =
    (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
    ?? CommandLine.arguments[0]
  var url = URL(fileURLWithPath: executable).deletingLastPathComponent()
  // On macOS the test bundle's executable sits inside Contents/MacOS of the .xctest bundle.
  while url.pathExtension == "xctest" || url.lastPathComponent == "MacOS"
    || url.lastPathComponent == "Contents"
  {
    url.deleteLastPathComponent()
  }
  return url.path
}()

/// The path of an executable found in `PATH`, or nil.
public func executable(named name: String) -> String? {
  let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
  return path.split(separator: ":").map { "\($0)/\(name)" }.first {
    FileManager.default.isExecutableFile(atPath: $0)
  }
}

/// What a finished child process did.
public struct ProcessResult: Sendable {
  public var status: Int32
  /// Whether it ended by a signal (a crash or trap) rather than exiting.
  public var signalled: Bool
  public var stdout: String
  public var stderr: String
}

/// Runs a program to completion, capturing its output.
public func run(
  _ program: String, _ arguments: [String], environment: [String: String]? = nil,
  currentDirectory: String? = nil
) throws -> ProcessResult {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: program)
  process.arguments = arguments
  if let environment { process.environment = environment }
  if let currentDirectory { process.currentDirectoryURL = URL(fileURLWithPath: currentDirectory) }
  let out = Pipe()
  let err = Pipe()
  process.standardOutput = out
  process.standardError = err
  process.standardInput = FileHandle.nullDevice
  try process.run()
  // Read both pipes while the process runs, so that neither fills up and blocks it.
  let errorData = LockedData()
  let errorReader = Thread { errorData.set(err.fileHandleForReading.readDataToEndOfFile()) }
  errorReader.start()
  let outputData = out.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  while !errorData.isSet { usleep(1_000) }
  return ProcessResult(
    status: process.terminationStatus,
    signalled: process.terminationReason == .uncaughtSignal,
    stdout: String(decoding: outputData, as: UTF8.self),
    stderr: String(decoding: errorData.value, as: UTF8.self))
}

private final class LockedData: @unchecked Sendable {
  private let lock = NSLock()
  private var data: Data?
  func set(_ value: Data) { lock.withLock { data = value } }
  var isSet: Bool { lock.withLock { data != nil } }
  var value: Data { lock.withLock { data ?? Data() } }
}
