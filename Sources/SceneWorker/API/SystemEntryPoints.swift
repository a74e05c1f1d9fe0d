import Protocol

// The system's ways into a running app besides URLs and activities (docs/LIFECYCLE.md §3f):
// a home-screen quick action, a tapped notification, a silent push, and the window scene's
// geometry updates. Each has UIKit's (or UserNotifications') name and signature.

/// A home-screen quick action, as `UIApplicationShortcutItem`.
public struct ApplicationShortcutItem: Sendable, Hashable {
    /// The action's type, as the app declared it (`UIApplicationShortcutItemType`).
    public var type: String
    /// The title the home screen shows (the type, as the host sends no title).
    public var localizedTitle: String
    /// The item's `userInfo` in the JSON form the host sent.
    public var userInfoJSON: [String: JSONValue]?

    /// The item's `userInfo`, as UIKit's: property-list values (`String`, `Int`, `Double`,
    /// `Bool`, arrays and dictionaries of them), so `userInfo?["id"] as? String` reads as on
    /// a device. Values of other kinds are not kept (each is logged on stderr).
    public var userInfo: [String: Any]? {
        get { userInfoJSON?.mapValues(PropertyListJSON.value(of:)) }
        set { userInfoJSON = newValue.map(PropertyListJSON.entries(of:)) }
    }

    /// An item of `type`, with `userInfo`'s property-list values.
    public init(type: String, localizedTitle: String? = nil, userInfo: [String: Any]? = nil) {
        self.type = type
        self.localizedTitle = localizedTitle ?? type
        self.userInfoJSON = userInfo.map(PropertyListJSON.entries(of:))
    }

    /// `{"type":…,"userInfo":{…}}`, as the host sends it.
    init?(jsonValue: JSONValue) {
        guard case .object(let object) = jsonValue, case .string(let type)? = object["type"] else { return nil }
        self.type = type
        self.localizedTitle = type
        if case .object(let info)? = object["userInfo"] { userInfoJSON = info }
    }
}

/// The user's answer to a notification, as `UNNotificationResponse`: which action, and the
/// notification it answers.
public struct NotificationResponse: Sendable, Hashable {
    /// `UNNotificationDefaultActionIdentifier` when the user tapped the notification itself.
    public var actionIdentifier: String
    /// The notification answered.
    public var notification: DeliveredNotification

    /// A response `actionIdentifier` to a notification carrying `userInfo` (JSON).
    public init(
        actionIdentifier: String = UNNotificationDefaultActionIdentifier,
        userInfoJSON: [String: JSONValue] = [:]
    ) {
        self.actionIdentifier = actionIdentifier
        self.notification = DeliveredNotification(request: .init(content: .init(userInfoJSON: userInfoJSON)))
    }

    /// `{"actionIdentifier":…,"userInfo":{…}}`, as the host sends it.
    init?(jsonValue: JSONValue) {
        guard case .object(let object) = jsonValue else { return nil }
        var userInfo: [String: JSONValue] = [:]
        if case .object(let info)? = object["userInfo"] { userInfo = info }
        var action = UNNotificationDefaultActionIdentifier
        if case .string(let identifier)? = object["actionIdentifier"] { action = identifier }
        self.init(actionIdentifier: action, userInfoJSON: userInfo)
    }
}

/// A delivered notification, as `UNNotification`: `notification.request.content.userInfo`.
public struct DeliveredNotification: Sendable, Hashable {
    /// The request it was delivered for.
    public var request: Request

    /// As `UNNotificationRequest`.
    public struct Request: Sendable, Hashable {
        /// As `UNNotificationContent`.
        public var content: Content
        /// The request's identifier.
        public var identifier = "scenehost"
    }

    /// As `UNNotificationContent`: what the notification carried.
    public struct Content: Sendable, Hashable {
        /// The notification's payload in the JSON form the host sent.
        public var userInfoJSON: [String: JSONValue]
        /// The notification's title (the host sends none).
        public var title = ""

