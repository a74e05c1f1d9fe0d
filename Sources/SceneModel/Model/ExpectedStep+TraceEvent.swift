import Protocol

extension ExpectedStep {
    /// Whether `event` is this step; only for `.callback` and `.state` (the others are
    /// resolved by `AtomProgress`).
    package func matches(_ event: TraceEvent, stack: [String]) -> Bool {
        switch self {
        case .callback(let name, let pattern):
            guard event.kind == .callback, event.name == name.rawValue else { return false }
            switch pattern {
            case .noController: return event.viewController == nil
            case .named(let vc): return event.viewController == vc
            case .newController: return event.viewController != nil
            case .top: return event.viewController != nil && event.viewController == stack.last
            }
        case .state(let from, let to):
            return event.kind == .state && event.from == from && event.to == to
        case .oneOf, .moreLayoutPasses, .mark:
            return false
        }
    }

    /// Every event that could come next given `pending`, readable; `afterwards` names what
    /// may follow when every pending step is optional (nil: nothing may).
    package static func describeNext(
        _ pending: some Collection<ExpectedStep>,
        stack: [String],
        afterwards: String?
    ) -> String {
        var options: [String] = []
        for step in pending {
            switch step {
            case .callback, .state:
                options.append(step.summary(stack: stack))
            case .oneOf(let alternatives):
                options += alternatives.compactMap { $0.first?.summary(stack: stack) }
            case .moreLayoutPasses(let vc):
                options.append(ExpectedStep.callback(.viewWillLayoutSubviews, vc: vc).summary(stack: stack))
            case .mark:
                break
            }
            if !step.isOptional { return options.joined(separator: " or ") }
        }
        if let afterwards { options.append(afterwards) }
        return options.joined(separator: " or ")
    }

    /// One step, readable the way `TraceEvent.violationSummary` writes events.
    package func summary(stack: [String]) -> String {
        switch self {
        case .callback(let name, let pattern):
            switch pattern {
            case .noController: return "callback \(name)"
            case .named(let vc): return "callback \(name) (vc \(vc.inMessage))"
            case .newController: return "callback \(name) (vc: a new controller)"
            case .top: return "callback \(name) (vc \(stack.last?.inMessage ?? "top"))"
            }
        case .state(let from, let to):
            return "state \(from) -> \(to)"
        case .oneOf, .moreLayoutPasses, .mark:
            return ExpectedStep.describeNext([self], stack: stack, afterwards: nil)
        }
    }
}
