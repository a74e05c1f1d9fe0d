import HostProcess
import Protocol

extension SceneHandle {
    /// Brings the scene to `state` by the legal path, as `ActivityScenario.moveToState` does:
    ///
    /// | from \ to | `foregroundActive` | `foregroundInactive` | `background` | `unattached` |
    /// | --- | --- | --- | --- | --- |
    /// | `unattached` | connect | connect, deactivate | connect in background | – |
    /// | `foregroundActive` | – | deactivate | background | disconnect |
    /// | `foregroundInactive` | activate | – | background | disconnect |
    /// | `background` | foreground | foreground, deactivate | – | disconnect |
    ///
    /// A connect uses `root` (nil: the root the scene last connected with, with its tabs, style,
    /// size and app; `Root` for a scene never connected) and `worker` (nil: the host's worker).
    /// Returns the operations it ran (none when the scene is already there). Throws what the
    /// first failing operation throws (`HostError`), for example for a discarded scene.
    @discardableResult
    public func move(
        to state: ActivationState,
        root: String? = nil,
        worker: [String]? = nil
    ) async throws
        -> [SceneOperation]
    {
        let current = await status()
        let (lastRoot, launch) = await Self.relaunch(self, stack: current.stack)
        let operations = Self.path(
            from: current.activation,
            to: state,
            root: root ?? lastRoot,
            worker: worker,
            launch: root == nil ? launch : LaunchParameters()
        )
        for operation in operations { try await perform(operation) }
        return operations
    }

    /// The root and launch parameters a scene connects with again, as the user would bring it
    /// back: the last connect's (its tabs, style, size, app), without what the system opened
    /// it for last time (a URL, an activity, a quick action, a notification: those come once).
    static func relaunch(_ scene: SceneHandle, stack: [String]) async -> (root: String, launch: LaunchParameters) {
        var launch = await scene.lastLaunch()
        launch.url = nil
        launch.activityType = nil
        launch.userInfo = nil
        launch.shortcutItem = nil
        launch.notificationResponse = nil
        launch.remoteNotification = nil
        return (launch.tabs?.first ?? stack.first ?? "Root", launch)
    }

    /// The operations that bring a scene from `current` to `target` (the table above).
    static func path(
        from current: ActivationState,
        to target: ActivationState,
        root: String,
        worker: [String]?,
        launch: LaunchParameters = LaunchParameters()
    ) -> [SceneOperation] {
        guard current != target else { return [] }
        let connect = SceneOperation.connect(
            background: target == .background,
            root: root,
            worker: worker,
            launch: launch
        )
        switch (target, current) {
        case (.unattached, _): return [.disconnect]
        case (.background, .unattached): return [connect]
        case (.background, _): return [.background]
        case (.foregroundActive, .unattached): return [connect]
        case (.foregroundActive, .background): return [.foreground]
        case (.foregroundActive, _): return [.activate]
        case (.foregroundInactive, .unattached): return [connect, .deactivate]
        case (.foregroundInactive, .background): return [.foreground, .deactivate]
        case (.foregroundInactive, _): return [.deactivate]
        }
    }

    /// Kills the scene's worker and reconnects it, as `ActivityScenario.recreate()` does: the
    /// new worker gets the restoration state the old one saved and ends in the state the old
    /// one was in, launched as the old one was (its root or tabs, style, size and app; pushed
    /// controllers are gone, as after a real kill; the app restores them from its restoration
    /// state, if it does).
    ///
    /// A foreground scene enters the background first, so that it saves its state as iOS
    /// makes it before a kill. `worker`: the reconnected worker's argv (nil: the host's).
    /// Throws `SceneRecreateError.notAttached` for a scene with no worker.
    public func recreate(worker: [String]? = nil) async throws {
        let before = await status()
        guard before.activation != .unattached else {
            throw SceneRecreateError.notAttached(scene: identifier, state: before.activation, process: before.process)
        }
        if before.activation != .background { try await background() }
        do {
            try await kill()
        } catch {
            // The worker died on its own meanwhile (a watchdog, a crash): the kill is moot,
            // the reconnect below is what matters. Anything else is an error.
            guard case HostError.refused = error, await !status().process.isAlive else { throw error }
        }
        let (root, launch) = await Self.relaunch(self, stack: before.stack)
        try await connect(background: before.activation == .background, root: root, worker: worker, launch: launch)
        try await move(to: before.activation, root: root, worker: worker)
    }
}

/// Why `SceneHandle.recreate(worker:)` could not start.
public enum SceneRecreateError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The scene has no worker to kill: connect it first (`move(to:)`).
    case notAttached(scene: String, state: ActivationState, process: ProcessState)

    public var description: String {
        switch self {
        case .notAttached(let scene, let state, let process):
            "cannot recreate scene \(scene): it has no worker (state \(state), process \(process)); connect it first"
        }
    }
}
