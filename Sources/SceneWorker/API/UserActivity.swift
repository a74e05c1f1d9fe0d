import Protocol

/// The state a scene saves for restoration, shaped like `NSUserActivity` (also available
/// under that name): an activity type, a title and a property-list `userInfo`.
///
/// A scene delegate returns one from `stateRestorationActivity(for:)` (often
/// `scene.userActivity`); the host stores it with the session, in its JSON form
/// (`jsonValue`), and a new process reads it back from `session.stateRestorationActivity`
/// in `scene(_:willConnectTo:options:)`.
@MainActor
public final class UserActivity: Hashable {
    /// Activities are equal when they are the same object, as `NSObject`s are by default.
    public nonisolated static func == (lhs: UserActivity, rhs: UserActivity) -> Bool { lhs === rhs }
    public nonisolated func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    /// What the activity is (`"com.example.app.viewing-item"`).
    public let activityType: String
    /// A title for the activity, if any.
    public var title: String?
    /// The activity's state: keys and values of property-list kinds (String, Int, Double,
    /// Bool, arrays and dictionaries of them; `JSONValue` too). Other values are not saved:
    /// `jsonValue` leaves them out and logs each on stderr, where UIKit would raise.
    public var userInfo: [AnyHashable: Any]?

    /// An activity of `activityType`, with no title and no `userInfo`.
    public init(activityType: String) {
        self.activityType = activityType
    }

    /// Adds `otherDictionary`'s entries to `userInfo`, replacing the values of keys it has.
    public func addUserInfoEntries(from otherDictionary: [AnyHashable: Any]) {
        var merged = userInfo ?? [:]
        merged.merge(otherDictionary) { _, new in new }
        userInfo = merged
    }

    /// The form the host stores and the trace shows:
    /// `{"activityType":"…","title":"…","userInfo":{…}}` (`title` and `userInfo` only when set).
    public var jsonValue: JSONValue {
        var object: [String: JSONValue] = ["activityType": .string(activityType)]
        if let title { object["title"] = .string(title) }
        if let userInfo { object["userInfo"] = PropertyListJSON.object(from: userInfo, at: "userInfo") }
        return .object(object)
    }

    /// The activity `jsonValue` describes; nil unless it is an object with a string
    /// `activityType` (restoration state saved as another shape is no activity).
    public convenience init?(jsonValue: JSONValue) {
        guard case .object(let object) = jsonValue, case .string(let type)? = object["activityType"] else {
            return nil
        }
        self.init(activityType: type)
        if case .string(let title)? = object["title"] { self.title = title }
        if case .object(let info)? = object["userInfo"] {
            userInfo = PropertyListJSON.dictionary(of: info)
        }
    }
}

extension UserActivity {
    /// An activity of `activityType` whose `userInfo` holds the entries of `userInfo` (a JSON
    /// object; `null` is no `userInfo`; any other JSON value is kept under the key `"value"`).
    public convenience init(activityType: String, userInfo: JSONValue?) {
        self.init(activityType: activityType)
        switch userInfo {
        case .null?:
            break
        case .object(let entries)?:
            self.userInfo = PropertyListJSON.dictionary(of: entries)
        case let value?:
            self.userInfo = ["value": PropertyListJSON.value(of: value)]
        case nil:
            break
        }
    }

    /// `userInfo` in the JSON form the host sends and stores (nil when there is none).
    public var userInfoJSON: JSONValue? {
        guard case .object(let object) = jsonValue else { return nil }
        return object["userInfo"]
    }
}

/// A URL a scene is asked to open, as `UIOpenURLContext`. The runtime keeps it as text
/// (`absoluteString`); an app that imports `UIKit` reads it as UIKit's `url`, a Foundation
/// `URL`. Only the runtime makes one, of a URL that passed `SceneLimits.urlRefusal` (the
/// host's check, the worker's decoder and `ConnectionOptions.urlContexts` all apply it).
public struct OpenURLContext: Sendable, Hashable {
    /// The URL as the host sent it: an absolute URL in RFC 3986's syntax.
    public let absoluteString: String
    /// How the URL is to be opened, as UIKit's `options`.
    public let options: Scene.OpenURLOptions

    /// The context of `absoluteString`, opened from no other app.
    package init(absoluteString: String) {
        self.absoluteString = absoluteString
        self.options = Scene.OpenURLOptions()
    }
}

extension Scene {
    /// How a URL is to be opened, as `UIScene.OpenURLOptions`. The host sends the URL alone,
    /// as if the system opened it: no other app sent it, and no document is opened in place.
    public struct OpenURLOptions: Sendable, Hashable {
        /// The bundle identifier of the app that asked to open the URL: nil, none did.
        public let sourceApplication: String?
        /// Whether a document is to be opened in place: false.
        public let openInPlace: Bool

        init() {
            sourceApplication = nil
            openInPlace = false
        }
    }
}

extension UISceneDelegate {
    /// Does nothing.
    public func scene(_ scene: Scene, openURLContexts contexts: Set<OpenURLContext>) {}
    /// Does nothing.
    public func scene(_ scene: Scene, continue userActivity: UserActivity) {}
}
