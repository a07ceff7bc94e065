import CLibFuzzer
import RewindFuzzing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// rewind-fuzz TARGET [libFuzzer options] [corpus directories or files]
// rewind-fuzz --seed TARGET FILE OUTPUT
// rewind-fuzz --built-in-seeds TARGET DIRECTORY
// rewind-fuzz --list
//
// The target's name comes first; everything after it goes to libFuzzer. libFuzzer runs
// this program again for -merge=1, -fork and -jobs, with its own arguments only: the
// target reaches those runs in the environment variable REWIND_FUZZ_TARGET.

let arguments = CommandLine.arguments
let usage = """
  usage: rewind-fuzz TARGET [libFuzzer options] [corpus directories or files]
         rewind-fuzz --seed TARGET FILE OUTPUT   (writes FILE as an input of TARGET)
         rewind-fuzz --built-in-seeds TARGET DIRECTORY
         rewind-fuzz --list
  targets: \(FuzzTarget.allCases.map(\.rawValue).joined(separator: ", "))
  """

/// Whether the first argument names the target (else it comes from the environment).
let targetInArguments = arguments.count > 1 && FuzzTarget(rawValue: arguments[1]) != nil

/// The target libFuzzer runs.
let selectedTarget: FuzzTarget? =
  targetInArguments
  ? FuzzTarget(rawValue: arguments[1])
  : getenv("REWIND_FUZZ_TARGET").flatMap { FuzzTarget(rawValue: String(cString: $0)) }

/// The function libFuzzer calls with each input. (Its own `main`, which the linker keeps
/// beside ours, names this symbol too.)
@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  selectedTarget?.run(UnsafeRawBufferPointer(start: data, count: size))
  return 0
}

func fail(_ message: String) -> Never {
  let line = message + "\n"
  _ = line.withCString { write(2, $0, strlen($0)) }
  exit(64)
}

switch arguments.dropFirst().first {
case "--list":
  for target in FuzzTarget.allCases { print(target.rawValue) }
case "--seed":
  guard arguments.count == 5, let target = FuzzTarget(rawValue: arguments[2]) else { fail(usage) }
  guard let input = readFile(arguments[3]) else { fail("cannot read \(arguments[3])") }
  guard writeFile(arguments[4], target.seed(from: input)) else {
    fail("cannot write \(arguments[4])")
  }
case "--built-in-seeds":
  guard arguments.count == 4, let target = FuzzTarget(rawValue: arguments[2]) else { fail(usage) }
  for (number, seed) in target.builtInSeeds().enumerated() {
    let path = "\(arguments[3])/built-in-\(number + 1)"
    guard writeFile(path, seed) else { fail("cannot write \(path)") }
  }
default:
  guard let target = selectedTarget else { fail(usage) }
  setenv("REWIND_FUZZ_TARGET", target.rawValue, 1)
  // libFuzzer sees the program's name and what follows the target.
  var driverArguments = [arguments[0]] + arguments.dropFirst(targetInArguments ? 2 : 1)
  var pointers: [UnsafeMutablePointer<CChar>?] = driverArguments.map { strdup($0) } + [nil]
  var count = CInt(driverArguments.count)
  let status = pointers.withUnsafeMutableBufferPointer { buffer in
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = buffer.baseAddress
    return LLVMFuzzerRunDriver(&count, &argv, testOneInput)
  }
  driverArguments.removeAll()
  exit(status)
}

func readFile(_ path: String) -> [UInt8]? {
  guard let file = fopen(path, "rb") else { return nil }
  defer { fclose(file) }
  var bytes: [UInt8] = []
  var buffer = [UInt8](repeating: 0, count: 1 << 16)
  while true {
    let count = fread(&buffer, 1, buffer.count, file)
    if count == 0 { return ferror(file) == 0 ? bytes : nil }
    bytes += buffer[0..<count]
  }
}

func writeFile(_ path: String, _ bytes: [UInt8]) -> Bool {
  guard let file = fopen(path, "wb") else { return false }
  let written = fwrite(bytes, 1, bytes.count, file)
  return fclose(file) == 0 && written == bytes.count
}
