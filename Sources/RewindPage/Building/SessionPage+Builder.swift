public import RewindCore

extension SessionPage.Payload {
  /// What the page's pass over the events builds, an event at a time: the number lines,
  /// the tables of distinct texts, the keyframes and the memories of events and change
  /// lists met (see `SessionPage.Payload.build`).
  ///
  /// Its per-event step, ``add(_:_:_:rejection:progress:)``, is inlinable, so that where the
  /// builder is compiled for a domain (`PageRenderingDomain.pagePrecomputation`) it runs
  /// specialised; the common event's step, ``addCommon(_:_:_:)``, is offered each event
  /// first, in the replay's inner loop, and `add` is called for the others. What happens
  /// rarely (an event or a change list not met before, a keyframe) is a call. The events'
  /// numbers are written as the page's rows as they are met (`EventNumbers`); the reasons'
  /// are kept raw (`RawNumbers`) and written as text at the end. It cannot be copied (its
  /// buffers are its own).
  @usableFromInline struct Builder<D: Domain>: ~Copyable {
    @usableFromInline let domain: D
    /// Each field's value, read from a state.
    @usableFromInline let values: [@Sendable (D.State) -> JSONValue]
    @usableFromInline let fieldCount: Int
    /// Whether bodies and change lists are remembered (not written again).
    @usableFromInline let memoize: Bool
    /// Whether an event's body and kind are remembered by its bits.
    @usableFromInline let eventsAreBits: Bool
    /// Whether a rejection's reason is remembered by the rejection's bits.
    @usableFromInline let rejectionsAreBits: Bool
    /// Whether the rebuilt state takes each field's last value at a keyframe.
    @usableFromInline let setsLastValues: Bool
    /// The point the page starts at.
    @usableFromInline let from: UInt64
    @usableFromInline let fromTime: UInt64
    @usableFromInline let keyframeInterval: UInt64
    /// The event after which the next keyframe is written: each `keyframeInterval`-th
    /// after `from`.
    @usableFromInline var nextKeyframe: UInt64
    @usableFromInline var keyframeCount: Int
    /// The keyframes' lines.
    @usableFromInline var keyframes: JSONWriter
    @usableFromInline var kinds: [String]
    @usableFromInline var kindIndex: [String: Int]
    @usableFromInline var lastKind: (name: String, index: Int)?
    @usableFromInline var counts: (applied: Int, unchanged: Int, rejected: Int)
    /// Each event's time's delta, code, body number and change list number.
    @usableFromInline var numbers: EventNumbers
    @usableFromInline var reasonNumbers: RawNumbers
    @usableFromInline var bodies: DistinctTexts
    @usableFromInline var changeLists: DistinctTexts
    @usableFromInline var reasons: DistinctTexts
    /// The number of `[]`, once an event has changed nothing.
    @usableFromInline var noChanges: Int?
    @usableFromInline var text: JSONWriter
    @usableFromInline var scratch: JSONWriter
    /// The state as the page will rebuild it, to check that the fields rebuild it.
    @usableFromInline var rebuilt: RebuiltState
    @usableFromInline var previousTime: UInt64
    /// The events met whose bits are at most 16 bytes, by their bits: each one's kind
    /// index and body number, and the last change list of one field and the last row the
    /// common step met after it.
    @usableFromInline var events: EventTable
    /// The events met whose bits are longer, by their bits: each one's kind index and body
    /// number (`longEvents[key]`).
    @usableFromInline var longEventKeys: ShortKeys
    @usableFromInline var longEvents: [(index: Int, body: Int)]
    /// The rejections met, by their bits (``rejectionsAreBits``): each one's reason's
    /// number in `reasons` (`rejectionReasons[key]`).
    @usableFromInline var rejectionKeys: ShortKeys
    @usableFromInline var rejectionReasons: [Int]
    /// The change lists met, by their `ValueKey`: each one's number and values.
    @usableFromInline var changeKeys: ShortKeys
    /// The key numbers of the change lists of two to four fields with words, by their words.
    @usableFromInline var wordLists: WordLists
    @usableFromInline var keyLists: [Int]
    @usableFromInline var keyValues: [[(field: Int, value: JSONValue)]]
    @usableFromInline var key: ValueKey
    @usableFromInline var lastChanges: LastChanges
    /// The first event the common step (``addCommon(_:_:_:)``) does not take: the next
    /// keyframe's, the next progress report's, or the first past the room left in the
    /// numbers (each event appends a row); 0 when it takes none. Set again after
    /// an event `add` adds at or past it: one comparison an event stands for those tests.
    @usableFromInline var commonLimit: UInt64

