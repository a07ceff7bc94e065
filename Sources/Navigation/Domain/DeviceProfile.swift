/// What Rewind knows of a recording device: whether it is an iPhone or an iPad, and how
/// wide its screen is in points in each orientation. The menu strip spans the screen, so
/// a session's menu viewport starts at the width of the orientation it starts in.
///
/// A session's device is a line of text in its journal's header (`iPad Pro 11-inch (M4),
/// iPadOS 18.1`); ``init(device:)`` finds the profile it starts with. A device this table
/// lacks gets ``generic``.
public struct DeviceProfile: Equatable, Hashable, Sendable {
  /// The device's name as it starts a header's device text, e.g. `iPad mini`.
  public var name: String
  /// iPhone or iPad.
  public var idiom: DeviceIdiom
  /// The screen's width in portrait, in points.
  public var portraitWidth: Double
  /// The screen's width in landscape, in points.
  public var landscapeWidth: Double

  public init(_ name: String, idiom: DeviceIdiom, portraitWidth: Double, landscapeWidth: Double) {
    self.name = name
    self.idiom = idiom
    self.portraitWidth = portraitWidth
    self.landscapeWidth = landscapeWidth
  }

  /// The orientation a session on this device starts in when nothing says otherwise: an
  /// iPhone is held upright, an iPad lies in landscape.
  public var naturalOrientation: Orientation { idiom == .phone ? .portrait : .landscape }

  /// The size class a session on this device starts in when nothing says otherwise: an
  /// iPhone's width is compact, an iPad's regular.
  public var naturalSizeClass: SizeClass { idiom == .phone ? .compact : .regular }

  /// The screen's width in `orientation`, in points.
  public func width(in orientation: Orientation) -> Double {
    orientation == .portrait ? portraitWidth : landscapeWidth
  }

  /// A device Rewind does not know (a generated or imported session, a hand-written
  /// script without a device): an iPad-like window whose menu strip is 375 points wide in
  /// either orientation, the strip `rewind generate`'s user has always scrolled.
  public static let generic = DeviceProfile(
    "generic", idiom: .pad, portraitWidth: 375, landscapeWidth: 375)

  /// The devices Rewind knows, with their screens' widths in points (Apple's published
  /// sizes). The iPhones marked large have a regular width in landscape.
  public static let known: [DeviceProfile] = [
    DeviceProfile("iPhone SE", idiom: .phone, portraitWidth: 375, landscapeWidth: 667),
    DeviceProfile("iPhone 15 Pro Max", idiom: .phone, portraitWidth: 430, landscapeWidth: 932),
    DeviceProfile("iPhone 15 Plus", idiom: .phone, portraitWidth: 430, landscapeWidth: 932),
    DeviceProfile("iPhone 15 Pro", idiom: .phone, portraitWidth: 393, landscapeWidth: 852),
    DeviceProfile("iPhone 15", idiom: .phone, portraitWidth: 393, landscapeWidth: 852),
    DeviceProfile("iPhone 16 Pro Max", idiom: .phone, portraitWidth: 440, landscapeWidth: 956),
    DeviceProfile("iPhone 16 Plus", idiom: .phone, portraitWidth: 430, landscapeWidth: 932),
    DeviceProfile("iPhone 16 Pro", idiom: .phone, portraitWidth: 402, landscapeWidth: 874),
    DeviceProfile("iPhone 16", idiom: .phone, portraitWidth: 393, landscapeWidth: 852),
    DeviceProfile("iPhone", idiom: .phone, portraitWidth: 390, landscapeWidth: 844),
    DeviceProfile("iPad mini", idiom: .pad, portraitWidth: 744, landscapeWidth: 1133),
    DeviceProfile("iPad Air 11-inch", idiom: .pad, portraitWidth: 820, landscapeWidth: 1180),
    DeviceProfile("iPad Air 13-inch", idiom: .pad, portraitWidth: 1024, landscapeWidth: 1366),
    DeviceProfile("iPad Pro 11-inch", idiom: .pad, portraitWidth: 834, landscapeWidth: 1210),
    DeviceProfile("iPad Pro 13-inch", idiom: .pad, portraitWidth: 1032, landscapeWidth: 1376),
    DeviceProfile("iPad", idiom: .pad, portraitWidth: 820, landscapeWidth: 1180),
  ]

  /// The profile of the device a header's text names: the known device with the longest
  /// name that starts the text (`iPhone 15 Pro, iOS 18.1` is an iPhone 15 Pro), or
  /// ``generic``.
  public init(device: String) {
    var best = DeviceProfile.generic
    var bestLength = 0
    for profile in DeviceProfile.known
    where profile.name.count > bestLength && device.hasPrefix(profile.name) {
      let rest = device.dropFirst(profile.name.count)
      // A whole word: "iPhone 15" does not name an "iPhone 150".
      guard rest.first.map({ !$0.isLetter && !$0.isNumber }) ?? true else { continue }
      best = profile
      bestLength = profile.name.count
    }
    self = best
  }
}

/// The kind of device a session ran on: it decides whether the split view follows the
/// orientation (see ``SplitState/visibleColumns``).
public enum DeviceIdiom: String, CaseIterable, Codable, Sendable {
  /// An iPhone: its split view follows the size class alone, compact in portrait and,
  /// on the large models, regular in landscape.
  case phone
  /// An iPad (or a window Rewind knows nothing about): in portrait with the `automatic`
  /// style, the leading columns lie over the detail.
  case pad
}

/// Which way up the device is held.
public enum Orientation: String, CaseIterable, Codable, Sendable {
  /// Wider than tall.
  case landscape
  /// Taller than wide.
  case portrait
}
