/// Values of the shapes a domain's state and events take, for the coder tests.
enum Mode: Codable, Equatable, Hashable, Comparable {
  case idle
  case running(since: Int64)
  case paused(Int, String)
}

enum Suit: String, Codable, Equatable, Comparable {
  case hearts, spades
  static func < (a: Suit, b: Suit) -> Bool { a.rawValue < b.rawValue }
}

struct Inner: Codable, Equatable {
  var label: String
  var weight: Double?
}

struct Sample: Codable, Equatable {
  var flag = true
  var small: Int8 = -3
  var count: UInt64 = 300
  var big: Int64 = .min
  var ratio: Float = 0.5
  var offset = -0.0
  var title = "Café ☕️"
  var note: String? = nil
  var nested: Int?? = .some(nil)
  var mode = Mode.paused(7, "x")
  var modes: [Mode] = [.idle, .running(since: 5)]
  var suit = Suit.spades
  var counts: [String: Int] = ["b": 2, "a": 1, "c": 3]
  var byNumber: [Int: String] = [10: "ten", 2: "two"]
  var tags: Set<String> = ["z", "y", "x"]
  var grid: [[Int?]] = [[1, nil], [], [3]]
  var inner = Inner(label: "in", weight: nil)
  var empty: [Inner] = []
}

/// A recursive type, to check the depth bound on hostile bytes.
indirect enum Tree: Codable, Equatable {
  case leaf
  case node(Tree)
}
