import Protocol

extension TraceEvent {
    /// The event as a violation message names it: `callback viewDidAppear (vc Root)`,
    /// `state background -> foregroundInactive`, `process exited (reason killed)`.
    var violationSummary: String {
        switch kind {
        case .callback:
            let name = self.name ?? "(no name)"
            return viewController.map { "callback \(name) (vc \($0))" } ?? "callback \(name)"
        case .state:
            return "state \(from?.rawValue ?? "(none)") -> \(to?.rawValue ?? "(none)")"
        case .process:
            let event = processEvent?.rawValue ?? "(no event)"
            return reason.map { "process \(event) (reason \($0))" } ?? "process \(event)"
        case .host:
            return "host \(name ?? "(no name)")"
        case .error:
            return "error \(op ?? "(no op)")"
        }
    }
}
