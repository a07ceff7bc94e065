/// Why a page cannot be written: a session too large for one page, or a domain whose
/// fields do not describe its state's JSON.
@usableFromInline package struct PageError: Error, Equatable, Sendable, CustomStringConvertible {
  @usableFromInline package enum Code: Sendable, Equatable {
    /// More events than ``SessionPage/maximumEvents`` in the part asked for.
    case tooManyEvents
    /// The domain's fields are not the leaves of its state's JSON, so changes of fields
    /// cannot rebuild the state.
    case fieldsDoNotCoverState
  }

  @usableFromInline package var code: Code
  @usableFromInline package var message: String

  @usableFromInline package init(_ code: Code, _ message: String) {
    self.code = code
    self.message = message
  }

  @usableFromInline package var description: String { message }
}
