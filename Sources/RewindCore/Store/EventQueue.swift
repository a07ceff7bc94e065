public import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The queue between a recording ``Store``'s senders and its writer thread: a push never
/// waits for the writer, never takes a lock and never copies what is queued.
///
/// One producer at a time (the store pushes while it holds its state lock) and one
/// consumer (the writer thread). Elements live in chunks of a fixed capacity, linked in
/// order; the producer fills the last chunk and publishes each element by storing the
/// number of elements pushed so far (a release store). The consumer reads in batches:
/// ``refresh()`` loads that number (an acquire load) once, and the consumer reads as far
/// as it says. A chunk the consumer has emptied goes back to the producer through a
/// second linked list, of spare chunks, published the same way by a count. So a push
/// writes the element and one counter; once a chunk is full, the producer takes a spare
/// one, and allocates only when there is none left. The consumer keeps the spares
/// stocked ahead of the rate chunks are taken (``stockSpares()``), allocating them and
/// touching their pages on its own thread, so that a push does not wait for the
/// allocator or fault pages in either.
///
/// The spare list always keeps one chunk, its head, that the producer does not take: the
/// consumer links new spares after the last one, and the two ends then never touch the
/// same chunk (a single-producer, single-consumer linked queue with a placeholder node).
///
/// - Complexity: ``Producer/push(_:)``, ``first``, ``removeFirst()`` O(1); a chunk is
///   allocated, reused or freed once per ``chunkCapacity`` elements.
@usableFromInline final class EventQueue<Element>: @unchecked Sendable {
  /// A chunk: one allocation holding the pointer to the next chunk of its list, then
  /// ``EventQueue/chunkCapacity`` element slots.
  @usableFromInline struct Chunk {
    @usableFromInline let base: UnsafeMutableRawPointer

    @inlinable init(_ base: UnsafeMutableRawPointer) { self.base = base }

    /// The chunk after this one in whichever list holds it (queued or spare).
    @inlinable var next: Chunk? {
      get { base.load(as: UnsafeMutableRawPointer?.self).map(Chunk.init) }
      nonmutating set { base.storeBytes(of: newValue?.base, as: UnsafeMutableRawPointer?.self) }
    }

    /// The first slot.
    @inlinable var slots: UnsafeMutablePointer<Element> {
      (base + Chunk.slotsOffset).assumingMemoryBound(to: Element.self)
    }

    /// Where the slots start: after the link, aligned for `Element`.
    @inlinable static var slotsOffset: Int {
      let link = MemoryLayout<UnsafeMutableRawPointer?>.stride
      let alignment = MemoryLayout<Element>.alignment
      return (link + alignment - 1) / alignment * alignment
    }
  }

  /// The counts one end publishes to the other: atomics only, in memory of their own.
  ///
  /// Apart from the end's plain fields, so that the other thread's loads never overlap
  /// the end's own modifying accesses to its struct: ThreadSanitizer reports such an
  /// overlap as a Swift access race, and the loads would pull the end's working cache
  /// line away from it.
  @usableFromInline struct Counts: ~Copyable {
    /// The producer's elements pushed so far (released, acquired by the consumer once a
    /// round), or the consumer's elements removed so far (relaxed: a figure for callers,
    /// not an order).
    @usableFromInline let elements = Atomic<UInt64>(0)
    /// The producer's spare chunks taken (relaxed: the consumer only uses it to decide
    /// how many to stock), or the consumer's spare chunks given (released, acquired by
    /// the producer when it needs one).
    @usableFromInline let spares = Atomic<UInt64>(0)

    init() {}
  }

  /// What the producer writes: its position. Only the producer touches it (while it
  /// holds the store's lock); the counts it publishes are in ``producerCounts``.
  @usableFromInline struct ProducerEnd: ~Copyable {
    /// The chunk being filled, and how many of its slots are.
    @usableFromInline var tail: Chunk
    @usableFromInline var filled = 0
    /// Elements pushed so far: the value of the published count.
    @usableFromInline var pushed: UInt64 = 0
    /// The placeholder at the head of the spare list; the chunk after it is the next
    /// spare to take.
    var spareHead: Chunk
    var sparesTaken: UInt64 = 0
    /// Chunks the producer had to allocate itself, finding no spare.
    var allocated = 0

    init(tail: Chunk, spareHead: Chunk) {
      self.tail = tail
      self.spareHead = spareHead
    }
  }