    /// A builder of the page of the events `from + 1 ... to` of `timeline`, with the
    /// keyframe of the state at `from`; or, given `part`, of a part of a page that starts at
    /// `part.pageFrom` (see `SessionPage+Parts.swift`): no keyframe of the state at `from`,
    /// the page's keyframes (`part.keyframeInterval`, counted from the page's first point)
    /// and times from the time of `from`.
    @usableFromInline init(
      _ timeline: Timeline<D>, from: UInt64, to: UInt64, memoize: Bool,
      part: SessionPage.Payload.PartStart? = nil
    ) throws {
      let domain = timeline.domain
      let fields = domain.fields
      let startJSON = domain.json(try timeline.state(after: from))
      let fromTime =
        part == nil
        ? (from == 0 ? 0 : try timeline.time(of: from))
        : try SessionPage.Payload.startTime(of: from, in: timeline)
      let count = Int(to - from)
      // A byte an event, four times what the keyframes take (the interval is four times a
      // keyframe's length, up to 16,384), reserved: the buffer does not grow and copy
      // itself, and what it does not use is not touched.
      var keyframes = JSONWriter(capacity: count + (1 << 16))
      let pageFrom: UInt64
      let keyframeInterval: UInt64
      let keyframeCount: Int
      if let part {
        pageFrom = part.pageFrom
        keyframeInterval = part.keyframeInterval
        keyframeCount = 0
      } else {
        pageFrom = from
        keyframes.value(startJSON)
        keyframeInterval = Self.keyframeInterval(keyframeBytes: keyframes.count)
        keyframes.newline()
        keyframeCount = 1
      }
      let kinds = D.eventKinds
      let rebuilt = RebuiltState(startJSON, paths: fields.map(\.path))
      let values = fields.map(\.value)

      // Every stored property once, none read before all are set.
      self.domain = domain
      self.values = values
      self.fieldCount = values.count
      self.memoize = memoize
      self.eventsAreBits = memoize && _isPOD(D.Event.self)
      self.rejectionsAreBits = memoize && _isPOD(D.Rejection.self)
      self.setsLastValues = memoize && rebuilt.takesLastValues
      self.from = pageFrom
      self.fromTime = fromTime
      self.keyframeInterval = keyframeInterval
      // The first keyframe after `from`.
      self.nextKeyframe = pageFrom + ((from - pageFrom) / keyframeInterval + 1) * keyframeInterval
      self.keyframeCount = keyframeCount
      self.keyframes = keyframes
      self.kinds = kinds
      self.kindIndex = [String: Int](uniqueKeysWithValues: kinds.enumerated().map { ($1, $0) })
      self.lastKind = nil
      self.counts = (applied: 0, unchanged: 0, rejected: 0)
      // The page's first builder writes the page's data: room for the rows of the page's
      // events (the parts after it merge theirs into it), and before them for its lines
      // (about 2 bytes an event). Reserved only: the pages not written are not touched.
      let pageEvents =
        part == nil
        ? max(count, Int(min(timeline.lastSequence &- from, SessionPage.maximumEvents))) : count
      self.numbers = EventNumbers(
        capacity: pageEvents, headRoom: part == nil ? pageEvents * 4 + (1 << 16) : 0)
      self.reasonNumbers = RawNumbers(capacity: 16)
      self.bodies = DistinctTexts()
      self.changeLists = DistinctTexts()
      self.reasons = DistinctTexts(capacity: 16)
      self.noChanges = nil
      self.text = JSONWriter(capacity: 4096)
      self.scratch = JSONWriter(capacity: 4096)
      self.rebuilt = rebuilt
      self.previousTime = fromTime
      self.events = EventTable()
      self.longEventKeys = ShortKeys(capacity: 16)
      self.longEvents = []
      self.rejectionKeys = ShortKeys(capacity: 16)
      self.rejectionReasons = []
      self.changeKeys = ShortKeys()
      self.wordLists = WordLists()
      self.keyLists = []
      self.keyValues = []
      self.key = ValueKey()
      self.lastChanges = LastChanges(fields: values.count)
      self.commonLimit = 0
      setCommonLimit(after: from)
    }

