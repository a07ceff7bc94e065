/// Why a page cannot be written: a session too large for one page, or a domain whose
/// fields do not describe its state's JSON.
package struct PageError: Error, Equatable, Sendable, CustomStringConvertible {
  package enum Code: Sendable, Equatable {
    /// More events than ``SessionPage/maximumEvents`` in the part asked for.
    case tooManyEvents
    /// The domain's fields are not the leaves of its state's JSON, so changes of fields
    /// cannot rebuild the state.
    case fieldsDoNotCoverState
  }

  package var code: Code
  package var message: String

  package init(_ code: Code, _ message: String) {
    self.code = code
    self.message = message
  }

  package var description: String { message }
}
