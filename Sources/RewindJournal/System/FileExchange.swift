import CFileCalls

/// Swaps the files the paths `first` and `second` name, at once
/// (``FileSystemCalls/exchange``'s live call): 0, or -1 with `errno` set.
func exchangeFiles(_ first: String, _ second: String) -> Int32 {
  rewind_exchange(first, second)
}
