extension Catalog {
  /// The sample menu labels: the days of the week.
  public static let sampleMenuLabels = [
    "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday",
  ]

  /// The sample tree from the tutorials: espresso equipment in three categories.
  ///
  /// Every item has an image of its own in the tutorial, named after it: usually its slug
  /// (`leva-x`), `pourover` for Pour Over. A group shows the image of its first model.
  ///
  /// The last group of espresso machines is "Home": the tutorial's reworded text calls it
  /// "House", but the equipment is La Marzocco's *Home* line (the GS3 and the Linea Mini,
  /// its machines for the home), so the catalog keeps the maker's name. Its id,
  /// `espresso-machines/home`, is in recorded journals and stays.
  public static let sampleTree: [Node] = [
    Node(
      "Espresso Machines", image: "linea-mini",
      children: [
        Node("Leva", image: "leva-x", children: [leaf("Leva X"), leaf("Leva S")]),
        Node(
          "Strada", image: "strada-ep",
          children: [leaf("Strada EP"), leaf("Strada AV"), leaf("Strada MP"), leaf("Strada EE")]),
        Node("KB90", image: "kb90"),
        Node(
          "Linea", image: "linea-pb-x",
          children: [leaf("Linea PB X"), leaf("Linea PB"), leaf("Linea Classic")]),
        Node("GB5", image: "gb5"),
        Node("Home", image: "gs3", children: [leaf("GS3"), leaf("Linea Mini")]),
      ]),
    Node(
      "Grinders", image: "swift-mini",
      children: [leaf("Swift"), leaf("Vulcano"), leaf("Swift Mini"), leaf("Lux D")]),
    Node(
      "Other Equipments", image: "espresso-ep",
      children: [
        leaf("Espresso AV"), leaf("Espresso EP"), Node("Pour Over", image: "pourover"),
        leaf("Steam"),
      ]),
  ]

  /// The sample catalog, three columns: 28 nodes, the days of the week as menu labels.
  public static let sample = sample(layout: .threeColumn)

  /// The sample catalog with the given layout.
  public static func sample(layout: SplitLayout) -> Catalog {
    // The sample is valid by construction; a failure here is a programming error.
    do {
      return try Catalog(layout: layout, menuLabels: sampleMenuLabels, categories: sampleTree)
    } catch {
      preconditionFailure("the sample catalog is invalid: \(error)")
    }
  }

  private static func leaf(_ name: String) -> Node { Node(name, image: slug(name)) }
}
