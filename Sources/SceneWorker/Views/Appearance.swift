// What a view looks like, kept as state: nothing is drawn under scenehost, but the code that
// sets colors, fonts and corner radii in `viewDidLoad` runs as written, and reads back what
// it set.

/// A color, as `UIColor`: components in 0...1, or a system color's name (whose components are
/// its light appearance's).
public struct UIColor: Hashable, Sendable {
    /// The red, green, blue and alpha components, each in 0...1.
    public let red: Double, green: Double, blue: Double, alpha: Double
    /// The system or asset color's name (`"systemBackground"`), nil for one made of components.
    public let name: String?

    /// A color of components, each clamped to 0...1.
    public init(red: Double, green: Double, blue: Double, alpha: Double) {
        (self.red, self.green, self.blue) = (Self.clamp(red), Self.clamp(green), Self.clamp(blue))
        self.alpha = Self.clamp(alpha)
        name = nil
    }

    /// A gray of `white` (0 black, 1 white).
    public init(white: Double, alpha: Double) {
        self.init(red: white, green: white, blue: white, alpha: alpha)
    }

    /// A color of the app's asset catalog. There is no catalog to read, so every name is
    /// taken to be one the app's catalog has (on a device it would be): the color keeps the
    /// name, with black components. It is never nil, so `UIColor(named:)!` runs as it does on
    /// a device, and a `??` fallback is not taken.
    public init?(named name: String) {
        self.init(name: name, red: 0, green: 0, blue: 0)
    }

    private init(name: String, red: Double, green: Double, blue: Double, alpha: Double = 1) {
        (self.red, self.green, self.blue, self.alpha) = (red, green, blue, alpha)
        self.name = name
    }

    private static func clamp(_ value: Double) -> Double { min(max(value, 0), 1) }

    /// The same color with `alpha`.
    public func withAlphaComponent(_ alpha: Double) -> UIColor {
        UIColor(red: red, green: green, blue: blue, alpha: alpha)
    }

    /// The color itself, where UIKit hands Core Graphics its `CGColor`.
    public var cgColor: UIColor { self }

    public static let clear = UIColor(name: "clear", red: 0, green: 0, blue: 0, alpha: 0)
    public static let black = UIColor(name: "black", red: 0, green: 0, blue: 0)
    public static let white = UIColor(name: "white", red: 1, green: 1, blue: 1)
    public static let gray = UIColor(name: "gray", red: 0.5, green: 0.5, blue: 0.5)
    public static let lightGray = UIColor(name: "lightGray", red: 2 / 3, green: 2 / 3, blue: 2 / 3)
    public static let darkGray = UIColor(name: "darkGray", red: 1 / 3, green: 1 / 3, blue: 1 / 3)
    public static let red = UIColor(name: "red", red: 1, green: 0, blue: 0)
    public static let green = UIColor(name: "green", red: 0, green: 1, blue: 0)
    public static let blue = UIColor(name: "blue", red: 0, green: 0, blue: 1)
    public static let yellow = UIColor(name: "yellow", red: 1, green: 1, blue: 0)
    public static let orange = UIColor(name: "orange", red: 1, green: 0.5, blue: 0)
    public static let purple = UIColor(name: "purple", red: 0.5, green: 0, blue: 0.5)
    public static let brown = UIColor(name: "brown", red: 0.6, green: 0.4, blue: 0.2)
    public static let cyan = UIColor(name: "cyan", red: 0, green: 1, blue: 1)
    public static let magenta = UIColor(name: "magenta", red: 1, green: 0, blue: 1)

    public static let systemBackground = UIColor(name: "systemBackground", red: 1, green: 1, blue: 1)
    public static let secondarySystemBackground = UIColor(
        name: "secondarySystemBackground",
        red: 0.949,
        green: 0.949,
        blue: 0.969
    )
    public static let tertiarySystemBackground = UIColor(name: "tertiarySystemBackground", red: 1, green: 1, blue: 1)
    public static let systemGroupedBackground = UIColor(
        name: "systemGroupedBackground",
        red: 0.949,
        green: 0.949,
        blue: 0.969
    )
    public static let secondarySystemGroupedBackground = UIColor(
        name: "secondarySystemGroupedBackground",
        red: 1,
        green: 1,
        blue: 1
    )
    public static let label = UIColor(name: "label", red: 0, green: 0, blue: 0)
    public static let secondaryLabel = UIColor(
        name: "secondaryLabel",
        red: 0.235,
        green: 0.235,
        blue: 0.263,
        alpha: 0.6
    )
    public static let tertiaryLabel = UIColor(name: "tertiaryLabel", red: 0.235, green: 0.235, blue: 0.263, alpha: 0.3)
    public static let placeholderText = UIColor(
        name: "placeholderText",
        red: 0.235,
        green: 0.235,
        blue: 0.263,
        alpha: 0.3
    )
    public static let separator = UIColor(name: "separator", red: 0.235, green: 0.235, blue: 0.263, alpha: 0.29)
    public static let link = UIColor(name: "link", red: 0, green: 0.478, blue: 1)
    // swift-format-ignore: DontRepeatTypeInStaticProperties
    public static let tintColor = UIColor(name: "tintColor", red: 0, green: 0.478, blue: 1)
    public static let systemBlue = UIColor(name: "systemBlue", red: 0, green: 0.478, blue: 1)
    public static let systemRed = UIColor(name: "systemRed", red: 1, green: 0.231, blue: 0.188)
    public static let systemGreen = UIColor(name: "systemGreen", red: 0.204, green: 0.78, blue: 0.349)
    public static let systemOrange = UIColor(name: "systemOrange", red: 1, green: 0.584, blue: 0)
    public static let systemYellow = UIColor(name: "systemYellow", red: 1, green: 0.8, blue: 0)
    public static let systemPink = UIColor(name: "systemPink", red: 1, green: 0.176, blue: 0.333)
    public static let systemPurple = UIColor(name: "systemPurple", red: 0.686, green: 0.322, blue: 0.871)
    public static let systemTeal = UIColor(name: "systemTeal", red: 0.188, green: 0.69, blue: 0.78)
    public static let systemIndigo = UIColor(name: "systemIndigo", red: 0.345, green: 0.337, blue: 0.839)
    public static let systemGray = UIColor(name: "systemGray", red: 0.557, green: 0.557, blue: 0.576)
    public static let systemGray2 = UIColor(name: "systemGray2", red: 0.682, green: 0.682, blue: 0.698)
    public static let systemGray3 = UIColor(name: "systemGray3", red: 0.78, green: 0.78, blue: 0.8)
    public static let systemGray4 = UIColor(name: "systemGray4", red: 0.82, green: 0.82, blue: 0.839)
    public static let systemGray5 = UIColor(name: "systemGray5", red: 0.898, green: 0.898, blue: 0.918)
    public static let systemGray6 = UIColor(name: "systemGray6", red: 0.949, green: 0.949, blue: 0.969)
}

