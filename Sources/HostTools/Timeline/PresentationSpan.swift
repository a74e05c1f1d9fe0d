import HostProcess
import Protocol
import SceneModel

/// A controller presented over a scene's stack (docs/LIFECYCLE.md §3a), from the first
/// callback of its `present` to its `deinit` (or its worker's exit, or the trace's end).
public struct PresentationSpan: Sendable, Hashable {
    /// The presented controller.
    public var viewController: String
    /// `fullScreen` when the presenter disappeared during the present, else `pageSheet`.
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
/// callbacks with `op: "present"`; the presented controller's `deinit` ends it.
package struct PresentationTracker {
    package private(set) var finished: [PresentationSpan] = []
    private var open: PresentationSpan?

    package mutating func add(_ event: TraceEvent) {
        if event.kind == .process, event.processEvent == .exited {
            close(at: event.time)
            return
        }
        guard event.kind == .callback, let vc = event.viewController else { return }
        if event.op == LifecycleOperation.present.rawValue {
            if open == nil {
                open = PresentationSpan(
                    viewController: vc,
                    style: .pageSheet,
                    start: event.time,
                    end: event.time,
                    isOpen: true
                )
            } else if vc != open?.viewController, event.name == CallbackName.viewWillDisappear.rawValue {
                open?.style = .fullScreen
            }
        } else if event.name == CallbackName.deinit.rawValue, vc == open?.viewController {
            close(at: event.time)
        }
    }

    private mutating func close(at time: Double) {
        guard var span = open else { return }
        span.end = max(time, span.start)
        span.isOpen = false
        finished.append(span)
        open = nil
    }

    /// Every presentation, the one still open ending at `end`.
    package func finish(at end: Double) -> [PresentationSpan] {
        guard var span = open else { return finished }
        span.end = max(end, span.start)
        return finished + [span]
    }
}
