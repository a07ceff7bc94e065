/// Thrown when a text on the command line is not a valid value: by
/// ``ExpressibleByArgument/init(argument:)`` and by the `transform` of an ``Option`` or an
/// ``Argument``.
///
/// The runner reports it as a usage error, `The value '…' is invalid for '--at <point>'`,
/// followed by `: <reason>` when there is a reason.
public struct InvalidValue: Error, Equatable, Sendable {
  /// What was expected (`expected a level from 1 to 19`), or `nil` to say nothing more.
  public var reason: String?

  /// A value that cannot be read.
  /// - Parameter reason: What was expected, printed after the usage error's message.
  public init(_ reason: String? = nil) {
    self.reason = reason
  }
}