    /// Sets ``commonLimit`` after event `sequence` (or the point the builder starts at).
    @inlinable mutating func setCommonLimit(after sequence: UInt64) {
      guard eventsAreBits, setsLastValues else {
        commonLimit = 0
        return
      }
      let room = numbers.roomRows
      // The next event whose count from `from` is a multiple of 4,096 reports progress.
      let report = from + ((sequence - from) / 0x1000 + 1) * 0x1000
      commonLimit = Swift.min(nextKeyframe, report, sequence &+ UInt64(Swift.max(room, 0)) &+ 1)
    }

    /// Adds event `visited` (`event`, after which the state is `state`); a rejected event's
    /// reason is `rejection`'s description when it is given, else `visited.reason`.
    @inlinable @inline(__always) mutating func add(
      _ visited: VisitedEvent, _ event: D.Event, _ state: D.State,
      rejection: D.Rejection? = nil, progress: (UInt64) -> Void
    ) throws {
      // The body and the kind: remembered by the event's bits, or written and looked up.
      let (index, body) = eventsAreBits ? knownBody(event) : newBody(event)
      switch visited.outcome {
      case 0: counts.applied &+= 1
      case 1: counts.unchanged &+= 1
      default: counts.rejected &+= 1
      }
      let time = visited.time - previousTime
      previousTime = visited.time
      if visited.outcome > 1 {
        if let rejection { addReason(of: rejection) } else { addReason(visited.reason ?? "") }
      }

      // [field, value, field, value, ...]
      let changed = visited.changed.rawValue
      let changeNumber: Int
      if changed == 0, let none = noChanges {
        changeNumber = none
      } else if memoize {
        var keyNumber: Int
        let field = changed.trailingZeroBitCount
        if changed & (changed &- 1) == 0, field < fieldCount,
          let word = domain.fieldValueWord(field, of: state)
        {
          // One field, whose value is a word (most events): the key `ValueKey` writes (the
          // field, tag 8, the word's bytes), as the two words and length of a short key.
          keyNumber = changeKeys.number(
            UInt64(field) | 8 << 8 | word << 16, word >> 48, length: 10)
        } else {
          keyNumber = listKey(changed, state)
        }
        if keyNumber == keyLists.count { keyNumber = newChangeList(changed, state) }
        changeNumber = keyLists[keyNumber]
        if changed == 0 { noChanges = changeNumber }
        if setsLastValues {
          lastChanges.note(
            changed & (fieldCount < 64 ? (1 &<< fieldCount) &- 1 : ~0), keyNumber)
        } else {
          setValues(keyNumber)
        }
      } else {
        changeNumber = writeChangeList(changed, state)
      }
      // An index, a body's number, an outcome and a change list's number are small and not
      // negative.
      numbers.append(
        time: time, code: UInt64(truncatingIfNeeded: index &* 3 &+ visited.outcome),
        body: UInt64(truncatingIfNeeded: body), changes: UInt64(truncatingIfNeeded: changeNumber))

      // A keyframe after each `keyframeInterval`-th event from `from`: the next one's
      // event is compared with, not found by a division each event.
      let done = visited.sequence - from
      if visited.sequence >= nextKeyframe {
        let past = done % keyframeInterval
        nextKeyframe = visited.sequence - past + keyframeInterval
        if past == 0 { try keyframe(state, after: visited.sequence) }
      }
      if done & 0xFFF == 0 { progress(done) }
      // The limit holds after an event before it: the keyframe and the progress report due
      // are still due, and the numbers have one row less room or have grown.
      if visited.sequence >= commonLimit { setCommonLimit(after: visited.sequence) }
    }

