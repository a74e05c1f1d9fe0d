import Protocol

/// The activation-state change a callback defines (docs/LIFECYCLE.md: "a state event is
/// written immediately after the callback that defines it").
enum StateDerivation {
    /// The new state after `callback` ran in a scene that was `current`, or nil if the
    /// callback does not change the activation state.
    static func state(after callback: CallbackName, current: ActivationState) -> ActivationState? {
        switch callback {
        case .sceneWillEnterForeground: .foregroundInactive
        case .sceneDidBecomeActive: .foregroundActive
        case .sceneWillResignActive: .foregroundInactive
        case .sceneDidEnterBackground: .background
        case .sceneDidDisconnect: .unattached
        default: nil
        }
    }
}
