/// How a presented view controller covers its presenter (`UIModalPresentationStyle`,
/// LIFECYCLE.md §3a): the styles the model knows.
public enum PresentationStyle: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The default: a sheet the presenter stays visible under. The presenter gets no
    /// appearance callbacks, and the user may swipe the sheet down.
    case pageSheet
    /// Covers the presenter, which disappears (after the presented one appeared) and
    /// reappears on dismissal. Cannot be swiped down.
    case fullScreen
    /// Covers the presenter, which stays in the hierarchy and hears nothing, on presentation
    /// or dismissal (real-ios-orders-3 c21). Cannot be swiped down.
    case overFullScreen
    /// An alert (`UIAlertController`'s presentation): the presenter hears nothing and the
    /// alert cannot be swiped down.
    case alert

    public var description: String { rawValue }

    /// Whether the presenter disappears under the presented controller (and reappears on
    /// dismissal): only a full-screen presentation removes its views.
    public var hidesPresenter: Bool { self == .fullScreen }
}

/// A window's interface style (`UIUserInterfaceStyle`): scenes are light unless connected dark.
public enum InterfaceStyle: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case light
    case dark

    public var description: String { rawValue }
}
