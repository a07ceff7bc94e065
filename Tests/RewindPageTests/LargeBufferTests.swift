import Testing

@testable import RewindPage

/// The buffers of megabytes the page's builder writes: whole huge pages, aligned to one,
/// from 2 MiB; an ordinary allocation below that; every byte writable either way.
@Suite("LargeBuffer: huge-page buffers of the page's rows")
struct LargeBufferTests {
  @Test(
    "a buffer of a huge page or more is aligned to one, and every byte of a buffer of any size is written and read back",
    arguments: [1, 4_096, LargeBuffer.hugePage - 1, LargeBuffer.hugePage, LargeBuffer.hugePage + 1]
  )
  func sizes(count: Int) {
    let buffer = LargeBuffer.allocate(count)
    defer { buffer.deallocate() }
    let address = UInt(bitPattern: buffer)
    if count >= LargeBuffer.hugePage {
      #expect(address % UInt(LargeBuffer.hugePage) == 0, "\(count) bytes at \(address)")
    }
    for index in 0..<count { buffer[index] = UInt8(truncatingIfNeeded: index &* 31) }
    var wrong = 0
    for index in 0..<count where buffer[index] != UInt8(truncatingIfNeeded: index &* 31) {
      wrong += 1
    }
    #expect(wrong == 0, "\(count) bytes: \(wrong) read back wrong")
  }

  @Test(
    "rows of a page of 300,000 events, in a huge buffer that grows into a larger one, then the page's data taking the buffer, are the rows' varints after the lines"
  )
  func rowsInHugeBuffers() {
    // 300,000 rows from room for 110,000: a first buffer of over a huge page, grown twice.
    var numbers = EventNumbers(capacity: 110_000, headRoom: 1 << 20)
    #expect(numbers.capacity + numbers.headRoom >= LargeBuffer.hugePage)
    #expect(UInt(bitPattern: numbers.base) % UInt(LargeBuffer.hugePage) == 0)
    var expected: [UInt8] = []
    for event in 0..<UInt64(300_000) {
      let row = [event % 70_000, event % 5, event % 1_111, event % 300]
      numbers.append(time: row[0], code: row[1], body: row[2], changes: row[3])
      for number in row {
        var rest = number
        repeat {
          expected.append(UInt8(rest & 0x7F) | (rest >= 0x80 ? 0x80 : 0))
          rest >>= 7
        } while rest > 0
      }
    }
    let head = [UInt8](repeating: 0x7B, count: 1_000)
    let data = numbers.data(head: head.count) { buffer in
      _ = buffer.initialize(from: head)
      return head.count
    }
    #expect(data.count == head.count + expected.count)
    #expect(data.bytes == head + expected)
  }
}
