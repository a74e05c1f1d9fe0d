/// View-controller containment in the callback grammar (LIFECYCLE.md §3a): adding and
/// removing a child of the frontmost controller, and the forwarding of a parent's
/// appearance, memory warnings, size changes and release to its children.
extension LifecycleAtom {
    /// `name` for `controller`, then forwarded to each of its `children` in the order they were
    /// added: the parent first. A child's `viewWillAppear` and `viewIsAppearing` both follow the
    /// parent's `viewIsAppearing` (the model's choice: the parent's appearance begins as a whole).
    static func forwarded(_ name: CallbackName, _ controller: String, to children: [String]) -> [ExpectedStep] {
        [.callback(name, vc: controller)] + forwardedOnly(name, to: children)
    }

    /// What `forwarded` adds after the parent's own callback: the children's.
    static func forwardedOnly(_ name: CallbackName, to children: [String]) -> [ExpectedStep] {
        if name == .viewIsAppearing {
            return children.flatMap { [.callback(.viewWillAppear, vc: $0), .callback(.viewIsAppearing, vc: $0)] }
        }
        return children.map { .callback(name, vc: $0) }
    }

    /// After the child's `willMoveToParent`: it loads and appears in its visible parent (a
    /// foreground scene's frontmost controller is always visible), laying out once, then
    /// `didMoveToParent` (the order of real-ios-orders' log: willMove, viewDidLoad,
    /// viewWillAppear, layout, viewDidAppear, didMove).
    static func addChildSteps(_ child: String) -> [ExpectedStep] {
        [
            .callback(.loadView, vc: child),
            .callback(.viewDidLoad, vc: child),
            .callback(.viewWillAppear, vc: child),
            .callback(.viewIsAppearing, vc: child),
            .callback(.viewWillLayoutSubviews, vc: child),
            .callback(.viewDidLayoutSubviews, vc: child),
            .callback(.viewDidAppear, vc: child),
            .callback(.didMoveToParent, vc: child),
            .mark(.childAdded(child)),
        ]
    }

    /// After the child's `willMoveToParent` (to nil): it disappears, `removeFromParent` calls
    /// `didMoveToParent`, and the child, released, deinits.
    static func removeChildSteps(_ child: String) -> [ExpectedStep] {
        [
            .callback(.viewWillDisappear, vc: child),
            .callback(.viewDidDisappear, vc: child),
            .callback(.didMoveToParent, vc: child),
            .mark(.childRemoved(child)),
            .callback(.deinit, vc: child),
        ]
    }

    /// The containment atom a `willMoveToParent` of `child` starts, given the frontmost
    /// controller's children: a child is removed, any other name added.
    public static func containmentAtom(child: String, frontmostChildren: [String]) -> LifecycleAtom {
        frontmostChildren.contains(child) ? .removeChild : .addChild
    }
}

extension LifecycleAtom.Context {
    /// The children of the controller `fromTop` places below the top of `stack`.
    func children(fromTop: Int) -> [String] {
        let index = stack.count - 1 - fromTop
        return children.indices.contains(index) ? children[index] : []
    }

    /// `controllers`, each followed by its children.
    static func withChildren(_ controllers: [String], _ children: [[String]]) -> [String] {
        controllers.indices.flatMap { [controllers[$0]] + (children.indices.contains($0) ? children[$0] : []) }
    }

    /// The disconnect's deinits: the shown stack's top first, then each other loaded tab's in
    /// tab order, top first; each controller's children right after it (releasing a parent
    /// releases its children).
    var deinitOrder: [String] {
        var order: [String] = []
        let tabs =
            [(stack, children)]
            + otherTabs.indices.map {
                (otherTabs[$0], otherTabChildren.indices.contains($0) ? otherTabChildren[$0] : [])
            }
        for (controllers, kids) in tabs {
            for index in controllers.indices.reversed() {
                order.append(controllers[index])
                if kids.indices.contains(index) { order += kids[index] }
            }
        }
        return order
    }
}
