// swift-format-ignore-file
// Every UIKit template signature the runtime calls, written as UIKit declares it. Each body
// appends its name to the file $SIGNATURE_LOG, so a test proves the app's own code ran, not
// only that the trace names the callback (UIKitSignatureTests). The signatures the runtime
// does not call are in Tests/Fixtures/UIKitUnsupported, and must not compile.

import UIKit
import UserNotifications

@MainActor
func ran(_ name: String) {
    guard let path = ProcessInfo.processInfo.environment["SIGNATURE_LOG"],
        let handle = FileHandle(forWritingAtPath: path)
    else { return }
    handle.seekToEndOfFile()
    handle.write(Data((name + "\n").utf8))
    handle.closeFile()
}

@main
class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(_ application: UIApplication, willFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool { ran(#function); return true }
    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        ran(#function)
        // The async form of the notification callback when asked for (an app writes one form).
        if ProcessInfo.processInfo.environment["ASYNC_NOTIFICATIONS"] == "1" {
            UNUserNotificationCenter.current().delegate = AsyncNotificationHandler.shared
        } else {
            UNUserNotificationCenter.current().delegate = NotificationHandler.shared
        }
        return true
    }
    func application(_ application: UIApplication, configurationForConnecting connectingSceneSession: UISceneSession, options: UIScene.ConnectionOptions) -> UISceneConfiguration {
        ran(#function)
        return UISceneConfiguration(name: "Default Configuration", sessionRole: connectingSceneSession.role)
    }
    func application(_ application: UIApplication, didDiscardSceneSessions sceneSessions: Set<UISceneSession>) { ran(#function) }
    func applicationDidReceiveMemoryWarning(_ application: UIApplication) { ran(#function) }
    func applicationWillTerminate(_ application: UIApplication) { ran(#function) }
    func application(_ application: UIApplication, didReceiveRemoteNotification userInfo: [AnyHashable: Any], fetchCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void) {
        ran(#function)
        completionHandler(.newData)
    }
}

/// The notification center's delegate, set while launching as apps do.
final class AsyncNotificationHandler: NSObject, UNUserNotificationCenterDelegate {
    static let shared = AsyncNotificationHandler()
    func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse) async {
        ran(#function)
    }
}

final class NotificationHandler: NSObject, UNUserNotificationCenterDelegate {
    static let shared = NotificationHandler()
    func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse, withCompletionHandler completionHandler: @escaping () -> Void) {
        ran(#function)
        // Read as apps read a payload on a device: property-list values behind `Any`.
        ran("notification thread=\(response.notification.request.content.userInfo["thread"] as? String ?? "nil")")
        completionHandler()
    }
}

class SceneDelegate: UIResponder, UIWindowSceneDelegate {
    var window: UIWindow?
    func scene(_ scene: UIScene, willConnectTo session: UISceneSession, options connectionOptions: UIScene.ConnectionOptions) { ran(#function) }
    func sceneDidDisconnect(_ scene: UIScene) { ran(#function) }
    func sceneDidBecomeActive(_ scene: UIScene) { ran(#function) }
    func sceneWillResignActive(_ scene: UIScene) { ran(#function) }
    func sceneWillEnterForeground(_ scene: UIScene) { ran(#function) }
    func sceneDidEnterBackground(_ scene: UIScene) { ran(#function) }
    func stateRestorationActivity(for scene: UIScene) -> NSUserActivity? {
        ran(#function)
        return NSUserActivity(activityType: "com.example.signatures")
    }
    func scene(_ scene: UIScene, restoreInteractionStateWith stateRestorationActivity: NSUserActivity) { ran(#function) }
    func scene(_ scene: UIScene, openURLContexts URLContexts: Set<UIOpenURLContext>) {
        ran(#function)
        // A Foundation URL, as on a device, opened by no other app.
        if let context = URLContexts.first, context.options.sourceApplication == nil, !context.options.openInPlace {
            let url: URL = context.url
            ran("url scheme=\(url.scheme ?? "nil") host=\(url.host ?? "nil") path=\(url.path)")
        }
    }
    func scene(_ scene: UIScene, continue userActivity: NSUserActivity) { ran(#function) }
    func windowScene(_ windowScene: UIWindowScene, didUpdate previousCoordinateSpace: UICoordinateSpace, interfaceOrientation previousInterfaceOrientation: UIInterfaceOrientation, traitCollection previousTraitCollection: UITraitCollection) { ran(#function) }
    func windowScene(_ windowScene: UIWindowScene, performActionFor shortcutItem: UIApplicationShortcutItem, completionHandler: @escaping (Bool) -> Void) {
        ran(#function)
        ran("shortcut draft=\(shortcutItem.userInfo?["draft"] as? String ?? "nil") count=\(shortcutItem.userInfo?["count"] as? Int ?? -1)")
        completionHandler(true)
    }
}

class ViewController: UIViewController {
    override func loadView() { ran(#function); view = UIView() }
    override func viewDidLoad() { super.viewDidLoad(); ran(#function) }
    override func viewWillAppear(_ animated: Bool) { super.viewWillAppear(animated); ran(#function) }
    override func viewIsAppearing(_ animated: Bool) { super.viewIsAppearing(animated); ran(#function) }
    override func viewDidAppear(_ animated: Bool) { super.viewDidAppear(animated); ran(#function) }
    override func viewWillDisappear(_ animated: Bool) { super.viewWillDisappear(animated); ran(#function) }
    override func viewDidDisappear(_ animated: Bool) { super.viewDidDisappear(animated); ran(#function) }
    override func viewWillLayoutSubviews() { super.viewWillLayoutSubviews(); ran(#function) }
    override func viewDidLayoutSubviews() { super.viewDidLayoutSubviews(); ran(#function) }
    override func viewWillTransition(to size: CGSize, with coordinator: UIViewControllerTransitionCoordinator) {
        super.viewWillTransition(to: size, with: coordinator)
        ran(#function)
    }
    override func traitCollectionDidChange(_ previousTraitCollection: UITraitCollection?) {
        super.traitCollectionDidChange(previousTraitCollection)
        ran(#function)
    }
    override func didReceiveMemoryWarning() { super.didReceiveMemoryWarning(); ran(#function) }
    override func willTransition(to newCollection: UITraitCollection, with coordinator: UIViewControllerTransitionCoordinator) {
        super.willTransition(to: newCollection, with: coordinator)
        ran(#function)
    }
    override func awakeFromNib() { super.awakeFromNib(); ran(#function) }
    override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) { ran(#function) }
    override func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) { ran(#function) }
    override func willMove(toParent parent: UIViewController?) { super.willMove(toParent: parent); ran(#function) }
    override func didMove(toParent parent: UIViewController?) { super.didMove(toParent: parent); ran(#function) }
}

/// Presented as a sheet, it is its own presentation controller's delegate.
class SheetViewController: UIViewController, UIAdaptivePresentationControllerDelegate {
    override func viewDidLoad() {
        super.viewDidLoad()
        presentationController?.delegate = self
    }
    func presentationControllerShouldDismiss(_ presentationController: UIPresentationController) -> Bool { ran(#function); return true }
    func presentationControllerWillDismiss(_ presentationController: UIPresentationController) { ran(#function) }
    func presentationControllerDidDismiss(_ presentationController: UIPresentationController) { ran(#function) }
    func presentationControllerDidAttemptToDismiss(_ presentationController: UIPresentationController) { ran(#function) }
}

/// A sheet the user cannot swipe away: a swipe only tells its delegate of the attempt.
class ModalSheetViewController: SheetViewController {
    override func viewDidLoad() {
        super.viewDidLoad()
        isModalInPresentation = true
    }
}

/// Compiles as UIKit declares it (never called): `popToViewController` returns the popped
/// controllers (nil here) and may be discarded.
@MainActor
func popToSecond(_ navigation: UINavigationController, _ second: UIViewController) {
    navigation.popToViewController(second, animated: true)
    _ = navigation.popToViewController(second, animated: false)
}
