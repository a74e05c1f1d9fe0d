import Protocol

/// Why `requestSceneSessionActivation` or `requestSceneSessionDestruction` failed at once.
public struct SceneRequestError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public var description: String
}

extension Application {
    /// The scenes connected to this process, as UIKit's: this worker's one scene, or none; in
    /// an app process (LIFECYCLE.md §4a), every scene of the app connected in it.
    public var connectedScenes: Set<Scene> {
        guard appProcessScenes.isEmpty else { return Set(appProcessScenes) }
        return connectedScene.map { [$0] } ?? []
    }

    /// Whether the app may show several windows: true, as for an iPad app that declares it
    /// (each window is a scene of its own, in a worker of its own).
    public var supportsMultipleScenes: Bool { true }

    /// The windows of the connected scenes, as UIKit's (deprecated there since iOS 15 in favour
    /// of each window scene's `windows`).
    public var windows: [Window] { connectedScenes.compactMap { ($0 as? UIWindowScene)?.window } }

    /// The key window: that of the scene the host shows (the connected one), as UIKit's.
    public var keyWindow: Window? { (connectedScene as? UIWindowScene)?.keyWindow }

    /// Asks the system for a scene (docs/LIFECYCLE.md §3c), as UIKit's
    /// `requestSceneSessionActivation(_:userActivity:options:errorHandler:)`: `session` nil
    /// opens a new window (a new session with a new identifier and its own worker); an
    /// existing session's identifier brings that scene forward (connecting it if it has no
    /// worker). The user activity reaches the scene in its connection options
    /// (`Scene.ConnectionOptions.userActivity`), or in `scene(_:continue:)` when it is already
    /// connected. An app-initiated change: the host carries it out after this returns.
    /// Fails (`errorHandler`) when this worker has no connected scene.
    public func requestSceneSessionActivation(
        _ session: String?,
        userActivity: UserActivity?,
        errorHandler: ((SceneRequestError) -> Void)? = nil
    ) {
        guard connectedScene != nil, let sink = changeSink else {
            errorHandler?(SceneRequestError(description: "no scene is connected"))
            return
        }
        if let session, session.isEmpty {
            errorHandler?(SceneRequestError(description: "an empty session identifier"))
            return
        }
        // The limits a client's `continueUserActivity` obeys: the activity is forwarded to the
        // scene, whose echo of it must fit a frame too (SceneLimits).
        if let userActivity {
            guard userActivity.activityType.utf8.count <= SceneLimits.maximumURLBytes else {
                errorHandler?(
                    SceneRequestError(description: "an activity type over \(SceneLimits.maximumURLBytes) bytes")
                )
                return
            }
            if let refusal = SceneLimits.userActivityRefusal(
                activityType: userActivity.activityType,
                userInfo: userActivity.userInfoJSON,
                frameLimit: FrameLimits.defaultMaximumFrameSize
            ) {
                errorHandler?(SceneRequestError(description: refusal))
                return
            }
        }
        sink.send(
            .change(
                .requestSceneSessionActivation(
                    session: session,
                    activityType: userActivity?.activityType,
                    userInfo: userActivity?.userInfoJSON
                )
            )
        )
    }

    /// Asks the system to close the scene of `session` and discard the session, as UIKit's
    /// `requestSceneSessionDestruction(_:options:errorHandler:)` (this worker's own scene
    /// included). An app-initiated change: the host carries it out after this returns.
    public func requestSceneSessionDestruction(
        _ session: String,
        errorHandler: ((SceneRequestError) -> Void)? = nil
    ) {
        guard connectedScene != nil, let sink = changeSink, !session.isEmpty else {
            errorHandler?(SceneRequestError(description: "no scene is connected, or an empty identifier"))
            return
        }
        sink.send(.change(.requestSceneSessionDestruction(session: session)))
    }
}
