import Testing

@testable import Navigation

@Suite("The reducer's ignored changes")
struct IgnoredChangesTests {
  /// `NavigationState.apply(_:)` hands the generic `apply(_:recording:)` its recorder
  /// `inout`; an empty type's value has no address, and under ThreadSanitizer the access
  /// check then read whatever a register held (a SEGV in the sanitizer's runtime on CI).
  @Test func theRecorderHasAnAddress() {
    #expect(MemoryLayout<IgnoredChanges>.size > 0)
  }
}
