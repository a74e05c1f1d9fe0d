// The navigation atoms' steps (LIFECYCLE.md §3a, §3f): tab switches, pops to the root,
// presentations and dismissals, and the `op` that tells the atoms that start alike apart.

extension LifecycleAtom {
    /// The `op` the event that starts the atom carries in the trace: `present` for a
    /// presentation (its callbacks begin as a push's do), nil for every other atom.
    public var startingOp: String? {
        switch self {
        case .present: "present"
        case .selectTab: "selectTab"
        case .popToRoot: "popToRoot"
        case .popTo: "popTo"
        case .replaceStack: "replaceStack"
        default: nil
        }
    }

    /// The step that starts a tab switch to a tab whose stack is `selectedStack` (empty: not
    /// loaded yet, its root loads first).
    public static func selectTabFirstStep(selectedStack: [String]) -> ExpectedStep {
        guard let top = selectedStack.last else { return .callback(.loadView, .newController) }
        return .callback(.viewWillAppear, vc: top)
    }

    /// A tab switch from `old` (the top of the tab shown) to the selected tab (LIFECYCLE.md
    /// §3a): the new tab's root loads the first time, the new top's `viewWillAppear` and
    /// `viewIsAppearing` come before the old top's `viewWillDisappear` (unlike a push), its
    /// layout (when dirty) right after `viewIsAppearing` (the model's choice), then the old
    /// top's `viewDidDisappear` and the new top's `viewDidAppear`. The steps after the first
    /// event, which was `loadView` of the tab's root (not loaded yet) or `viewWillAppear`.
    static func selectTabSteps(from old: String, loading root: String, in context: Context) -> [ExpectedStep] {
        let loads = context.selectedStack.isEmpty
        let new = loads ? root : context.selectedStack.last ?? ""
        let dirty = loads || (context.selectedNeedsLayout.last ?? true)
        let newChildren = loads ? [] : (context.selectedChildren.last ?? [])
        let oldChildren = context.children(fromTop: 0)
        var steps: [ExpectedStep] = []
        if loads {
            steps += [.callback(.viewDidLoad, vc: new), .callback(.viewWillAppear, vc: new)]
        }
        steps += forwarded(.viewIsAppearing, new, to: newChildren)
        if dirty {
            steps += [
                .callback(.viewWillLayoutSubviews, vc: new), .callback(.viewDidLayoutSubviews, vc: new),
                .mark(.laidOut(fromTop: 0)),
            ]
        }
        return steps + forwarded(.viewWillDisappear, old, to: oldChildren)
            + forwarded(.viewDidDisappear, old, to: oldChildren) + forwarded(.viewDidAppear, new, to: newChildren)
    }

    /// The stack [… Target, …middle…, Top] pops to the controller at `target` (0: the root,
    /// real-ios-orders-3 c22; above it, `popToViewController`, the same mechanism), after
    /// Top's `viewWillDisappear`: Target appears (layout when dirty), the middle controllers
    /// are released with no appearance callbacks (top-most first, the model's choice), Top
    /// disappears, Target `viewDidAppear`, Top is released. The checker reorders its stack first
    /// (`.poppingTo`) so that each `deinit` takes the controller it names off the end.
    static func popSteps(to target: Int, in context: Context) -> [ExpectedStep] {
        let stack = context.stack
        guard stack.indices.contains(target) else { return [] }
        let top = stack.last ?? ""
        let shown = stack[target]
        let topChildren = context.children(fromTop: 0)
        let shownFromTop = stack.count - 1 - target
        let middle = stack.indices.dropFirst(target + 1).dropLast().reversed().flatMap { index in
            forwarded(.deinit, stack[index], to: context.children(fromTop: stack.count - 1 - index))
        }
        return [.mark(.poppingTo(target))] + forwardedOnly(.viewWillDisappear, to: topChildren)
            + appearingSteps(shown, fromTop: shownFromTop, in: context) + middle
            + forwarded(.viewDidDisappear, top, to: topChildren)
            + forwarded(.viewDidAppear, shown, to: context.children(fromTop: shownFromTop))
            + forwarded(.deinit, top, to: topChildren)
    }

