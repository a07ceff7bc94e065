import Testing

@testable import RewindTerminal

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

@Suite("The terminal layer's system calls")
struct TerminalCallsTests {
  @Test("a pipe's ends are non-blocking and closed on exec, and carry bytes")
  func pipeEnds() throws {
    let (reader, writer) = try TerminalCalls.makePipe()
    defer {
      TerminalCalls.closeDescriptor(reader)
      TerminalCalls.closeDescriptor(writer)
    }
    for end in [reader, writer] {
      #expect(fcntl(end, F_GETFD) & FD_CLOEXEC != 0, "descriptor \(end)")
      #expect(fcntl(end, F_GETFL) & O_NONBLOCK != 0, "descriptor \(end)")
    }
    // An empty pipe does not block its reader.
    var byte: UInt8 = 0
    #expect(read(reader, &byte, 1) == -1 && errno == EAGAIN)
    var sent: UInt8 = 42
    #expect(write(writer, &sent, 1) == 1)
    #expect(try TerminalCalls.wait(for: [reader], timeout: 1_000) == [true])
    #expect(read(reader, &byte, 1) == 1 && byte == 42)
  }
}
