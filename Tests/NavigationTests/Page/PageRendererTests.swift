import Navigation
import RewindCore
import RewindPage
import Testing

@Suite("The navigation screens' renderer for rewind html")
struct PageRendererTests {
  private func screen(_ renderer: PageRenderer) -> JSONValue? { renderer.data["screen"] }

  @Test("the screen is the recording device's, in points, in either orientation")
  func screen() {
    let domain = NavigationDomain()
    let pad = screen(domain.pageRenderer(device: "iPad Pro 11-inch (M4), iPadOS 18.1"))
    #expect(pad?["name"] == "iPad Pro 11-inch" && pad?["idiom"] == "pad")
    #expect(pad?["landscape"] == [1210.0, 834.0] && pad?["portrait"] == [834.0, 1210.0])
    // A device Rewind does not know gets the idiom's usual one: the session's idiom.
    let unknown = screen(domain.pageRenderer(device: "rewind generate --seed 1"))
    #expect(unknown?["name"] == "iPad" && unknown?["landscape"] == [1180.0, 820.0])
    var settings = NavigationSettings(device: DeviceProfile(device: "iPhone 15 Pro Max"))
    settings.sizeClass = .compact
    let phone = screen(NavigationDomain(settings).pageRenderer(device: "a phone"))
    #expect(phone?["name"] == "iPhone" && phone?["idiom"] == "phone")
    #expect(phone?["portrait"] == [390.0, 844.0])
  }

  @Test(
    "the data names the catalog's nodes by id, with their names and images, and the seeds' texts")
  func data() {
    let renderer = NavigationDomain().pageRenderer(device: "iPad")
    let catalog = renderer.data["catalog"]
    #expect(catalog?["layout"] == "threeColumn")
    #expect(
      catalog?["menuLabels"] == JSONValue.array(Catalog.sample.menuLabels.map(JSONValue.string)))
    guard case .array(let categories)? = catalog?["categories"] else {
      Issue.record("no categories")
      return
    }
    #expect(categories.map { $0["id"] } == ["espresso-machines", "grinders", "other-equipments"])
    let leva = categories[0]["children"].flatMap { children -> JSONValue? in
      guard case .array(let items) = children else { return nil }
      return items.first
    }
    #expect(leva?["id"] == "espresso-machines/leva" && leva?["image"] == "leva-x")
    #expect(
      leva?["children"]
        == .array([
          .object([
            ("id", "espresso-machines/leva/leva-x"), ("name", "Leva X"), ("image", "leva-x"),
          ]),
          .object([
            ("id", "espresso-machines/leva/leva-s"), ("name", "Leva S"), ("image", "leva-s"),
          ]),
        ]))
    let texts = renderer.data["texts"]
    #expect(texts?["sidebarTitle"] == .string(NavigationState.sidebarTitle))
    #expect(texts?["selectItem"] == .string(NavigationState.selectItemPlaceholder))
    #expect(texts?["selectMenuItem"] == .string(NavigationState.selectMenuItemPlaceholder))
    #expect(texts?["selectCategory"] == .string(NavigationState.selectCategoryPlaceholder))
    #expect(renderer.script.contains("RewindPage.defineRenderer("))
    #expect(renderer.style.contains(".nav-menu"))
  }
}
