import Protocol

// UIKit's names for this library's types, so code written for UIKit compiles with few edits
// (README "Porting UIKit code"). The library's own names stay: `Scene`, `Window` and `View`
// read as SwiftUI types in new code, and the UIKit names read as UIKit in ported code.
//
// The library takes none of the names Xcode's templates give an app's own types
// (`AppDelegate`, `SceneDelegate`, `ViewController`), so a ported file keeps them.

/// `UIApplication`: the worker's application object.
public typealias UIApplication = Application
/// `UIApplicationDelegate`: the app's delegate.
public typealias UIApplicationDelegate = ApplicationDelegate
/// `UIScene`: the worker's scene.
public typealias UIScene = Scene
/// `UISceneSession`: the scene's persistent session.
public typealias UISceneSession = SceneSession
/// `UISceneConfiguration`: a configuration's name and role.
public typealias UISceneConfiguration = SceneConfiguration
/// `UIWindow`: the scene's window.
public typealias UIWindow = Window
/// `UIView`: a controller's root view.
public typealias UIView = View
/// `UINavigationController`: the window's navigation stack.
public typealias UINavigationController = NavigationController
/// `UITabBarController`: a tab bar root, each tab its own stack.
public typealias UITabBarController = TabBarController
/// `UISplitViewController`: a split view root, collapsed as on an iPhone.
public typealias UISplitViewController = SplitViewController
/// `UIBackgroundTaskIdentifier`: a background task's identifier.
public typealias UIBackgroundTaskIdentifier = BackgroundTaskIdentifier
/// `UIViewControllerTransitionCoordinator`: what `viewWillTransition(to:with:)` receives.
public typealias UIViewControllerTransitionCoordinator = TransitionCoordinator
/// `UIModalPresentationStyle`: `.pageSheet` (the default) or `.fullScreen`.
public typealias UIModalPresentationStyle = PresentationStyle
/// `UIPresentationController`: what manages a presentation (`presentationController`).
public typealias UIPresentationController = PresentationController
/// `UIAdaptivePresentationControllerDelegate`: hears of the user's swipes on a sheet.
public typealias UIAdaptivePresentationControllerDelegate = AdaptivePresentationControllerDelegate
/// `UITraitCollection`: a controller's traits.
public typealias UITraitCollection = TraitCollection
/// `UIUserInterfaceStyle`: light or dark.
public typealias UIUserInterfaceStyle = UserInterfaceStyle
/// `UIUserInterfaceSizeClass`: compact or regular.
public typealias UIUserInterfaceSizeClass = UserInterfaceSizeClass
/// `UITouch`: one touch of a tap.
public typealias UITouch = Touch
/// `UIOpenURLContext`: a URL a scene is asked to open (`scene(_:openURLContexts:)`).
public typealias UIOpenURLContext = OpenURLContext

/// `UIApplicationShortcutItem`: a home-screen quick action.
public typealias UIApplicationShortcutItem = ApplicationShortcutItem
/// `UNNotificationResponse`: the user's answer to a notification.
public typealias UNNotificationResponse = NotificationResponse
/// `UNNotification`: a delivered notification.
public typealias UNNotification = DeliveredNotification
/// `UIBackgroundFetchResult`: what a silent push's handling fetched.
public typealias UIBackgroundFetchResult = BackgroundFetchResult
/// `UIInterfaceOrientation`: portrait or landscape.
public typealias UIInterfaceOrientation = InterfaceOrientation
/// `UICoordinateSpace`: a window's geometry.
public typealias UICoordinateSpace = CoordinateSpace

/// `UIEvent`, so that UIKit's `touchesBegan(_:with:)` compiles: a worker delivers no event
/// object (the argument is always nil), so there is nothing to make one of.
public enum UIEvent: Sendable {}

/// `NSUserActivity`: the state a scene saves for restoration. (Foundation on Linux has no
/// `NSUserActivity`, so the name is free.)
public typealias NSUserActivity = UserActivity

/// The `bundle` of `UIViewController.init(nibName:bundle:)`. There are no nibs or bundles
/// in a worker: the only value is `nil`, which is what ported code passes.
public enum NibBundle: Sendable {}

extension Application {
    /// The keys of `application(_:didFinishLaunchingWithOptions:)`'s dictionary, as UIKit's.
    /// A worker launches for its scene only, so the dictionary is always nil, as UIKit's is
    /// for a scene-based app opened normally.
    public struct LaunchOptionsKey: Hashable, Sendable, RawRepresentable {
        /// The key's name.
        public var rawValue: String

        /// A key named `rawValue`.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }
    }
}
