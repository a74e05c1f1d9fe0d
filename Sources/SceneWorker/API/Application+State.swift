import Protocol

extension Application {
    /// The app's state, as `UIApplication.State`.
    public enum State: String, Sendable, Hashable {
        case active
        case inactive
        case background
    }

    /// The connected scene's state as the application counts it: not active yet while it
    /// is activating (c01).
    private var connectedState: ActivationState {
        let state = connectedScene?.activationState ?? .unattached
        return isActivating && state == .foregroundActive ? .foregroundInactive : state
    }

    /// The app's state, right inside every callback (docs/LIFECYCLE.md §3c):
    /// the scene's activation state once a scene is connected (`foregroundActive` is `active`,
    /// `foregroundInactive` `inactive`, `background` `background`); before the scene is attached
    /// (the launch callbacks, `willConnectTo`, a foreground launch's first `viewWillAppear`) it
    /// is `inactive`, or `background` for a launch into the background; after
    /// `sceneDidDisconnect` it is `background`. A scene that becomes active makes the app
    /// active only once its `sceneDidBecomeActive` and the scene's notification are over, as
    /// UIKit's (real-ios-orders-3 c01).
    public var applicationState: State {
        // An app process's state is its most active scene's, as UIKit's: every scene connected
        // in it, the one connecting now included (the list is brought up to date after each
        // frame), and still the others' once the one that ran last has disconnected.
        if !appProcessScenes.isEmpty {
            var scenes = appProcessScenes
            if let connectedScene, !scenes.contains(where: { $0 === connectedScene }) { scenes.append(connectedScene) }
            if scenes.count > 1 || connectedScene == nil {
                let states = scenes.filter { $0 !== connectedScene || $0.activationState != .unattached }
                    .map { $0 === connectedScene ? connectedState : $0.activationState }
                if states.contains(.foregroundActive) { return .active }
                if states.contains(.foregroundInactive) { return .inactive }
                if states.contains(.background) { return .background }
            }
        }
        return switch connectedScene.map({ _ in connectedState }) ?? appActivation {
        case .foregroundActive?: .active
        case .foregroundInactive?: .inactive
        case .background?: .background
        case .unattached?, nil: unattachedState
        }
    }
}
