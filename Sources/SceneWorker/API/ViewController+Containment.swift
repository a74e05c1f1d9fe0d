import Protocol

/// View-controller containment, shaped like UIKit's (docs/LIFECYCLE.md §3a). The model lets
/// only the frontmost controller (the presented one, else the top of the selected stack) of
/// a foreground scene add or remove children, and runs each change as one transition.
extension UIViewController {
    /// Adds `childController` as a child of this controller, which must be the frontmost one.
    ///
    /// Unlike UIKit's, this runs the whole containment transition at once: the child's
    /// `willMove(toParent:)`, its view loads, it appears in this visible parent (layout
    /// included), and `didMoveToParent` is reported. Inside a callback it runs once the
    /// callback's request or transition is done; in `viewDidLoad` of a controller not yet
    /// frontmost in the foreground, once it is (the child's `view`, read meanwhile, is the one
    /// it then loads into). As on a device, the child's
    /// `didMove(toParent:)` runs when your code calls it, not here. An illegal request (in
    /// the background, not the frontmost controller, a child of that name already there, too
    /// many children, a child whose view already loaded) changes nothing and is logged, as
    /// UIKit logs what it ignores.
    public func addChild(_ childController: UIViewController) {
        // The parent's window's session: in an app process, code that runs between the host's
        // frames (a main-queue block) is no particular scene's.
        guard let session = sceneNavigationController?.changeHandler ?? Application.shared.changeHandler else {
            // Outside a worker (unit tests of the app's own types): plain bookkeeping.
            childController.parent = self
            children.append(childController)
            return
        }
        session.appRequestsAddChild(childController, to: self)
    }

    /// Removes this controller from its parent: `willMoveToParent` is reported, it
    /// disappears, then `didMove(toParent: nil)`; released by the parent, it deinits unless
    /// your code keeps it. As on a device, `willMove(toParent: nil)` runs when your code
    /// calls it (before this), not here.
    public func removeFromParent() {
        guard let parent else {
            // Its add still waits (for the transition under way, or for its parent to come
            // forward): called off, nothing reported, as if it had joined and left.
            if isBeingAddedAsChild { addingSession?.cancelAddingAsChild(self) }
            return
        }
        guard let session = parent.sceneNavigationController?.changeHandler ?? Application.shared.changeHandler else {
            parent.children.removeAll { $0 === self }
            self.parent = nil
            return
        }
        session.appRequestsRemoveChild(self, from: parent)
    }

    // MARK: - The transitions (the runtime checked them)

    /// Adds `child`: `willMoveToParent`, load, appearance with one layout pass, `didMoveToParent`.
    /// `asContainer`: the runtime is the container's code (the host's `addChild`), so it
    /// makes the `didMove(toParent:)` call UIKit leaves to that code; for the app's own
    /// `addChild(_:)` the app makes it.
    func performAddChild(_ child: UIViewController, asContainer: Bool) {
        if child.sink == nil {
            child.sink = sink
        }
        children.append(child)
        child.parent = self
        child.runWillMove(toParent: self)
        // It appears because it was added to its parent (Apple's definition of the flag).
        child.isMovingToParent = true
        defer { child.isMovingToParent = false }
        child.runLoadViewIfNeeded()
        child.runViewWillAppear(true)
        child.runLayout(size: loadedView?.size ?? .zero)
        child.runViewDidAppear(true)
        child.runDidMove(toParent: self, callsOverride: asContainer)
    }

    /// Removes `child`: `willMoveToParent` (nil), disappearance, `didMoveToParent` (nil). The
    /// parent's reference is dropped: the caller's last one decides when it deinits.
    /// `asContainer` as for `performAddChild`: the `willMove(toParent: nil)` call before
    /// `removeFromParent()` is the container's code's.
    func performRemoveChild(_ child: UIViewController, asContainer: Bool) {
        guard children.contains(where: { $0 === child }) else { return }
        child.runWillMove(toParent: nil, callsOverride: asContainer)
        child.runViewWillDisappear(true)
        child.runViewDidDisappear(true)
        children.removeAll { $0 === child }
        child.parent = nil
        child.runDidMove(toParent: nil)
    }

    /// The child named `name`, if this controller has one.
    func child(named name: String) -> UIViewController? {
        children.first { $0.restorationIdentifier == name }
    }
}
