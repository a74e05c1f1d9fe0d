import Protocol

/// The activation-state change a callback defines (docs/LIFECYCLE.md: "a state event is
/// written immediately after the callback that defines it").
package enum StateDerivation {
    /// The new state after `callback` ran in a scene that was `current`, or nil if the
    /// callback does not change the activation state.
    package static func state(after callback: CallbackName, current: ActivationState) -> ActivationState? {
        switch callback {
        case .sceneWillEnterForeground, .applicationWillEnterForeground: .foregroundInactive
        case .sceneDidBecomeActive, .applicationDidBecomeActive: .foregroundActive
        case .sceneWillResignActive, .applicationWillResignActive: .foregroundInactive
        case .sceneDidEnterBackground, .applicationDidEnterBackground: .background
        case .sceneDidDisconnect: .unattached
        // An app-based app has no scene to disconnect: its termination ends the attachment
        // (a scene-based one is `unattached` by then).
        case .applicationWillTerminate: current == .background ? .unattached : nil
        default: nil
        }
    }

    /// The state events after `callback`, in order: an app-based launch becomes active with
    /// no `applicationWillEnterForeground` (UIKit's order), so its `applicationDidBecomeActive`
    /// passes through `foregroundInactive` (docs/LIFECYCLE.md §3d).
    package static func states(after callback: CallbackName, current: ActivationState) -> States {
        if callback == .applicationDidBecomeActive && current == .unattached {
            return States(.foregroundInactive, .foregroundActive)
        }
        return States(state(after: callback, current: current))
    }

    /// At most two states, in order, kept inline: an array allocated for them on every
    /// callback the host records.
    package struct States: Sequence, IteratorProtocol {
        private var first: ActivationState?
        private var second: ActivationState?

        package init(_ first: ActivationState?, _ second: ActivationState? = nil) {
            (self.first, self.second) = first == nil ? (second, nil) : (first, second)
        }

        package mutating func next() -> ActivationState? {
            defer { (first, second) = (second, nil) }
            return first
        }
    }
}