        /// The notification's payload, as UIKit's: property-list values under string keys,
        /// so `userInfo["id"] as? String` reads as on a device.
        public var userInfo: [AnyHashable: Any] { PropertyListJSON.dictionary(of: userInfoJSON) }
    }
}

/// `UNNotificationDefaultActionIdentifier`: the user tapped the notification itself.
public let UNNotificationDefaultActionIdentifier = "com.apple.UNNotificationDefaultActionIdentifier"

/// Hears of the user's answers to notifications, as `UNUserNotificationCenterDelegate`: set it
/// on `UNUserNotificationCenter.current().delegate` (UIKit's apps do so while launching).
@MainActor
public protocol UNUserNotificationCenterDelegate: AnyObject {
    /// The user tapped a notification (trace: `userNotificationCenterDidReceive`). From a launch
    /// or the background, it runs while the scene is still `foregroundInactive`. Call
    /// `completionHandler` when done. Default: calls it.
    func userNotificationCenter(
        _ center: UNUserNotificationCenter,
        didReceive response: NotificationResponse,
        withCompletionHandler completionHandler: @escaping () -> Void
    )

    /// The same in Swift's async form, for an app that writes this one instead: as UIKit
    /// bridges them, it runs in a main-actor task started by the completion-handler form
    /// (right after the callback's turn), which then calls the handler. Default: nothing.
    func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: NotificationResponse) async
}

extension UNUserNotificationCenterDelegate {
    /// Runs the async form (which does nothing unless the app wrote it), then `completionHandler`.
    public func userNotificationCenter(
        _ center: UNUserNotificationCenter,
        didReceive response: NotificationResponse,
        withCompletionHandler completionHandler: @escaping () -> Void
    ) {
        Task { @MainActor in
            await self.userNotificationCenter(center, didReceive: response)
            completionHandler()
        }
    }

    public func userNotificationCenter(
        _ center: UNUserNotificationCenter,
        didReceive response: NotificationResponse
    ) async {}
}

/// The app's notification center, as `UNUserNotificationCenter`: one per process.
@MainActor
public final class UNUserNotificationCenter {
    private static let shared = UNUserNotificationCenter()

    /// The process's center.
    public static func current() -> UNUserNotificationCenter { shared }

    /// Hears of the user's answers; weak, as UIKit's.
    public weak var delegate: (any UNUserNotificationCenterDelegate)?

    private init() {}
}

/// `UIBackgroundFetchResult`: what a silent push's handling fetched.
public enum BackgroundFetchResult: Int, Sendable {
    case newData, noData, failed
}

/// The window's orientation, as `UIInterfaceOrientation`: a window is portrait when it is at
/// least as tall as it is wide.
public enum InterfaceOrientation: Int, Sendable, Hashable {
    case unknown, portrait, portraitUpsideDown, landscapeLeft, landscapeRight

    /// The orientation of a window of `size`.
    public init(size: Size) {
        self = size.height >= size.width ? .portrait : .landscapeRight
    }

    public var isPortrait: Bool { self == .portrait || self == .portraitUpsideDown }
    public var isLandscape: Bool { self == .landscapeLeft || self == .landscapeRight }
}

/// A window's geometry, as `UICoordinateSpace`: what
/// `windowScene(_:didUpdate:interfaceOrientation:traitCollection:)` gets as the old one.
public protocol CoordinateSpace: Sendable {
    /// The space's bounds.
    var bounds: Rect { get }
}

/// The coordinate space of a window of some size.
struct WindowCoordinateSpace: CoordinateSpace {
    let bounds: Rect

    init(size: Size) {
        bounds = Rect(x: 0, y: 0, width: size.width, height: size.height)
    }
}

/// A rectangle in points, as `CGRect` but integral.
public struct Rect: Sendable, Hashable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    /// Its width and height.
    public var size: Size { Size(width: width, height: height) }

    /// A rectangle at (`x`, `y`) of `width` × `height` points.
    public init(x: Int, y: Int, width: Int, height: Int) {
        (self.x, self.y, self.width, self.height) = (x, y, width, height)
    }
}
