public import RewindCore

extension Catalog {
  /// The catalog as a JSON object: `layout`, `menuLabels`, `menuLabelWidths`, `categories` (each node
  /// `{"name", "image", "children"}`, `children` left out when empty): the catalog's one
  /// serialisation, printed by RewindCore's printer so the bytes are the same on every
  /// platform.
  public var json: JSONValue {
    .object([
      ("layout", .string(layout.rawValue)),
      ("menuLabels", .array(menuLabels.map(JSONValue.string))),
      ("menuLabelWidths", .array(menuLabelWidths.map(JSONValue.double))),
      ("categories", .array(tree.map(Catalog.json(of:)))),
    ])
  }

  /// Reads and validates a catalog from the object ``json`` writes.
  ///
  /// `layout` is optional (default `threeColumn`), and so is `menuLabelWidths` (default
  /// ``labelWidth(_:)`` of each label); in a node, `image` (default empty) and `children`
  /// (default none) are optional. Unknown keys are ignored.
  /// - Throws: `DomainError` naming the path of the first bad value, or the first
  ///   problem ``init(layout:menuLabels:menuLabelWidths:categories:)`` finds.
  public convenience init(json: JSONValue) throws(DomainError) {
    guard case .object = json else {
      throw DomainError("the catalog must be a JSON object, found \(json.typeName)")
    }
    var layout = SplitLayout.threeColumn
    if let value = json["layout"] {
      guard let name = value.stringValue, let parsed = SplitLayout(rawValue: name) else {
        throw DomainError("catalog.layout must be \"twoColumn\" or \"threeColumn\"")
      }
      layout = parsed
    }
    guard case .array(let labelValues)? = json["menuLabels"] else {
      throw DomainError("catalog.menuLabels must be an array of strings")
    }
    guard labelValues.count <= Limits.maximumMenuLabels else {
      throw DomainError(
        "the menu needs 1 to \(Limits.maximumMenuLabels) labels, found \(labelValues.count)")
    }
    var labels: [String] = []
    for (position, value) in labelValues.enumerated() {
      guard let label = value.stringValue else {
        throw DomainError("catalog.menuLabels[\(position)] must be a string")
      }
      labels.append(label)
    }
    var widths: [Double]?
    if let value = json["menuLabelWidths"] {
      guard case .array(let widthValues) = value, widthValues.count == labels.count else {
        throw DomainError("catalog.menuLabelWidths must be an array of a width for each label")
      }
      var numbers: [Double] = []
      for (position, element) in widthValues.enumerated() {
        guard let width = element.doubleValue else {
          throw DomainError("catalog.menuLabelWidths[\(position)] must be a number of points")
        }
        numbers.append(width)
      }
      widths = numbers
    }
    guard case .array(let categoryValues)? = json["categories"] else {
      throw DomainError("catalog.categories must be an array of nodes")
    }
    var budget = Limits.maximumNodes
    var categories: [Node] = []
    for (position, value) in categoryValues.enumerated() {
      categories.append(
        try Catalog.node(
          from: value, path: "catalog.categories[\(position)]", depth: 0, budget: &budget))
    }
    try self.init(
      layout: layout, menuLabels: labels, menuLabelWidths: widths, categories: categories)
  }

  private static func json(of node: Node) -> JSONValue {
    var members: [(String, JSONValue)] = [
      ("name", .string(node.name)), ("image", .string(node.image)),
    ]
    if !node.children.isEmpty {
      members.append(("children", .array(node.children.map(json(of:)))))
    }
    return .object(members)
  }

  /// Reads one node; `budget` counts down the nodes still allowed so that a huge tree is
  /// refused before it is built.
  private static func node(from value: JSONValue, path: String, depth: Int, budget: inout Int)
    throws(DomainError) -> Node
  {
    guard case .object = value else {
      throw DomainError("\(path) must be an object with a \"name\", found \(value.typeName)")
    }
    guard depth <= Limits.maximumDepth else {
      throw DomainError(
        "the catalog is nested deeper than \(Limits.maximumDepth + 1) levels at \(path)")
    }
    budget -= 1
    guard budget >= 0 else {
      throw DomainError("the catalog has more than \(Limits.maximumNodes) nodes")
    }
    guard let name = value["name"]?.stringValue else {
      throw DomainError("\(path).name must be a string")
    }
    var image = ""
    if let imageValue = value["image"] {
      guard let text = imageValue.stringValue else {
        throw DomainError("\(path).image must be a string")
      }
      image = text
    }
    var children: [Node] = []
    if let childrenValue = value["children"] {
      guard case .array(let elements) = childrenValue else {
        throw DomainError("\(path).children must be an array of nodes")
      }
      for (position, element) in elements.enumerated() {
        children.append(
          try node(
            from: element, path: "\(path).children[\(position)]", depth: depth + 1,
            budget: &budget))
      }
    }
    return Node(name, image: image, children: children)
  }
}
