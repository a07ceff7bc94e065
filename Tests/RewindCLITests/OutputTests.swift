import Glibc
import Testing

@testable import RewindCLI

@Suite("Output streams")
struct OutputTests {
  @Test("a capture keeps text, lines and bytes in order")
  func capture() {
    let output = Output.capture()
    output.write("a")
    output.print("b")
    output.print()
    output.write(bytes: Array("c\n".utf8))
    output.flush()
    #expect(output.text == "ab\n\nc\n")
    #expect(!output.isTerminal)
    #expect(output.columns == 80)
  }

  @Test("events lost to damage are warned of, one event in the singular")
  func lostEvents() {
    let output = Output.capture()
    warnLost([5...5, 9...12], in: "s.journal", to: output)
    #expect(
      output.text == """
        warning: s.journal: event 5 was lost to damage and is missing here
        warning: s.journal: events 9–12 were lost to damage and are missing here

        """)
  }

  @Test("a file is written in blocks, and all of it once flushed")
  func buffered() throws {
    try withTemporaryFile { descriptor, contents in
      let output = Output(
        destination: .fileDescriptor(descriptor), isTerminal: false, style: .plain, columns: 80,
        unbuffered: false)
      output.print("first line")
      #expect(contents() == "")  // still in the buffer
      let block = String(repeating: "x", count: Output.bufferCapacity)
      output.write(block)
      #expect(contents().count == "first line\n".count + block.count)  // the buffer filled
      output.print("last line")
      output.flush()
      #expect(contents() == "first line\n" + block + "last line\n")
    }
  }

  @Test("standard error and terminals are written at once")
  func unbuffered() throws {
    try withTemporaryFile { descriptor, contents in
      let output = Output(
        destination: .fileDescriptor(descriptor), isTerminal: false, style: .plain, columns: 80,
        unbuffered: true)
      output.print("Error: at once")
      #expect(contents() == "Error: at once\n")
    }
    try withTemporaryFile { descriptor, contents in
      let output = Output(
        destination: .fileDescriptor(descriptor), isTerminal: true, style: .plain, columns: 80,
        unbuffered: false)
      output.write("prompt> ")
      #expect(contents() == "prompt> ")
    }
  }

  @Test("a refused write is kept, and the exit status says so, but for a closed pipe")
  func refused() throws {
    let full = open("/dev/full", O_WRONLY | O_CLOEXEC)
    try #require(full >= 0)
    defer { close(full) }
    var ends: [Int32] = [0, 0]
    try #require(pipe(&ends) == 0)
    close(ends[0])  // a pipe whose reader is gone
    defer { close(ends[1]) }
    let ignored = signal(SIGPIPE, SIG_IGN)
    defer { signal(SIGPIPE, ignored) }
    for (descriptor, number) in [(full, ENOSPC), (ends[1], EPIPE)] {
      for status: Int32 in [0, 1, 64] {
        let stdout = Output(
          destination: .fileDescriptor(descriptor), isTerminal: false, style: .plain,
          columns: 80, unbuffered: false)
        let context = Context(
          stdout: stdout, stderr: .capture(), environment: [:], currentDirectory: "/",
          clock: { 0 })
        context.stdout.print("a line")
        #expect(context.stdout.writeError == nil)  // still in the buffer
        context.finish()
        #expect(context.stdout.writeError == number)
        let exit = context.exitStatus(after: status)
        if number == EPIPE {
          #expect(exit == status)
          #expect(context.stderr.text.isEmpty)
        } else {
          #expect(exit == (status == 0 ? 1 : status))
          #expect(
            context.stderr.text
              == "Error: cannot write to standard output: No space left on device (errno \(ENOSPC)); what the command wrote there is incomplete\n"
          )
        }
      }
    }
  }

  /// Runs `body` with a new temporary file's descriptor and a function reading the file.
  private func withTemporaryFile(
    _ body: (Int32, () -> String) throws -> Void
  ) throws {
    var template = Array("/tmp/rewind-output-XXXXXX".utf8CString)
    let descriptor = mkstemp(&template)
    try #require(descriptor >= 0)
    let path = String(cString: template.map { UInt8(bitPattern: $0) })
    defer {
      close(descriptor)
      unlink(path)
    }
    func contents() -> String {
      var bytes: [UInt8] = []
      var chunk = [UInt8](repeating: 0, count: 65_536)
      var offset: off_t = 0
      while true {
        let count = pread(descriptor, &chunk, chunk.count, offset)
        if count <= 0 { break }
        bytes += chunk[..<count]
        offset += off_t(count)
      }
      return String(decoding: bytes, as: UTF8.self)
    }
    try body(descriptor, contents)
  }
}
