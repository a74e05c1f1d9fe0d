extension ConnectOptions {
    /// What the scene was opened with, for the `value` of its `willConnectTo` callback (the
    /// trace's record of `UIScene.ConnectionOptions`): `{"url":…}`, `{"userActivity":
    /// {"activityType":…,"userInfo":…}}`, both, or nil for a plain launch. An app-based
    /// app's `didFinishLaunching` carries `{"url":…}` the same way (its launch options).
    public var connectionValue: JSONValue? {
        var members: [String: JSONValue] = [:]
        if let url { members["url"] = .string(url) }
        if let activityType {
            members["userActivity"] = .object(["activityType": .string(activityType), "userInfo": userInfo ?? .null])
        }
        if let shortcutItem { members["shortcutItem"] = shortcutItem }
        if let notificationResponse { members["notificationResponse"] = notificationResponse }
        return members.isEmpty ? nil : .object(members)
    }
}
