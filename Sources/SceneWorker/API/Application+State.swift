import Protocol

extension Application {
    /// The app's state, as `UIApplication.State`.
    public enum State: String, Sendable, Hashable {
        case active
        case inactive
        case background
    }

    /// The app's state, right inside every callback (docs/LIFECYCLE.md §3c):
    /// the scene's activation state once a scene is connected (`foregroundActive` is `active`,
    /// `foregroundInactive` `inactive`, `background` `background`); before the scene is attached
    /// (the launch callbacks, `willConnectTo`, a foreground launch's first `viewWillAppear`) it
    /// is `inactive`, or `background` for a launch into the background; after
    /// `sceneDidDisconnect` it is `background`.
    public var applicationState: State {
        // An app process's state is its most active scene's, as UIKit's.
        if appProcessScenes.count > 1 {
            let states = appProcessScenes.map(\.activationState)
            if states.contains(.foregroundActive) { return .active }
            if states.contains(.foregroundInactive) { return .inactive }
            return .background
        }
        return switch connectedScene?.activationState ?? appActivation {
        case .foregroundActive?: .active
        case .foregroundInactive?: .inactive
        case .background?: .background
        case .unattached?, nil: unattachedState
        }
    }
}
