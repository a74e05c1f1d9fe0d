/// A split view root, as `UISplitViewController` (iOS 14's column style), as it behaves on an
/// iPhone: collapsed. The window shows one navigation stack, rooted at the `.compact` column's
/// controller if there is one, else the `.primary` column's (each column's controller is
/// wrapped in a navigation controller unless it is one, as UIKit wraps it); `show(.secondary)`
/// and `showDetailViewController(_:sender:)` push the secondary column's controller onto it
/// (the root of a navigation controller set there).
///
/// Set the columns, then the split view as a window's `rootViewController` in
/// `scene(_:willConnectTo:options:)`; the host hears of the stack as of any root made in code
/// (docs/PORTING.md). There is no side-by-side layout: a wide window shows the collapsed stack
/// too. Like the other containers, its own callbacks are not called (overriding one fails to
/// compile).
@MainActor
open class SplitViewController: ContainerViewController {
    /// How many columns the split view has.
    public enum Style: Sendable {
        case unspecified, doubleColumn, tripleColumn
    }

    /// A column of the split view.
    public enum Column: Sendable, Hashable {
        case primary, supplementary, secondary, compact
    }

    /// How the columns show when expanded: kept for the app (the split view is collapsed).
    public enum DisplayMode: Sendable {
        case automatic, secondaryOnly, oneBesideSecondary, oneOverSecondary, twoBesideSecondary, twoOverSecondary,
            twoDisplaceSecondary
    }

    /// The split view's style, as created.
    public let style: Style
    /// The display mode the app prefers when expanded (never, here).
    public var preferredDisplayMode = DisplayMode.automatic

    /// The columns' controllers not yet in the shown stack (held, as UIKit holds them).
    private var columns: [Column: UIViewController] = [:]
    /// The columns' controllers handed to the shown stack: it holds them now, so that a popped
    /// one (or, at the end, every one) goes, its `deinit` as the model expects.
    private var handedOver: [Column: WeakController] = [:]
    /// The stack the window shows: made when the split view becomes a window's root.
    private(set) var collapsedStack: NavigationController?

    /// A split view of `style`.
    public init(style: Style) {
        self.style = style
        super.init()
    }

    /// Not made from a storyboard under scenehost: always nil.
    public required init?(coder: NSCoder) {
        return nil
    }

    /// Always true: the split view behaves as on an iPhone.
    public var isCollapsed: Bool { true }

    /// Sets `column`'s controller. Only before the split view is shown: a shown one keeps its
    /// columns (the change is ignored and logged).
    public func setViewController(_ viewController: UIViewController?, for column: Column) {
        guard collapsedStack?.window == nil else {
            writeError(
                "scenehost worker: setViewController(_:for:) ignored: the split view is shown (set its columns before)"
            )
            return
        }
        columns[column] = viewController
        handedOver[column] = nil
        collapsedStack = nil
    }

    /// `column`'s controller, as set.
    public func viewController(for column: Column) -> UIViewController? {
        columns[column] ?? handedOver[column]?.controller
    }

    /// Shows `column`: the secondary (or supplementary) column's controller is pushed onto the
    /// collapsed stack; the primary is shown by popping the one controller above it (a deeper
    /// stack is left as it is, logged).
    public func show(_ column: Column) {
        guard let stack = collapsedStack, stack.window != nil else {
            writeError("scenehost worker: show(_:) ignored: the split view is not shown")
            return
        }
        switch column {
        case .primary, .compact:
            if stack.viewControllers.count == 2 {
                stack.popViewController(animated: true)
            } else if stack.viewControllers.count > 2 {
                writeError("scenehost worker: show(.primary) ignored: pop back to it one controller at a time")
            }
        case .secondary, .supplementary:
            guard let controller = columns[column] else {
                // Shown once and popped: it went, as a popped controller does. Set it again.
                if handedOver[column]?.controller == nil, handedOver[column] != nil {
                    writeError("scenehost worker: show(_:) ignored: the column's controller was popped (set it again)")
                }
                return
            }
            let shown = (controller as? NavigationController)?.viewControllers.first ?? controller
            guard !stack.viewControllers.contains(where: { $0 === shown }) else { return }
            stack.pushViewController(shown, animated: true)
            // Handed over only once the stack took it (a refused push leaves the column as it was).
            let queued = stack.changeHandler?.deferredChanges.contains {
                if case .push(let pushed) = $0 { pushed === shown } else { false }
            }
            if stack.viewControllers.contains(where: { $0 === shown }) || queued == true { handOver(column) }
        }
    }

    /// Hides `column`: as `show(.primary)` for the secondary column; nothing for the others.
    public func hide(_ column: Column) {
        if column == .secondary || column == .supplementary { show(.primary) }
    }

    /// The columns' controllers, primary first, as UIKit's classic `viewControllers`.
    public var viewControllers: [UIViewController] {
        [Column.primary, .supplementary, .secondary].compactMap { viewController(for: $0) }
    }

    /// The stack the window shows, made from the `.compact` or `.primary` column; nil when
    /// neither is set.
    func makeCollapsedStack() -> NavigationController? {
        if let collapsedStack { return collapsedStack }
        guard let root = columns[.compact] ?? columns[.primary] else { return nil }
        let stack = root as? NavigationController ?? NavigationController(rootViewController: root)
        collapsedStack = stack
        handOver(columns[.compact] == nil ? .primary : .compact)
        return stack
    }

    /// The shown stack holds `column`'s controller from now on.
    private func handOver(_ column: Column) {
        guard let controller = columns.removeValue(forKey: column) else { return }
        handedOver[column] = WeakController(controller)
    }
}

/// A controller held weakly.
@MainActor
final class WeakController {
    weak var controller: UIViewController?

    init(_ controller: UIViewController) {
        self.controller = controller
    }
}