  /// What the consumer writes: its position. Only the consumer touches it; the counts it
  /// publishes are in ``consumerCounts``.
  struct ConsumerEnd: ~Copyable {
    /// The chunk being read, and the slot of the first element not yet removed.
    var head: Chunk
    var read = 0
    var removed: UInt64 = 0
    /// How far the consumer reads until its next ``EventQueue/refresh()``: the value of
    /// the producer's count it loaded last.
    var available: UInt64 = 0
    /// The last spare chunk: new spares are linked after it.
    var spareTail: Chunk
    var sparesGiven: UInt64 = 0
    /// The producer's spares taken, and the clock, when the rate was last measured.
    var takenAtLastMeasure: UInt64 = 0
    var lastMeasure: UInt64 = 0
    /// The spares to keep: enough for ``EventQueue/coverage`` at the measured rate.
    var wantedSpares = 0

    init(head: Chunk, spareTail: Chunk) {
      self.head = head
      self.spareTail = spareTail
    }
  }

  /// Elements per chunk.
  let chunkCapacity: Int
  /// The fewest and the most spare chunks kept (``stockSpares()``); chunks emptied
  /// beyond the most are freed.
  let minimumSpares: Int
  let maximumSpares: Int
  /// Nanoseconds of the spares' clock (``MonotonicClock`` but in tests).
  private let clock: @Sendable () -> UInt64
  /// How long the spares should last at the rate the producer takes them: a few
  /// scheduler time slices, in case the consumer's thread does not run for a while.
  static var coverage: UInt64 { 20_000_000 }
  /// The shortest time the rate is measured over.
  static var measureWindow: UInt64 { 1_000_000 }
  /// Each end in memory of its own, 128-byte aligned and padded: what one thread writes
  /// for every element never shares a cache line with what the other writes (such
  /// sharing doubled the time of a send).
  private let producer: UnsafeMutablePointer<ProducerEnd>
  private let consumer: UnsafeMutablePointer<ConsumerEnd>
  /// The counts each end publishes (elements pushed, spares taken; elements removed,
  /// spares given), each in memory of its own as well.
  private let producerCounts: UnsafeMutablePointer<Counts>
  private let consumerCounts: UnsafeMutablePointer<Counts>

  /// The default chunk: about 32 KiB, and at least 64 elements.
  static func defaultChunkCapacity() -> Int {
    max(64, 32_768 / max(1, MemoryLayout<Element>.stride))
  }

  /// An empty queue with one chunk to fill and `spares` spare chunks.
  ///
  /// - Parameters:
  ///   - chunkCapacity: elements per chunk; by default about 32 KiB of them.
  ///   - spares: the spare chunks stocked at once, and kept at least by
  ///     ``stockSpares()``.
  ///   - maximumSpares: the most spare chunks kept.
  ///   - clock: nanoseconds of a monotonic clock, to measure the rate spares are taken.
  /// - Precondition: `chunkCapacity` is positive and `spares` is 0…`maximumSpares`.
  init(
    chunkCapacity: Int? = nil, spares: Int = 2, maximumSpares: Int = 64,
    clock: @escaping @Sendable () -> UInt64 = MonotonicClock.now
  ) {
    let capacity = chunkCapacity ?? Self.defaultChunkCapacity()
    precondition(capacity > 0, "a chunk holds at least one element")
    precondition(
      spares >= 0 && spares <= maximumSpares, "the spares stocked are 0…maximumSpares")
    self.chunkCapacity = capacity
    minimumSpares = spares
    self.maximumSpares = maximumSpares
    self.clock = clock
    let first = Self.allocateChunk(capacity: capacity)
    let placeholder = Self.allocateChunk(capacity: capacity)
    producer = Self.allocateAlone(ProducerEnd(tail: first, spareHead: placeholder))
    consumer = Self.allocateAlone(ConsumerEnd(head: first, spareTail: placeholder))
    producerCounts = Self.allocateAlone(Counts())
    consumerCounts = Self.allocateAlone(Counts())
    consumer.pointee.wantedSpares = spares
    consumer.pointee.lastMeasure = clock()
    for _ in 0..<spares { giveSpare(Self.allocateChunk(capacity: capacity)) }
  }

  deinit {
    // Nothing else uses the queue now: destroy what is still queued, then free both lists.
    var chunk = consumer.pointee.head
    var slot = consumer.pointee.read
    var left = producer.pointee.pushed - consumer.pointee.removed
    while left > 0 {
      if slot == chunkCapacity {
        chunk = chunk.next!
        slot = 0
      }
      (chunk.slots + slot).deinitialize(count: 1)
      slot += 1
      left -= 1
    }
    for start in [consumer.pointee.head, producer.pointee.spareHead] {
      var next: Chunk? = start
      while let current = next {
        next = current.next
        current.base.deallocate()
      }
    }
    producer.deinitialize(count: 1)
    UnsafeMutableRawPointer(producer).deallocate()
    consumer.deinitialize(count: 1)
    UnsafeMutableRawPointer(consumer).deallocate()
    for counts in [producerCounts, consumerCounts] {
      counts.deinitialize(count: 1)
      UnsafeMutableRawPointer(counts).deallocate()
    }
  }

