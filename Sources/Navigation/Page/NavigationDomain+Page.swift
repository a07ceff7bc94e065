import RewindCore
public import RewindPage

// The navigation domain's screens in a session's page (`rewind html`): drawn by
// `Resources/navigation-screen.js` with `navigation-screen.css`, from the state's JSON and
// the data below.

extension NavigationDomain: PageRenderingDomain {
  /// The renderer of the seeds' screens: the black menu strip scrolled as recorded, the
  /// split view's visible columns (or the compact stack with its back button), in a frame
  /// of the device's proportions.
  ///
  /// Its data: the screen (`name`, `idiom`, and the `portrait` and `landscape` sizes in
  /// points, from the device's ``DeviceProfile``, or the idiom's usual device for one
  /// Rewind does not know), the placeholder texts, and the catalog as a tree of nodes with
  /// their ids, names and image names (`layout`, `menuLabels`, `menuLabelWidths`,
  /// `categories`).
  public func pageRenderer(device: String) -> PageRenderer {
    PageRenderer(
      script: EmbeddedResources.navigationScreenJS, style: EmbeddedResources.navigationScreenCSS,
      data: pageData(device: device))
  }

  /// The renderer's data for a session on `device`.
  func pageData(device: String) -> JSONValue {
    var profile = DeviceProfile(device: device)
    if profile == .generic {
      let usual = settings.idiom == .phone ? "iPhone" : "iPad"
      profile = DeviceProfile.known.first { $0.name == usual } ?? profile
    }
    let screen: JSONValue = .object([
      ("name", .string(profile.name)), ("idiom", .string(settings.idiom.rawValue)),
      ("portrait", .array([.double(profile.portraitWidth), .double(profile.landscapeWidth)])),
      ("landscape", .array([.double(profile.landscapeWidth), .double(profile.portraitWidth)])),
    ])
    let texts: JSONValue = .object([
      ("sidebarTitle", .string(NavigationState.sidebarTitle)),
      ("selectCategory", .string(NavigationState.selectCategoryPlaceholder)),
      ("selectMenuItem", .string(NavigationState.selectMenuItemPlaceholder)),
      ("selectItem", .string(NavigationState.selectItemPlaceholder)),
      ("noItems", .string(NavigationState.noItemsPlaceholder)),
    ])
    func node(_ ref: NodeRef) -> JSONValue {
      var members: [(String, JSONValue)] = [
        ("id", .string(catalog.id(of: ref))), ("name", .string(catalog.name(of: ref))),
        ("image", .string(catalog.image(of: ref))),
      ]
      let children = catalog.children(of: ref)
      if !children.isEmpty { members.append(("children", .array(children.map(node)))) }
      return .object(members)
    }
    let catalogJSON: JSONValue = .object([
      ("layout", .string(catalog.layout.rawValue)),
      ("menuLabels", .array(catalog.menuLabels.map(JSONValue.string))),
      ("menuLabelWidths", .array(catalog.menuLabelWidths.map(JSONValue.double))),
      ("categories", .array(catalog.categories.map(node))),
    ])
    return .object([("screen", screen), ("texts", texts), ("catalog", catalogJSON)])
  }
}
