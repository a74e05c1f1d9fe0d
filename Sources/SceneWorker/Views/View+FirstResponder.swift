/// A window's first responder, as UIKit's: the view the user's typing goes to (a text field
/// becomes it when `typeText` taps it). It stays first responder, as with the keyboard up,
/// until it resigns, another view takes over, `endEditing(_:)` ends it, or it leaves the
/// window (taken out of its superview, or its controller disappears).
extension View {
    /// Whether the view is its window's first responder.
    public var isFirstResponder: Bool {
        guard let firstResponderWindow else { return false }
        return firstResponderWindow.firstResponder === self
    }

    /// Has the first responder in this view's tree (itself included) resign, as UIKit's:
    /// with `force`, without asking (a text field's delegate is not asked
    /// `textFieldShouldEndEditing`). True when nothing in the tree is first responder any more.
    @discardableResult
    public func endEditing(_ force: Bool) -> Bool {
        guard let responder = firstResponderInTree else { return true }
        if force {
            responder.endFirstResponder()
            return true
        }
        return responder.resignFirstResponder()
    }

    /// The view of this tree (itself included) that is its window's first responder.
    var firstResponderInTree: View? {
        if isFirstResponder { return self }
        for subview in subviews {
            if let found = subview.firstResponderInTree { return found }
        }
        return nil
    }

    /// Stops being first responder without asking anyone: the view leaves its window, or
    /// `endEditing(true)`.
    func endFirstResponder() {
        guard isFirstResponder else { return }
        firstResponderWindow?.firstResponder = nil
        firstResponderWindow = nil
        firstResponderEnded()
    }
}