  /// `value` moved into memory of its own: 128-byte aligned (two cache lines, as the
  /// hardware prefetches them in pairs) and padded to a multiple of 128 bytes.
  private static func allocateAlone<T: ~Copyable>(_ value: consuming T)
    -> UnsafeMutablePointer<T>
  {
    let size = (MemoryLayout<T>.size + 127) / 128 * 128
    let raw = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 128)
    let pointer = raw.bindMemory(to: T.self, capacity: 1)
    pointer.initialize(to: value)
    return pointer
  }

  // MARK: The producer's side

  /// The producer's handle: what a push touches, and nothing else (no reference count,
  /// no field of the queue object, which the consumer's thread retains and releases).
  /// Valid while the queue exists; sendable because whoever pushes holds the store's
  /// lock, one at a time.
  @usableFromInline struct Producer: @unchecked Sendable {
    @usableFromInline let end: UnsafeMutablePointer<ProducerEnd>
    /// The counts the producer publishes.
    @usableFromInline let counts: UnsafeMutablePointer<Counts>
    /// The consumer's counts, for the spares it gives.
    let consumerCounts: UnsafeMutablePointer<Counts>
    @usableFromInline let chunkCapacity: Int

    /// Appends `element`. Only one thread at a time may push.
    ///
    /// - Complexity: O(1): a store of the element and of the count, plus, once per
    ///   ``EventQueue/chunkCapacity`` pushes, taking a spare chunk (or allocating one if
    ///   none is left).
    @inlinable func push(_ element: consuming Element) {
      if end.pointee.filled == chunkCapacity { startNextChunk() }
      (end.pointee.tail.slots + end.pointee.filled).initialize(to: element)
      end.pointee.filled += 1
      end.pointee.pushed += 1
      counts.pointee.elements.store(end.pointee.pushed, ordering: .releasing)
    }

    /// Links a spare chunk (or a new one) after the full tail and makes it the tail. The
    /// link is published with the first element stored in it.
    @usableFromInline func startNextChunk() {
      let chunk: Chunk
      if consumerCounts.pointee.spares.load(ordering: .acquiring) > end.pointee.sparesTaken {
        // Take the placeholder; the spare after it becomes the placeholder.
        chunk = end.pointee.spareHead
        end.pointee.spareHead = chunk.next!
        end.pointee.sparesTaken += 1
        counts.pointee.spares.store(end.pointee.sparesTaken, ordering: .relaxed)
      } else {
        // Touched at once: the page faults then cost this one push some microseconds,
        // rather than one push in a hundred a microsecond each (which the 99th
        // percentile would show).
        chunk = EventQueue.allocateChunk(capacity: chunkCapacity)
        end.pointee.allocated += 1
      }
      chunk.next = nil
      end.pointee.tail.next = chunk
      end.pointee.tail = chunk
      end.pointee.filled = 0
    }
  }

  /// The producer's handle.
  var producerHandle: Producer {
    Producer(
      end: producer, counts: producerCounts, consumerCounts: consumerCounts,
      chunkCapacity: chunkCapacity)
  }

  /// Appends `element`, as ``Producer/push(_:)``.
  func push(_ element: consuming Element) {
    producerHandle.push(element)
  }

  /// Chunks the producer had to allocate itself, finding no spare; read it where the
  /// producer pushes.
  var chunksAllocatedByProducer: Int { producer.pointee.allocated }

  /// Elements pushed so far; any thread.
  var pushedCount: UInt64 { producerCounts.pointee.elements.load(ordering: .acquiring) }

  // MARK: The consumer's side

  /// Elements pushed and not yet removed; any thread (exact only when nobody is pushing
  /// or removing).
  var count: Int {
    let removed = consumerCounts.pointee.elements.load(ordering: .relaxed)
    let pushed = producerCounts.pointee.elements.load(ordering: .acquiring)
    return pushed > removed ? Int(pushed - removed) : 0
  }

  /// Elements removed so far by the consumer.
  var removedTotal: UInt64 { consumer.pointee.removed }

  /// Lets the consumer read every element pushed so far; until the next call, it reads
  /// no further. Consumer only.
  ///
  /// The consumer reads in such batches rather than chasing the producer element by
  /// element: loading the producer's count for every element would pull its cache line
  /// away from the producer at every push.
  /// - Returns: the elements the consumer can read now.
  @discardableResult func refresh() -> Int {
    consumer.pointee.available = producerCounts.pointee.elements.load(ordering: .acquiring)
    return Int(consumer.pointee.available - consumer.pointee.removed)
  }

  /// The oldest element not removed yet, or nil if there is none up to the last
  /// ``refresh()``. Consumer only.
  var first: Element? {
    guard prepareFirst() else { return nil }
    return (consumer.pointee.head.slots + consumer.pointee.read).pointee
  }

  /// Whether the consumer has nothing to read up to the last ``refresh()``. Consumer only.
  var isEmpty: Bool { consumer.pointee.removed == consumer.pointee.available }

  /// Removes (and destroys) the oldest element. Consumer only.
  /// - Precondition: there is one, up to the last ``refresh()``.
  func removeFirst() {
    precondition(prepareFirst(), "removeFirst() on an empty event queue")
    (consumer.pointee.head.slots + consumer.pointee.read).deinitialize(count: 1)
    consumer.pointee.read += 1
    consumer.pointee.removed += 1
    consumerCounts.pointee.elements.store(consumer.pointee.removed, ordering: .relaxed)
  }

  /// Removes every element up to the last ``refresh()``. Consumer only.
  /// - Returns: how many were removed.
  @discardableResult func removeAll() -> Int {
    var removed = 0
    while prepareFirst() {
      removeFirst()
      removed += 1
    }
    return removed
  }

  /// Makes the consumer's position point at a readable element, moving to the next
  /// chunk (and giving the emptied one back) when the current one is used up.
  /// - Returns: false when there is nothing to read up to the last ``refresh()``.
  private func prepareFirst() -> Bool {
    if consumer.pointee.removed == consumer.pointee.available { return false }
    if consumer.pointee.read == chunkCapacity {
      // An element exists past this full chunk, so the producer linked the next one
      // before publishing it.
      let emptied = consumer.pointee.head
      consumer.pointee.head = emptied.next!
      consumer.pointee.read = 0
      recycle(emptied)
      stockSpares()
    }
    return true
  }

  /// Spare chunks the producer can take now (as the consumer sees it).
  var spareCount: Int {
    Int(
      consumer.pointee.sparesGiven
        - producerCounts.pointee.spares.load(ordering: .relaxed))
  }

  /// Keeps a supply of spare chunks ahead of the producer: as many as it would take in
  /// ``coverage`` at the rate it took them since the rate was last measured (at least
  /// a millisecond ago), plus ``minimumSpares``, up to ``maximumSpares``. New chunks are
  /// allocated and their pages touched here, on the consumer's thread. Consumer only; the
  /// consumer also calls it each time it moves on to the next chunk.
  func stockSpares() {
    let now = clock()
    let elapsed = now &- consumer.pointee.lastMeasure
    if elapsed >= Self.measureWindow {
      let taken = producerCounts.pointee.spares.load(ordering: .relaxed)
      let recent = taken - consumer.pointee.takenAtLastMeasure
      let needed = (recent * Self.coverage + elapsed - 1) / elapsed
      consumer.pointee.wantedSpares = min(
        maximumSpares, minimumSpares + Int(min(needed, UInt64(maximumSpares))))
      consumer.pointee.takenAtLastMeasure = taken
      consumer.pointee.lastMeasure = now
    }
    var spares = spareCount
    while spares < consumer.pointee.wantedSpares {
      giveSpare(Self.allocateChunk(capacity: chunkCapacity))
      spares += 1
    }
  }

  /// Gives an emptied chunk back as a spare, or frees it when there are enough.
  private func recycle(_ chunk: Chunk) {
    if spareCount >= maximumSpares {
      chunk.base.deallocate()
    } else {
      giveSpare(chunk)
    }
  }

  /// Links `chunk` after the last spare and publishes it.
  private func giveSpare(_ chunk: Chunk) {
    chunk.next = nil
    consumer.pointee.spareTail.next = chunk
    consumer.pointee.spareTail = chunk
    consumer.pointee.sparesGiven += 1
    consumerCounts.pointee.spares.store(consumer.pointee.sparesGiven, ordering: .releasing)
  }

  /// A new chunk with no successor, its memory written once (`memset`) so that its pages
  /// are mapped before pushes need them.
  static func allocateChunk(capacity: Int) -> Chunk {
    let stride = MemoryLayout<Element>.stride
    let size = Chunk.slotsOffset + capacity * stride
    let alignment = max(
      MemoryLayout<UnsafeMutableRawPointer?>.alignment, MemoryLayout<Element>.alignment)
    let base = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: alignment)
    memset(base, 0, size)
    base.bindMemory(to: UnsafeMutableRawPointer?.self, capacity: 1)
    base.storeBytes(of: nil, as: UnsafeMutableRawPointer?.self)
    (base + Chunk.slotsOffset).bindMemory(to: Element.self, capacity: capacity)
    return Chunk(base)
  }
}
