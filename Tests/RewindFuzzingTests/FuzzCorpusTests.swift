import RewindFuzzing
import RewindJournal
import Testing

/// Every input of the seed corpora and every input that once made a target fail runs
/// through its target here, without libFuzzer: a parser that starts to crash on one of
/// them fails `swift test`.
@Suite struct FuzzCorpusTests {
  @Test(arguments: FuzzTarget.allCases)
  func everyCorpusInputPasses(_ target: FuzzTarget) throws {
    let corpus = try repositoryFiles(in: "Fuzz/Corpus/\(target.rawValue)")
    #expect(!corpus.isEmpty, "Fuzz/Corpus/\(target.rawValue) holds no input")
    let regressions = try repositoryFiles(in: "Fuzz/Regressions/\(target.rawValue)")
    for (name, bytes) in corpus + regressions {
      do {
        try target.check(bytes)
      } catch {
        Issue.record("\(target.rawValue) fails on \(name): \(error)")
      }
    }
  }

  @Test func theSampleSessionIsRecorded() throws {
    let timeline = SampleSession.timeline()
    #expect(timeline.lastSequence == 400)
    #expect(timeline.reader.frames.count > 1)
    #expect(timeline.reader.condition.openedFromIndex)
  }

  @Test func theBuiltInJournalsAreInEveryCondition() throws {
    let journals = FuzzTarget.journal.builtInSeeds()
    #expect(journals.count == 5)
    let conditions = try journals.map { try openJournal($0).condition }
    #expect(conditions[0].openedFromIndex && conditions[0].isIntact)
    #expect(!conditions[1].openedFromIndex && conditions[1].isIntact)
    #expect(conditions[2].tornTail != nil)
    #expect(conditions[3].headerDamage != nil)
    #expect(!conditions[4].lostRanges.isEmpty)
    // Stored frames change sizes and offsets, not what a reader finds.
    func kind(_ condition: JournalCondition) -> [Bool] {
      [
        condition.openedFromIndex, condition.tornTail != nil, condition.headerDamage != nil,
        condition.lostRanges.isEmpty,
      ]
    }
    let stored = FuzzTarget.journalChecksummed.builtInSeeds()
    #expect(try stored.map { kind(try openJournal($0).condition) } == conditions.map(kind))
  }
}