    /// The app replaced the stack [… Top] with the controllers at `context.keptControllers`,
    /// the new ones of `context.newControllers` and the last of them on top (LIFECYCLE.md §3b),
    /// after the `loadView` of the first new one (`loaded`): the new ones below the new top
    /// load, bottom first (the model's choice, as at connect: UIKit would load each when a pop
    /// reveals it), then a push's steps over Top, then (the model's choice: UIKit replaces the
    /// stack once the transition ends) the controllers left out are released, top-most first,
    /// each with its children.
    static func replaceSteps(startedBy loaded: String, in context: Context) -> [ExpectedStep] {
        let stack = context.stack
        let top = stack.last ?? ""
        let topChildren = context.children(fromTop: 0)
        let released = stack.indices.reversed().filter { !context.keptControllers.contains($0) }
        let new = context.newControllers.isEmpty ? [loaded] : context.newControllers
        let pushed = new[new.count - 1]
        let loads: [ExpectedStep] = new.indices.flatMap { index -> [ExpectedStep] in
            let name = new[index]
            let didLoad = ExpectedStep.callback(.viewDidLoad, vc: name)
            return index == 0 ? [didLoad] : [.callback(.loadView, vc: name), didLoad]
        }
        return loads + forwarded(.viewWillDisappear, top, to: topChildren)
            + [
                .callback(.viewWillAppear, vc: pushed),
                .callback(.viewIsAppearing, vc: pushed),
                .callback(.viewWillLayoutSubviews, vc: pushed),
                .callback(.viewDidLayoutSubviews, vc: pushed),
                .mark(.laidOut(fromTop: 0)),
            ] + forwarded(.viewDidDisappear, top, to: topChildren) + [
                .callback(.viewDidAppear, vc: pushed),
                .mark(.replacingStack(kept: context.keptControllers, added: new.count - 1)),
            ]
            + released.flatMap { index in
                forwarded(.deinit, stack[index], to: context.children(fromTop: stack.count - 1 - index))
            }
    }

    /// B (just loaded) is presented over A (LIFECYCLE.md §3a).
    static func presentSteps(_ presented: String, over top: String, children: [String]) -> [ExpectedStep] {
        let appears: [ExpectedStep] = [
            .callback(.viewWillAppear, vc: presented),
            .callback(.viewIsAppearing, vc: presented),
            .callback(.viewWillLayoutSubviews, vc: presented),
            .callback(.viewDidLayoutSubviews, vc: presented),
            .mark(.laidOut(fromTop: 0)),
            .callback(.viewDidAppear, vc: presented),
        ]
        // Full screen: A disappears, after B appeared (unlike a push).
        let fullScreen: [ExpectedStep] =
            [.callback(.viewWillDisappear, vc: top), .mark(.presented(.fullScreen))]
            + forwardedOnly(.viewWillDisappear, to: children) + appears
            + forwarded(.viewDidDisappear, top, to: children)
        // Page sheet, over full screen, alert: A stays in the hierarchy and hears nothing
        // (real-ios-orders-3 c21); the trace does not tell these styles apart.
        let sheet: [ExpectedStep] = [appears[0], .mark(.presented(.pageSheet))] + appears.dropFirst()
        return [.callback(.viewDidLoad, vc: presented), .oneOf([fullScreen, sheet])]
    }

    /// A controller that appears again (uncovered): `viewWillAppear`, `viewIsAppearing`, and its
    /// layout only when dirty.
    static func appearingSteps(_ controller: String, fromTop: Int, in context: Context) -> [ExpectedStep] {
        var steps: [ExpectedStep] =
            [.callback(.viewWillAppear, vc: controller)]
            + forwarded(.viewIsAppearing, controller, to: context.children(fromTop: fromTop))
        if context.needsLayout(fromTop: fromTop) {
            steps += [
                .callback(.viewWillLayoutSubviews, vc: controller),
                .callback(.viewDidLayoutSubviews, vc: controller),
                .mark(.laidOut(fromTop: fromTop)),
            ]
        }
        return steps
    }

    /// After the presented controller's `viewWillDisappear`.
    static func dismissSteps(in context: Context) -> [ExpectedStep] {
        let stack = context.stack
        let presented = stack.last ?? ""
        let presenter = stack.dropLast().last ?? ""
        let kids = context.children(fromTop: 0)
        // The presented controller's children follow its viewWillDisappear (the first step).
        let willDisappear = forwardedOnly(.viewWillDisappear, to: kids)
        let programmatic = forwarded(.viewDidDisappear, presented, to: kids) + forwarded(.deinit, presented, to: kids)
        if context.presentation == .overFullScreen || context.presentation == .alert {
            // The presenter stayed in the hierarchy: it hears nothing (c21); no swipe.
            return willDisappear + programmatic
        }
        guard context.presentation == .pageSheet else {
            // Full screen, programmatic: A reappears; B's did-disappear comes before A's
            // did-appear, as in a pop (the model's choice).
            let presenterChildren = context.children(fromTop: 1)
            return willDisappear + Self.appearingSteps(presenter, fromTop: 1, in: context)
                + forwarded(.viewDidDisappear, presented, to: kids)
                + forwarded(.viewDidAppear, presenter, to: presenterChildren) + forwarded(.deinit, presented, to: kids)
        }
        return willDisappear + [
            .oneOf([
                // Programmatic: no delegate callbacks.
                programmatic,
                // Swipe down, completed.
                [.callback(.presentationControllerWillDismiss, vc: presented)]
                    + forwarded(.viewDidDisappear, presented, to: kids)
                    + [.callback(.presentationControllerDidDismiss, vc: presented)]
                    + forwarded(.deinit, presented, to: kids),
                // Swipe down, cancelled: the sheet springs back.
                [.callback(.viewWillAppear, vc: presented)] + forwarded(.viewIsAppearing, presented, to: kids)
                    + forwarded(.viewDidAppear, presented, to: kids),
            ])
        ]
    }
}
