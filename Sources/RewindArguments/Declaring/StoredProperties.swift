@_spi(Reflection) import Swift

extension DeclaredParameters {
  /// The stored properties of a struct, each with its name as `Mirror` labels it
  /// (`_jobs` for a wrapped `jobs`), in declaration order; nil for any other type.
  ///
  /// `Mirror` does the same, but its first use instantiates the generic types of its
  /// children's collection, whose conformances a binary that links the standard library
  /// statically looks for among all of its records: a million instructions, a ninth of a
  /// short command's start. The standard library's own field walk (`_forEachField`, what
  /// `Mirror` stands on) reads the same field records without them.
  ///
  /// - Complexity: O(*n*) in the number of stored properties.
  static func storedProperties<Value>(of value: Value) -> [(label: String, value: Any)]? {
    var properties: [(label: String, value: Any)] = []
    let isStruct = withUnsafeBytes(of: value) { bytes in
      _forEachField(of: Value.self) { name, offset, type, _ in
        func read<Field>(_: Field.Type) -> Any {
          bytes.load(fromByteOffset: offset, as: Field.self)
        }
        properties.append((String(cString: name), _openExistential(type, do: read)))
        return true
      }
    }
    return isStruct ? properties : nil
  }
}
