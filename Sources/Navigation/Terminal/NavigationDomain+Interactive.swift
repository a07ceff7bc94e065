public import RewindTerminal

extension NavigationDomain: InteractiveDomain {
  /// A screen with the focus on the menu strip, its highlight on the selected label.
  public func makeScreen() -> NavigationScreen { NavigationScreen() }

  /// A session of the sample catalog for `rewind live`:
  /// - `--layout twoColumn|threeColumn`, or `two-column|three-column` as a scenario's
  ///   `layout` setting reads it (default `threeColumn`);
  /// - `--device iphone|ipad`: the device's idiom and menu viewport, held as it usually is
  ///   (an iPhone upright, an iPad in landscape); by default a window Rewind knows nothing
  ///   about (``DeviceProfile/generic``: a 375-point strip);
  /// - `--size-class compact|regular`: by default compact on an iPhone, regular elsewhere.
  public static func liveSession(_ options: LiveOptions) throws(LiveOptionError)
    -> LiveSession<NavigationDomain>
  {
    var layout = SplitLayout.threeColumn
    if let text = options.layout {
      // The same words as a scenario's `layout` setting.
      guard let parsed = ScenarioParser.layout(Substring(text)) else {
        throw LiveOptionError(
          option: "--layout", value: text,
          expected: "expected twoColumn or threeColumn (or two-column, three-column)")
      }
      layout = parsed
    }
    let profile: DeviceProfile
    let device: String
    switch options.device.map({ $0.lowercased() }) {
    case nil:
      profile = .generic
      device = "rewind live"
    case "iphone":
      profile = DeviceProfile(device: "iPhone")
      device = "iPhone (rewind live)"
    case "ipad":
      profile = DeviceProfile(device: "iPad")
      device = "iPad (rewind live)"
    case _?:
      throw LiveOptionError(
        option: "--device", value: options.device ?? "", expected: "expected iphone or ipad")
    }
    let sizeClass = try choice(
      options.sizeClass, option: "--size-class",
      default: profile.idiom == .phone ? SizeClass.compact : .regular)
    let settings = NavigationSettings(
      catalog: .sample(layout: layout), device: profile, sizeClass: sizeClass)
    return LiveSession(domain: NavigationDomain(settings), device: device)
  }

  private static func choice<Value: RawRepresentable & CaseIterable>(
    _ text: String?, option: String, default value: Value
  ) throws(LiveOptionError) -> Value where Value.RawValue == String {
    guard let text else { return value }
    if let parsed = Value.allCases.first(where: { $0.rawValue.lowercased() == text.lowercased() }) {
      return parsed
    }
    let names = Value.allCases.map(\.rawValue).joined(separator: " or ")
    throw LiveOptionError(option: option, value: text, expected: "expected \(names)")
  }
}
