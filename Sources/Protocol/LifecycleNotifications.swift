extension CallbackName {
    /// Whether this is a lifecycle notification UIKit posts on `NotificationCenter.default`
    /// (`UIApplicationDidBecomeActiveNotification`, …), not a delegate or controller callback.
    public var isLifecycleNotification: Bool {
        // A switch, not a set: the host asks for every callback it records.
        switch self {
        case .applicationDidFinishLaunchingNotification, .applicationDidBecomeActiveNotification,
            .applicationWillResignActiveNotification, .applicationDidEnterBackgroundNotification,
            .applicationWillEnterForegroundNotification, .applicationWillTerminateNotification,
            .applicationDidReceiveMemoryWarningNotification, .sceneWillConnectNotification,
            .sceneDidActivateNotification, .sceneWillDeactivateNotification, .sceneDidEnterBackgroundNotification,
            .sceneWillEnterForegroundNotification, .sceneDidDisconnectNotification:
            true
        default:
            false
        }
    }

    /// The notifications UIKit posts right after this callback returns, in order: the delegate
    /// first, then the observers (real-ios-orders-3 c01, c02: `applicationWillEnterForeground`
    /// runs before the observers of its notification; where the evidence is silent the model
    /// makes the same choice), the scene's notification before the application's. A scene-based
    /// app gets the application's notifications too, though not its delegate methods (c01).
    /// Empty for every other callback.
    public var postedNotifications: [CallbackName] {
        switch self {
        case .didFinishLaunching: [.applicationDidFinishLaunchingNotification]
        case .willConnectTo: [.sceneWillConnectNotification]
        case .sceneWillEnterForeground:
            [.sceneWillEnterForegroundNotification, .applicationWillEnterForegroundNotification]
        case .sceneDidBecomeActive: [.sceneDidActivateNotification, .applicationDidBecomeActiveNotification]
        case .sceneWillResignActive: [.sceneWillDeactivateNotification, .applicationWillResignActiveNotification]
        case .sceneDidEnterBackground:
            [.sceneDidEnterBackgroundNotification, .applicationDidEnterBackgroundNotification]
        case .sceneDidDisconnect: [.sceneDidDisconnectNotification]
        case .applicationWillTerminate: [.applicationWillTerminateNotification]
        case .applicationDidReceiveMemoryWarning: [.applicationDidReceiveMemoryWarningNotification]
        case .applicationDidBecomeActive: [.applicationDidBecomeActiveNotification]
        case .applicationWillResignActive: [.applicationWillResignActiveNotification]
        case .applicationDidEnterBackground: [.applicationDidEnterBackgroundNotification]
        case .applicationWillEnterForeground: [.applicationWillEnterForegroundNotification]
        default: []
        }
    }
}
