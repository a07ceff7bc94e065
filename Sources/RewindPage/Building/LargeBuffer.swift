#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Buffers of megabytes that a page's builder writes from start to end once: allocated
/// aligned to the kernel's huge page (2 MiB) and marked for huge pages where the system
/// has them (Linux's `MADV_HUGEPAGE`), so that writing them takes a page fault every
/// 2 MiB, not every 4 KiB (BENCHMARKS.md, session 54). Deallocated as any buffer
/// (`deallocate()`).
enum LargeBuffer {
  /// The size of a huge page, and the alignment of a buffer that can hold one.
  static let hugePage = 1 << 21

  /// A buffer of `count` bytes, not initialised: aligned to a huge page, and the whole
  /// huge pages it holds marked for them, when it holds one; else as
  /// `UnsafeMutablePointer.allocate` gives it. (A page not written is not given memory,
  /// huge or not; the rest past the last whole huge page stays in small pages, so that no
  /// more than the buffer is cleared.)
  static func allocate(_ count: Int) -> UnsafeMutablePointer<UInt8> {
    guard count >= hugePage else { return .allocate(capacity: count) }
    let raw = UnsafeMutableRawPointer.allocate(byteCount: count, alignment: hugePage)
    #if os(Linux)
      // Advice only: where it is not taken, the buffer is as good, only slower to touch.
      _ = madvise(raw, count & ~(hugePage - 1), MADV_HUGEPAGE)
    #endif
    return raw.bindMemory(to: UInt8.self, capacity: count)
  }
}
