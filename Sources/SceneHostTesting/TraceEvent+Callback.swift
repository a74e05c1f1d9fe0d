import HostProcess

extension TraceEvent {
    /// A callback in the compact form tests compare: `Root.viewDidLoad` for a view
    /// controller's callback (controller, dot, callback), `sceneDidBecomeActive` for any
    /// other; nil for events that are not callbacks (state, process, host, error).
    public var callback: String? {
        guard kind == .callback, let name else { return nil }
        guard let viewController else { return name }
        return viewController + "." + name
    }
}

extension Sequence<TraceEvent> {
    /// The callbacks of `scene`, in trace order, in `TraceEvent.callback`'s compact form.
    public func callbacks(of scene: String) -> [String] {
        compactMap { $0.scene == scene ? $0.callback : nil }
    }
}