/// A font, as `UIFont`: a size and a weight, or a text style's.
public struct UIFont: Hashable, Sendable {
    /// The weights of the system font, as `UIFont.Weight`.
    public struct Weight: Hashable, Sendable, RawRepresentable {
        public var rawValue: Double
        public init(rawValue: Double) { self.rawValue = rawValue }
        public static let ultraLight = Weight(rawValue: -0.8)
        public static let thin = Weight(rawValue: -0.6)
        public static let light = Weight(rawValue: -0.4)
        public static let regular = Weight(rawValue: 0)
        public static let medium = Weight(rawValue: 0.23)
        public static let semibold = Weight(rawValue: 0.3)
        public static let bold = Weight(rawValue: 0.4)
        public static let heavy = Weight(rawValue: 0.56)
        public static let black = Weight(rawValue: 0.62)
    }

    /// The Dynamic Type styles, as `UIFont.TextStyle`, each with its default size.
    public struct TextStyle: Hashable, Sendable, RawRepresentable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let largeTitle = TextStyle(rawValue: "UICTFontTextStyleTitle0")
        public static let title1 = TextStyle(rawValue: "UICTFontTextStyleTitle1")
        public static let title2 = TextStyle(rawValue: "UICTFontTextStyleTitle2")
        public static let title3 = TextStyle(rawValue: "UICTFontTextStyleTitle3")
        public static let headline = TextStyle(rawValue: "UICTFontTextStyleHeadline")
        public static let subheadline = TextStyle(rawValue: "UICTFontTextStyleSubhead")
        public static let body = TextStyle(rawValue: "UICTFontTextStyleBody")
        public static let callout = TextStyle(rawValue: "UICTFontTextStyleCallout")
        public static let footnote = TextStyle(rawValue: "UICTFontTextStyleFootnote")
        public static let caption1 = TextStyle(rawValue: "UICTFontTextStyleCaption1")
        public static let caption2 = TextStyle(rawValue: "UICTFontTextStyleCaption2")

        /// The style's size at the default Dynamic Type setting (Large).
        var defaultSize: Double {
            switch self {
            case .largeTitle: 34
            case .title1: 28
            case .title2: 22
            case .title3: 20
            case .headline, .body: 17
            case .callout: 16
            case .subheadline: 15
            case .footnote: 13
            case .caption1: 12
            case .caption2: 11
            default: 17
            }
        }
    }

    /// The font's size in points.
    public let pointSize: Double
    /// The font's weight.
    public let weight: Weight
    /// The text style it was made for, if any.
    public let textStyle: TextStyle?

    /// The system font of `size` and `weight`.
    public static func systemFont(ofSize size: Double, weight: Weight = .regular) -> UIFont {
        UIFont(pointSize: size, weight: weight, textStyle: nil)
    }

    /// The bold system font of `size`.
    public static func boldSystemFont(ofSize size: Double) -> UIFont { systemFont(ofSize: size, weight: .bold) }

    /// The font of a Dynamic Type style, at the default size (Large).
    public static func preferredFont(forTextStyle style: TextStyle) -> UIFont {
        UIFont(pointSize: style.defaultSize, weight: style == .headline ? .semibold : .regular, textStyle: style)
    }

    /// The same font at `size`.
    public func withSize(_ size: Double) -> UIFont { UIFont(pointSize: size, weight: weight, textStyle: textStyle) }
}

/// How a label's text is aligned, as `NSTextAlignment`.
public enum NSTextAlignment: Int, Hashable, Sendable {
    case left, center, right, justified, natural
}

/// A view's layer, as `CALayer`: the corner, border and shadow settings code makes, kept.
@MainActor
public final class CALayer {
    public var cornerRadius: Double = 0
    public var masksToBounds = false
    public var borderWidth: Double = 0
    public var borderColor: UIColor?
    public var shadowColor: UIColor?
    public var shadowOpacity: Float = 0
    public var shadowRadius: Double = 3
    public var opacity: Float = 1

    init() {}
}
