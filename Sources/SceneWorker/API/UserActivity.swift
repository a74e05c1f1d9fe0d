import Protocol

/// A URL a scene is asked to open, as `UIOpenURLContext`.
public struct OpenURLContext: Sendable, Hashable {
    /// The URL, as the host sent it.
    public var url: String

    /// A context for `url`.
    public init(url: String) {
        self.url = url
    }
}

/// An activity handed to a scene, as `NSUserActivity`: a type and its data.
public struct UserActivity: Sendable, Hashable {
    /// The activity's type (`NSUserActivity.activityType`), for example `com.example.edit`.
    public var activityType: String
    /// Its data, if any (`userInfo`).
    public var userInfo: JSONValue?

    /// An activity of `activityType`.
    public init(activityType: String, userInfo: JSONValue? = nil) {
        self.activityType = activityType
        self.userInfo = userInfo
    }
}

extension SceneDelegate {
    /// Does nothing.
    public func scene(_ scene: Scene, openURLContexts contexts: Set<OpenURLContext>) {}
    /// Does nothing.
    public func scene(_ scene: Scene, continue userActivity: UserActivity) {}
}
