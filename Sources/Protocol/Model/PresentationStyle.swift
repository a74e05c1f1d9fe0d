/// How a presented view controller covers its presenter (`UIModalPresentationStyle`,
/// LIFECYCLE.md §3a): the two styles the model knows.
public enum PresentationStyle: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The default: a sheet the presenter stays visible under. The presenter gets no
    /// appearance callbacks, and the user may swipe the sheet down.
    case pageSheet
    /// Covers the presenter, which disappears (after the presented one appeared) and
    /// reappears on dismissal. Cannot be swiped down.
    case fullScreen

    public var description: String { rawValue }
}
