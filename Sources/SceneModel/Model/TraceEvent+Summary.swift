import Protocol

extension TraceEvent {
    /// The event as a violation message names it: `callback viewDidAppear (vc Root)`,
    /// `state background -> foregroundInactive`, `process exited (reason killed)`.
    package var violationSummary: String {
        switch kind {
        case .callback:
            let name = self.name?.inMessage ?? "(no name)"
            let named = viewController.map { "callback \(name) (vc \($0.inMessage))" } ?? "callback \(name)"
            return origin.map { "\(named) with origin \($0.inMessage)" } ?? named
        case .state:
            return "state \(from?.rawValue ?? "(none)") -> \(to?.rawValue ?? "(none)")"
        case .process:
            let event = processEvent?.rawValue ?? "(no event)"
            return reason.map { "process \(event) (reason \($0))" } ?? "process \(event)"
        case .host:
            return "host \(name?.inMessage ?? "(no name)")"
        case .error:
            return "error \(op?.inMessage ?? "(no op)")"
        }
    }
}

extension String {
    /// A name from a trace as a one-line message shows it: as it is, or quoted, escaped and
    /// cut short (`quoted`) when it holds a control character, which would break the line
    /// (and could reach the terminal as an escape sequence: `hostctl verify` prints the
    /// message), or is longer than any name the host accepts (256 bytes).
    package var inMessage: String {
        utf8.count > 256 || utf8.contains { $0 < 0x20 } ? quoted(self) : self
    }
}
