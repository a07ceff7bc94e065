import Foundation
import RewindFuzzing
import RewindJournal

/// The repository's root, found from this file's path.
let repositoryRoot: String = {
  var url = URL(fileURLWithPath: #filePath)
  for _ in 0..<3 { url.deleteLastPathComponent() }
  return url.path
}()

/// The bytes of a file of the repository.
func repositoryFile(_ path: String) throws -> [UInt8] {
  try Array(Data(contentsOf: URL(fileURLWithPath: repositoryRoot + "/" + path)))
}

/// The files of a directory of the repository, by name, sorted; none if it does not exist.
func repositoryFiles(in directory: String) throws -> [(name: String, bytes: [UInt8])] {
  let path = repositoryRoot + "/" + directory
  guard FileManager.default.fileExists(atPath: path) else { return [] }
  return try FileManager.default.contentsOfDirectory(atPath: path).sorted().map {
    ($0, try repositoryFile(directory + "/" + $0))
  }
}

/// Opens journal bytes from memory.
func openJournal(_ bytes: [UInt8], salvage: Bool = false) throws -> JournalReader {
  var options = JournalReader.Options(salvage: salvage)
  options.system = .memory(bytes, at: "test.journal")
  return try JournalReader(path: "test.journal", options: options)
}

/// Every record of a journal: sequence, time and payload.
func records(_ reader: JournalReader) throws -> [(UInt64, UInt64, [UInt8])] {
  var iterator = reader.records()
  var all: [(UInt64, UInt64, [UInt8])] = []
  while let record = try iterator.next() {
    all.append((record.sequence, record.time, Array(record.payload)))
  }
  return all
}
