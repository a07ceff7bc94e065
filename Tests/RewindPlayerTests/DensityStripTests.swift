import RewindCore
import Testing

@testable import RewindPlayer

@Suite("Density strip")
struct DensityStripTests {
  @Test("events land in the column of their time; buckets widen as time goes on")
  func columns() {
    var strip = DensityStrip(expectedDuration: 1_000)
    #expect(strip.bucketWidth == 1)
    strip.add(time: 0, .applied)
    strip.add(time: 999, .rejected)
    strip.add(time: 500, .unchanged)
    var columns = strip.columns(4, duration: 1_000)
    #expect(columns.map(\.total) == [1, 0, 1, 1])
    #expect(columns[3].rejected == 1)
    #expect(columns[2].unchanged == 1)
    // An event far later merges buckets until it fits; nothing is lost.
    strip.add(time: 1_000_000, .applied)
    #expect(strip.bucketWidth == 1_024)
    #expect(strip.total == 4)
    #expect(strip.lastTime == 1_000_000)
    columns = strip.columns(4, duration: 1_000_000)
    #expect(columns.map(\.total) == [3, 0, 0, 1])
    #expect(columns[0].rejected == 1)
    #expect(DensityStrip.column(of: 1_000_000, in: 4, duration: 1_000_000) == 3)
    #expect(DensityStrip.column(of: 0, in: 4, duration: 1_000_000) == 0)
    #expect(DensityStrip.column(of: 5, in: 4, duration: 0) == 0)
  }
}
