import HostProcess
import Protocol
import SceneModel

/// A controller presented over a scene's stack (docs/LIFECYCLE.md §3a), from the first
/// callback of its `present` to its `deinit` (or its worker's exit, or the trace's end).
public struct PresentationSpan: Sendable, Hashable {
    /// The presented controller.
    public var viewController: String
    /// What the presented controller's `loadView` recorded; else `fullScreen` when the
    /// presenter disappeared during the present, `pageSheet` otherwise.
    public var style: PresentationStyle
    /// Seconds since the host started.
    public var start: Double
    /// When it went, or the trace's end.
    public var end: Double
    /// True when the trace ends with it still presented.
    public var isOpen: Bool

    public init(viewController: String, style: PresentationStyle, start: Double, end: Double, isOpen: Bool) {
        self.viewController = viewController
        self.style = style
        self.start = start
        self.end = end
        self.isOpen = isOpen
    }

    /// `Compose (pageSheet)`.
    public var label: String { "\(viewController) (\(style))" }
}

/// Follows one scene's presentations through its callbacks: the host records a present's
/// callbacks with `op: "present"`; the presented controller's `deinit` ends it. A controller
/// presented over a presented one (real-ios-orders-3 c23) is a span of its own, over it.
package struct PresentationTracker {
    package private(set) var finished: [PresentationSpan] = []
    /// The presentations open now, the frontmost last; whether each one's style is known
    /// (its `loadView` said it) or guessed.
    private var open: [(span: PresentationSpan, styleKnown: Bool)] = []

    package init() {}

    package mutating func add(_ event: TraceEvent) {
        if event.kind == .process, event.processEvent == .exited {
            close(from: 0, at: event.time)
            return
        }
        guard event.kind == .callback, let vc = event.viewController else { return }
        if event.op == LifecycleOperation.present.rawValue {
            let index = open.lastIndex { $0.span.viewController == vc }
            if isPresentersCallback(event), index == nil || index != open.indices.last {
                // The presenter disappears behind the controller being presented: full
                // screen, unless that controller's `loadView` said its style.
                if let top = open.indices.last, !open[top].styleKnown { open[top].span.style = .fullScreen }
                return
            }
            if let index {
                // A later callback of a presentation already open: its style, once said.
                if let style = Self.style(event) {
                    open[index].span.style = style
                    open[index].styleKnown = true
                }
                return
            }
            let said = Self.style(event)
            let span = PresentationSpan(
                viewController: vc,
                style: said ?? .pageSheet,
                start: event.time,
                end: event.time,
                isOpen: true
            )
            open.append((span, said != nil))
        } else if event.name == CallbackName.deinit.rawValue,
            let index = open.lastIndex(where: { $0.span.viewController == vc })
        {
            close(from: index, at: event.time, only: true)
        }
    }

    /// Whether `event`, a callback of a present, is the presenter's (it disappears behind a
    /// full-screen presentation) rather than the presented controller's.
    private func isPresentersCallback(_ event: TraceEvent) -> Bool {
        event.name == CallbackName.viewWillDisappear.rawValue || event.name == CallbackName.viewDidDisappear.rawValue
    }

    /// The style the presented controller's `loadView` records as its value.
    private static func style(_ event: TraceEvent) -> PresentationStyle? {
        guard event.name == CallbackName.loadView.rawValue, case .string(let name)? = event.value else { return nil }
        return PresentationStyle(rawValue: name)
    }

    /// Ends the presentation at `index` (`only`), or every one from it up.
    private mutating func close(from index: Int, at time: Double, only: Bool = false) {
        let range = only ? index..<(index + 1) : index..<open.count
        guard !range.isEmpty, range.upperBound <= open.count else { return }
        for entry in open[range] {
            var span = entry.span
            span.end = max(time, span.start)
            span.isOpen = false
            finished.append(span)
        }
        open.removeSubrange(range)
    }

    /// Every presentation, the ones still open ending at `end`.
    package func finish(at end: Double) -> [PresentationSpan] {
        finished
            + open.map { entry in
                var span = entry.span
                span.end = max(end, span.start)
                return span
            }
    }
}
