import Protocol

/// What the system hands a running app (docs/LIFECYCLE.md §3f): URLs, user activities, quick
/// actions and tapped notifications reach a scene in the foreground; silent pushes reach the
/// app in whatever state it is in.
extension WorkerSession {
    /// Runs `delivery` in the foreground: a background scene comes forward with it between
    /// `sceneWillEnterForeground` and `sceneDidBecomeActive` (real-ios-orders-3 c07, c10, c12),
    /// an on-screen one gets it at once.
    func deliverInForeground(_ delivery: (WorkerSession) -> Void) {
        guard scene?.activationState == .background else {
            delivery(self)
            return
        }
        guard hasAppeared else {
            withoutActuallyEscaping(delivery) { firstAppearance(delivering: $0) }
            return
        }
        enterForeground()
        delivery(self)
        becomeActive()
    }

    /// `scene(_:openURLContexts:)`; the trace says which URL arrived (`value`).
    func openURLContexts(_ url: String) {
        sink.report(CallbackEvent(.openURLContexts, value: .string(url)))
        if let scene { sceneDelegate?.scene(scene, openURLContexts: [OpenURLContext(absoluteString: url)]) }
    }

    /// `scene(_:continue:)`; the trace says which activity arrived (`value`).
    func continueUserActivity(_ activityType: String, userInfo: JSONValue?) {
        sink.report(
            CallbackEvent(
                .continueUserActivity,
                value: .object(["activityType": .string(activityType), "userInfo": userInfo ?? .null])
            )
        )
        if let scene {
            sceneDelegate?.scene(scene, continue: UserActivity(activityType: activityType, userInfo: userInfo))
        }
    }

    /// `windowScene(_:performActionFor:completionHandler:)`; the trace says which (`value`).
    func performAction(type: String, userInfo: JSONValue?) {
        sink.report(
            CallbackEvent(.performActionFor, value: .object(["type": .string(type), "userInfo": userInfo ?? .null]))
        )
        guard let scene = scene as? UIWindowScene, let delegate = sceneDelegate as? any UIWindowSceneDelegate else {
            return
        }
        var item = ApplicationShortcutItem(type: type)
        if case .object(let object)? = userInfo { item.userInfoJSON = object }
        delegate.windowScene(
            scene,
            performActionFor: item,
            completionHandler: { _ in }
        )
    }

    /// `userNotificationCenter(_:didReceive:withCompletionHandler:)` of the center's delegate;
    /// the trace says which (`value`).
    func didReceive(_ response: NotificationResponse) {
        sink.report(
            CallbackEvent(
                .userNotificationCenterDidReceive,
                value: .object([
                    "actionIdentifier": .string(response.actionIdentifier),
                    "userInfo": .object(response.notification.request.content.userInfoJSON),
                ])
            )
        )
        let center = UNUserNotificationCenter.current()
        center.delegate?.userNotificationCenter(center, didReceive: response, withCompletionHandler: {})
    }

    /// `application(_:didReceiveRemoteNotification:fetchCompletionHandler:)`, in the app's
    /// present state; the trace carries the payload (`value`).
    func didReceiveRemoteNotification(_ userInfo: JSONValue?) {
        sink.report(CallbackEvent(.didReceiveRemoteNotification, value: userInfo ?? .object([:])))
        var payload: [AnyHashable: Any] = [:]
        if case .object(let object)? = userInfo {
            for (key, value) in object { payload[key] = PropertyListJSON.value(of: value) }
        }
        applicationDelegate?.application(
            application,
            didReceiveRemoteNotification: payload,
            fetchCompletionHandler: { _ in }
        )
    }
}
