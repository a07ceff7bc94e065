import RewindCore
import TestSupport
import Testing

@testable import RewindPage

/// The page of a session whose `Double` field goes between 0.0 and -0.0: the default
/// changed fields list those changes (their texts differ), so the page's fields rebuild
/// the state's JSON and the page builds.
@Suite("SessionPage: a change of the sign of zero")
struct SignedZeroPageTests {
  private let options = SessionPage.Options(
    title: "zeros", fileName: "counter.journal", generator: "rewind test")

  @Test("the last state, checked apart from the keyframes, has the sign of its zero")
  func lastState() throws {
    let directory = TemporaryDirectory()
    let session = try timeline(
      Counter(), [.scaled(0.0), .scaled(-0.0), .scaled(-0.0)], in: directory)
    #expect(try session.state(after: 3).ratio.sign == .minus)
    let payload = try SessionPage.Payload.build(
      session, from: 0, to: 3, options: options, rendererData: .null, progress: { _ in }
    ).bytes
    let lines = String(decoding: payload, as: UTF8.self).split(separator: "\n").map(String.init)
    // The change lists: ratio (field 4) to 0.0, then to -0.0, then none.
    #expect(lines.contains("[4,0.0]") && lines.contains("[4,-0.0]") && lines.contains("[]"))
    _ = try SessionPage.html(of: session, from: 0, to: 3, options: options, renderer: nil)
  }

  @Test("a keyframe after changes of the sign of zero")
  func keyframe() throws {
    let directory = TemporaryDirectory()
    let events = (0..<512).map { Counter.Event.scaled($0.isMultiple(of: 2) ? 0.0 : -0.0) }
    let session = try timeline(Counter(), events, in: directory, snapshotInterval: 64)
    let payload = try SessionPage.Payload.build(
      session, from: 0, to: 511, options: options, rendererData: .null, progress: { _ in }
    ).bytes
    let text = String(decoding: payload, as: UTF8.self)
    #expect(text.contains(#""ratio":-0.0}"#), "the keyframe after event 256")
    _ = try SessionPage.html(of: session, from: 1, to: 512, options: options, renderer: nil)
  }
}