    /// ``add(_:_:_:rejection:progress:)`` of the common event, or nothing: where the builder is
    /// compiled for a domain, it runs in the replay's inner loop
    /// (`Timeline.visitEventsInline`'s `common`), in which little is called. An applied or
    /// unchanged event met before, that changed nothing, or one field with a word, or two
    /// to four fields with words (a call: `existingListKey`), to a change list met before,
    /// with no keyframe or progress due and room in the numbers (`commonLimit`), is added
    /// as `add` adds it, and true returned; for any other, false, and nothing is changed
    /// that `add` reads (`add` adds it; the change the event's `EventTable` entry
    /// remembers is a hint).
    ///
    /// `buildPart` passes it to the replay as a local function, which the compiler inlines
    /// into the inner loop, where it does not inline a closure literal of this size.
    @inlinable @inline(__always) mutating func addCommon(
      _ visited: VisitedEvent, _ event: D.Event, _ state: D.State
    ) -> Bool {
      // No keyframe or progress due, room in the numbers (see `commonLimit`); a time after
      // the one before, by less than 2^32 − 1 µs (one comparison: an earlier time's delta
      // wraps around; a longer one goes through `add`).
      guard visited.sequence < commonLimit,
        visited.time &- previousTime < EventNumbers.longTime
      else { return false }
      guard let step = withUnsafeBytes(of: event, { events.find($0) }) else { return false }
      let changed = visited.changed.rawValue
      let changeNumber: Int
      var keyNumber = -1
      if changed == 0 {
        guard let none = noChanges else { return false }
        changeNumber = none
      } else if changed & (changed &- 1) != 0 {
        // Two to four fields with words, a list met before (a call: few events).
        keyNumber = existingListKey(changed, state)
        guard keyNumber >= 0, keyNumber < keyLists.count else { return false }
        changeNumber = keyLists.withUnsafeBufferPointer { $0[keyNumber] }
      } else {
        let field = changed.trailingZeroBitCount
        guard field < fieldCount, let word = domain.fieldValueWord(field, of: state) else {
          return false
        }
        if Int(step.pointee.field) == field, step.pointee.word == word {
          // The change this event made last time (found below then).
          keyNumber = Int(step.pointee.key)
          changeNumber = Int(step.pointee.list)
        } else {
          keyNumber = changeKeys.existingNumber(
            UInt64(field) | 8 << 8 | word << 16, word >> 48, length: 10)
          guard keyNumber >= 0, keyNumber < keyLists.count else { return false }
          changeNumber = keyLists.withUnsafeBufferPointer { $0[keyNumber] }
          // Fields, keys and lists of a page fit (at most `SessionPage.maximumEvents`).
          step.pointee.field = Int16(truncatingIfNeeded: field)
          step.pointee.word = word
          step.pointee.key = Int32(truncatingIfNeeded: keyNumber)
          step.pointee.list = Int32(truncatingIfNeeded: changeNumber)
        }
      }
      // The event is taken: `add`'s work, less what was ruled out above.
      // The outcome is 0 (applied) or 1 (unchanged).
      counts.applied &+= 1 &- visited.outcome
      counts.unchanged &+= visited.outcome
      // The row's code, body and change list as the event's last row of the same change
      // list and outcome wrote them (most events), else written again and remembered.
      let time = visited.time &- previousTime
      if Int(step.pointee.rowList) == changeNumber, Int(step.pointee.rowOutcome) == visited.outcome
      {
        numbers.append(
          withinRoom: time, rest: step.pointee.row, length: Int(step.pointee.rowLength))
      } else {
        let code = UInt64(truncatingIfNeeded: Int(step.pointee.index) &* 3 &+ visited.outcome)
        let body = UInt64(truncatingIfNeeded: Int(step.pointee.body))
        let changes = UInt64(truncatingIfNeeded: changeNumber)
        if let rest = EventNumbers.rest(code: code, body: body, changes: changes) {
          step.pointee.row = rest.word
          step.pointee.rowLength = UInt8(truncatingIfNeeded: rest.length)
          step.pointee.rowList = Int32(truncatingIfNeeded: changeNumber)
          step.pointee.rowOutcome = Int8(truncatingIfNeeded: visited.outcome)
        }
        numbers.append(withinRoom: time, code: code, body: body, changes: changes)
      }
      previousTime = visited.time
      // The fields' last change (a field's first since a keyframe is put in the order).
      if keyNumber >= 0 { lastChanges.note(changed, keyNumber) }
      return true
    }

    /// The key number of the change list `changed` of `state`, of two to four fields with
    /// words, when it was met before (`listKey` met it): found by its words in `wordLists`;
    /// -1 for another list.
    @inlinable @inline(never) func existingListKey(_ changed: UInt64, _ state: D.State) -> Int {
      guard let words = listWords(changed, state) else { return -1 }
      return wordLists.number(changed, words)
    }

    /// The words of the fields `changed` of `state`, in the fields' order and zero past
    /// them: nil unless two to four fields, each below `fieldCount` and with a word.
    @inlinable @inline(__always) func listWords(_ changed: UInt64, _ state: D.State) -> (
      UInt64, UInt64, UInt64, UInt64
    )? {
      let count = changed.nonzeroBitCount
      guard count >= 2, count <= 4, changed >> UInt64(Swift.min(fieldCount, 63)) == 0 else {
        return nil
      }
      var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
      var rest = changed
      for place in 0..<count {
        let field = rest.trailingZeroBitCount
        rest &= rest &- 1
        guard let word = domain.fieldValueWord(field, of: state) else { return nil }
        switch place {
        case 0: words.0 = word
        case 1: words.1 = word
        case 2: words.2 = word
        default: words.3 = word
        }
      }
      return words
    }

