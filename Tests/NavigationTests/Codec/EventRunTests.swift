import Navigation
import RewindCore
import RewindJournal
import Testing

@Suite("Binary event codec: runs")
struct EventRunTests {
  let domain = Fixtures.three

  @Test("within a run, scroll offsets after the first are written as differences")
  func differences() throws {
    var context = domain.makeEventCodecContext()
    var writer = ByteWriter()
    for offset in [120.5, 121.0, 120.0, 0.1, 3.0, 2.5] {
      domain.encode(.menuScrolled(offset: offset), into: &writer, context: &context)
    }
    #expect(
      writer.bytes == [
        0x01, 0xD3, 0x05,  // 723 sixths
        0x0D, 0x06,  // +3
        0x0D, 0x0B,  // -6
        0x02, 0x9A, 0x99, 0x99, 0x99, 0x99, 0x99, 0xB9, 0x3F,  // off the grid: no memory after
        0x01, 0x12,  // 18 sixths, written whole
        0x0D, 0x05,  // -3
      ])
  }

  @Test("runs of random events round-trip, and every run decodes from its start")
  func roundTrip() throws {
    var generator = RandomEventGenerator(seed: 11, domain: domain)
    var user = SimulatedUser(seed: 12, domain: domain)
    for run in 0..<40 {
      let events = (0..<200).map { index in
        index % 3 == 0 && run % 2 == 0 ? generator.next() : user.next().event
      }
      var context = domain.makeEventCodecContext()
      var writer = ByteWriter()
      for event in events { domain.encode(event, into: &writer, context: &context) }
      let decoded = try writer.bytes.withUnsafeBytes { buffer throws(CodecError) in
        var reader = ByteReader(buffer)
        var context = domain.makeEventCodecContext()
        var result: [NavigationEvent] = []
        while !reader.isAtEnd {
          result.append(try domain.decodeEvent(from: &reader, context: &context))
        }
        return result
      }
      #expect(decoded == events)
    }
  }
}
