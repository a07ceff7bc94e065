import Dispatch
import Synchronization
import Testing

@testable import RewindJournal

@Suite("Detached threads and where they start")
struct DetachedThreadTests {
  @Test("a thread started elsewhere starts on the next CPU after its maker's, counting round")
  func cpuElsewhere() {
    // Two CPUs: the other one, whatever the index.
    #expect(DetachedThread.cpu(elsewhere: 0, among: [0, 1], current: 0) == 1)
    #expect(DetachedThread.cpu(elsewhere: 1, among: [0, 1], current: 0) == 1)
    #expect(DetachedThread.cpu(elsewhere: 0, among: [0, 1], current: 1) == 0)
    // Four: the ones after the maker's, then round to the first; never the maker's.
    let four = [0, 1, 2, 3]
    #expect(
      (0..<6).map { DetachedThread.cpu(elsewhere: $0, among: four, current: 1) } == [
        2, 3, 0, 2, 3, 0,
      ])
    #expect(
      (0..<3).map { DetachedThread.cpu(elsewhere: $0, among: four, current: 3) } == [0, 1, 2])
    // The maker on a CPU the set lacks (its affinity changed since): the set's, in turn.
    #expect(
      (0..<3).map { DetachedThread.cpu(elsewhere: $0, among: [2, 5], current: 3) } == [5, 2, 5])
    #expect(DetachedThread.cpu(elsewhere: 0, among: [2, 5], current: 9) == 2)
    // No other CPU: nowhere in particular.
    #expect(DetachedThread.cpu(elsewhere: 0, among: [4], current: 4) == nil)
    #expect(DetachedThread.cpu(elsewhere: 0, among: [], current: 0) == nil)
    #expect(DetachedThread.cpu(elsewhere: -1, among: four, current: 0) == nil)
  }

  @Test("a thread started elsewhere runs its body, then may run on every CPU its maker may")
  func startedElsewhereRunsAnywhere() throws {
    let maker = DetachedThread.cpus
    #if os(Linux)
      #expect(maker?.isEmpty == false)
    #endif
    for elsewhere in [nil, 0, 1, 5] as [Int?] {
      let seen = Mutex<[Int]?>(nil)
      let done = DispatchSemaphore(value: 0)
      let status = DetachedThread.tryStart(elsewhere: elsewhere) {
        seen.withLock { $0 = DetachedThread.cpus }
        done.signal()
      }
      #expect(status == 0)
      #expect(done.wait(timeout: .now() + .seconds(10)) == .success)
      #expect(seen.withLock { $0 } == maker, "elsewhere \(String(describing: elsewhere))")
    }
  }
}