    /// The number of the key of the change list `changed` of `state` (see `ValueKey`), of
    /// several fields or one without a word: a list of two to four fields with words is
    /// looked up by its words (`wordLists`), its key written only the first time.
    ///
    /// Not inlined into the step, for the reason `changeKey` is not.
    @inlinable @inline(never) mutating func listKey(_ changed: UInt64, _ state: D.State) -> Int {
      guard let words = listWords(changed, state) else { return changeKey(changed, state) }
      let known = wordLists.number(changed, words)
      if known >= 0 { return known }
      let number = changeKey(changed, state)
      wordLists.insert(changed, words, number: number)
      return number
    }

    /// The number of the key of the change list `changed` of `state` (see `ValueKey`).
    ///
    /// Not inlined into the step: the compiler would read every field a word may come
    /// from before the loop, for each event, where most events change one field.
    @inlinable @inline(never) mutating func changeKey(_ changed: UInt64, _ state: D.State) -> Int {
      key.removeAll()
      var rest = changed
      while rest != 0 {
        let field = rest.trailingZeroBitCount
        rest &= rest &- 1
        guard field < fieldCount else { continue }
        if let word = domain.fieldValueWord(field, of: state) {
          key.append(field: field, word: word)
        } else {
          key.append(field: field)
          key.append(values[field](state))
        }
      }
      return key.withBytes { changeKeys.number(of: $0) }
    }

    /// The kind's index and the body's number of an event whose bits stand for it
    /// (``eventsAreBits``): remembered by its bits, or found and remembered.
    @inlinable @inline(__always) mutating func knownBody(_ event: D.Event) -> (
      index: Int, body: Int
    ) {
      withUnsafeBytes(of: event) { key in
        if let known = events.find(key) {
          return (Int(known.pointee.index), Int(known.pointee.body))
        }
        if key.count <= 16 {
          let (index, body) = newBody(event)
          events.insert(key, index: index, body: body)
          return (index, body)
        }
        let number = longEventKeys.number(of: key)
        if number == longEvents.count { longEvents.append(newBody(event)) }
        return longEvents[number]
      }
    }

    /// The kind's index and the body's number of an event not met before (or not
    /// remembered).
    ///
    /// Inlinable but not inlined, as the other steps of events met rarely here: compiled
    /// for the domain with the builder (a generic call would look up the builder's type
    /// and the domain's metadata each time), called out of the loop.
    @inlinable @inline(never) mutating func newBody(_ event: D.Event) -> (
      index: Int, body: Int
    ) {
      let kind = domain.eventKind(event)
      let index: Int
      if let last = lastKind, last.name == kind {
        index = last.index
      } else if let known = kindIndex[kind] {
        index = known
      } else {
        index = kinds.count
        kinds.append(kind)
        kindIndex[kind] = index
      }
      lastKind = (kind, index)
      // The line `rewind log --json` prints less seq, time_us, outcome, reason.
      text.removeAll()
      text.beginObject()
      domain.writeMembers(of: event, to: &text)
      text.endObject()
      let body = text.withBytes { bodies.number(of: $0) }
      return (index, body)
    }

    /// Adds a rejected event's reason.
    @inlinable @inline(never) mutating func addReason(_ reason: String) {
      reasonNumbers.append(UInt64(reasonNumber(reason)))
    }

    /// Adds the reason of a rejected event, `rejection`'s description: written only the
    /// first time the rejection is met when rejections are plain bits (``rejectionsAreBits``:
    /// two rejections of the same bits are the same rejection, with the same description),
    /// else each time.
    ///
    /// A description is the costliest part of a rejected event (a `String` built by
    /// interpolation, then escaped as JSON and looked up), where a rejection's bits are a
    /// hash of a few bytes.
    @inlinable @inline(never) mutating func addReason(of rejection: D.Rejection) {
      guard rejectionsAreBits else { return addReason("\(rejection)") }
      let key = withUnsafeBytes(of: rejection) { rejectionKeys.number(of: $0) }
      if key == rejectionReasons.count { rejectionReasons.append(reasonNumber("\(rejection)")) }
      reasonNumbers.append(UInt64(rejectionReasons[key]))
    }

