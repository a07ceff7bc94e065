extension Catalog.Node: Codable {
  private enum CodingKeys: String, CodingKey {
    case name
    case image
    case children
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      try container.decode(String.self, forKey: .name),
      image: try container.decodeIfPresent(String.self, forKey: .image) ?? "",
      children: try container.decodeIfPresent([Catalog.Node].self, forKey: .children) ?? [])
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(name, forKey: .name)
    try container.encode(image, forKey: .image)
    if !children.isEmpty { try container.encode(children, forKey: .children) }
  }
}

/// The `Codable` form has the same keys as ``Catalog/json``: `layout` (optional, default
/// `threeColumn`), `menuLabels`, `categories`. Decoding validates like
/// ``Catalog/init(layout:menuLabels:categories:)`` and throws its `DomainError`.
extension Catalog: Codable {
  private enum CodingKeys: String, CodingKey {
    case layout
    case menuLabels
    case categories
  }

  public convenience init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    try self.init(
      layout: try container.decodeIfPresent(SplitLayout.self, forKey: .layout) ?? .threeColumn,
      menuLabels: try container.decode([String].self, forKey: .menuLabels),
      categories: try container.decode([Node].self, forKey: .categories))
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(layout, forKey: .layout)
    try container.encode(menuLabels, forKey: .menuLabels)
    try container.encode(tree, forKey: .categories)
  }
}
