@_spi(Reflection) import Swift

/// A stored property of a struct, as the standard library's field walk gives it.
struct StoredField {
  /// Its name as `Mirror` labels it (`_jobs` for a wrapped `jobs`).
  let label: String
  /// Where it starts in the struct's bytes.
  let offset: Int
  let type: Any.Type
}

extension DeclaredParameters {
  /// The stored properties of a struct type, in declaration order; nil for any other type.
  ///
  /// `Mirror` reads the same field records, but its first use instantiates the generic
  /// types of its children's collection, whose conformances a binary that links the
  /// standard library statically looks for among all of its records: a million
  /// instructions, a ninth of a short command's start. The standard library's own field
  /// walk (`_forEachField`, what `Mirror` stands on) reads them without.
  ///
  /// - Complexity: O(*n*) in the number of stored properties.
  static func storedFields(of type: Any.Type) -> [StoredField]? {
    var fields: [StoredField] = []
    // The options spelled out: the default, `[]`, is read through a generic initializer
    // whose first use looks a conformance up.
    let isStruct = _forEachField(of: type, options: _EachFieldOptions(rawValue: 0)) {
      name, offset, type, _ in
      fields.append(StoredField(label: String(cString: name), offset: offset, type: type))
      return true
    }
    return isStruct ? fields : nil
  }
}

/// The declarations (``Argument``, ``Option``, ``Flag``) made on this thread while a
/// command value is made (``DeclaredParameters/make(_:)``), each with the type of the
/// property wrapper that holds its box.
final class DeclarationCollector: @unchecked Sendable {
  /// The collector of the command value being made on this thread (task), if any.
  ///
  /// It is unchecked `Sendable` because a task-local value must be: it is read and
  /// changed only by the thread that makes the value, within `make(_:)`.
  @TaskLocal static var current: DeclarationCollector?

  private(set) var boxes: [(box: any DeclaredParameter, wrapper: Any.Type)] = []

  func add(_ box: any DeclaredParameter, wrapper: Any.Type) {
    boxes.append((box, wrapper))
  }
}