    /// The number of `reason`'s JSON text in `reasons`.
    @inlinable mutating func reasonNumber(_ reason: String) -> Int {
      text.removeAll()
      text.string(reason)
      return text.withBytes { reasons.number(of: $0) }
    }

    /// Writes and numbers the change list `changed` of `state`, not met before, whose key
    /// was the last met; returns the key's number.
    @inlinable @inline(never) mutating func newChangeList(_ changed: UInt64, _ state: D.State)
      -> Int
    {
      let list = writeChangeListText(changed, state)
      keyLists.append(text.withBytes { changeLists.number(of: $0) })
      keyValues.append(list)
      return keyLists.count - 1
    }

    /// Sets the values of change list `keyNumber` in `rebuilt`.
    @usableFromInline mutating func setValues(_ keyNumber: Int) {
      for (field, value) in keyValues[keyNumber] { rebuilt.set(value, field: field) }
    }

    /// Writes and looks up the change list `changed` of `state` (not remembering it);
    /// returns its number.
    @usableFromInline mutating func writeChangeList(_ changed: UInt64, _ state: D.State) -> Int {
      for (field, value) in writeChangeListText(changed, state) {
        rebuilt.set(value, field: field)
      }
      let number = text.withBytes { changeLists.number(of: $0) }
      if changed == 0 { noChanges = number }
      return number
    }

    /// Writes the text of the change list `changed` of `state` into `text`; returns its
    /// fields and their values.
    @inlinable mutating func writeChangeListText(_ changed: UInt64, _ state: D.State)
      -> [(field: Int, value: JSONValue)]
    {
      var list: [(field: Int, value: JSONValue)] = []
      list.reserveCapacity(changed.nonzeroBitCount)
      text.removeAll()
      text.beginArray()
      var rest = changed
      while rest != 0 {
        let field = rest.trailingZeroBitCount
        rest &= rest &- 1
        guard field < fieldCount else { continue }
        let value = values[field](state)
        text.int(Int64(field))
        text.value(value)
        list.append((field, value))
      }
      text.endArray()
      return list
    }

    /// Writes the keyframe of `state`, after event `sequence`, and checks that the fields
    /// rebuilt it.
    @usableFromInline mutating func keyframe(_ state: D.State, after sequence: UInt64) throws {
      let start = keyframes.count
      domain.writeJSON(of: state, to: &keyframes)
      lastChanges.set(in: &rebuilt, keyValues)
      let same = keyframes.withBytes {
        rebuilt.matches(UnsafeRawBufferPointer(rebasing: $0[start...]))
      }
      guard same else { throw Self.uncovered(after: sequence) }
      keyframes.newline()
      keyframeCount += 1
    }

    /// The error of fields that do not rebuild the state after event `sequence`.
    static func uncovered(after sequence: UInt64) -> PageError {
      PageError(
        .fieldsDoNotCoverState,
        "the '\(D.identifier)' domain's fields do not rebuild its state's JSON after event \(sequence): a page needs fields that are the leaves of the state's JSON (see Domain.fields)"
      )
    }

    /// The page's data, after the last event `to` of `timeline`.
    @usableFromInline consuming func finish(
      _ timeline: Timeline<D>, to: UInt64, options: SessionPage.Options, rendererData: JSONValue
    ) throws -> PageData {
      lastChanges.set(in: &rebuilt, keyValues)
      // The last state, checked like the keyframes.
      if to > from, (to - from) % keyframeInterval != 0 {
        text.removeAll()
        domain.writeJSON(of: try timeline.state(after: to), to: &text)
        let same = text.withBytes { rebuilt.matches($0) }
        guard same else { throw Self.uncovered(after: to) }
      }
      // The time of the event after the page's last: a time from it on is past the page
      // (nil where the page ends the session, or where that event was lost to damage).
      let nextTime = to < timeline.lastSequence ? try? timeline.time(of: to + 1) : nil
      return SessionPage.Payload.lines(
        timeline, from: from, to: to, fromTime: fromTime, nextTime: nextTime, options: options,
        rendererData: rendererData, kinds: kinds, counts: counts,
        keyframeInterval: keyframeInterval, keyframeCount: keyframeCount, keyframes: keyframes,
        numbers: numbers,
        reasonNumbers: reasonNumbers, tables: (bodies, changeLists, reasons))
    }
  }
}
