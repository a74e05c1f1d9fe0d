import Protocol
import Testing

@testable import SceneWorker

@MainActor
@Suite("Callback orders of docs/LIFECYCLE.md")
struct LifecycleOrderTests {
    @Test func connectToForeground() {
        let h = Harness()
        #expect(
            h.connect()
                == [
                    "willFinishLaunching", "didFinishLaunching", "configurationForConnecting", "willConnectTo",
                    "Root.loadView",
                    "Root.viewDidLoad",
                ]
                + firstAppearance() + ["reply 1"]
        )
        #expect(h.lastResult == nil)
        #expect(h.session.state == .foregroundActive)
    }

    @Test func reconnectSkipsConfigurationAndCarriesRestoration() {
        let h = Harness()
        let restoration: JSONValue = .object(["stack": .array([.string("Root")])])
        let messages = h.sendRaw(
            .connect(ConnectOptions(session: "A", reconnect: true, restoration: restoration))
        )
        #expect(
            h.render(messages)
                == ["willFinishLaunching", "didFinishLaunching", "willConnectTo", "Root.loadView", "Root.viewDidLoad"]
                + firstAppearance() + ["reply 1"]
        )
        #expect(messages[2] == .callback(CallbackEvent(.willConnectTo, restoration: restoration)))
    }

    @Test func connectToBackgroundSavesStateInTheReply() {
        let h = Harness()
        #expect(
            h.connect(background: true)
                == [
                    "willFinishLaunching", "didFinishLaunching", "configurationForConnecting", "willConnectTo",
                    "Root.loadView",
                    "Root.viewDidLoad", "sceneDidEnterBackground", "stateRestorationActivity", "reply 1",
                ]
        )
        #expect(h.session.state == .background)
        #expect(
            h.lastResult
                == .object([
                    "stack": .array([.string("Root")]),
                    "size": .object(["width": .int(390), "height": .int(844)]),
                    "notifications": .int(0),
                ])
        )
    }

    @Test func firstForegroundAfterBackgroundConnectIsTheFirstAppearance() {
        let h = Harness()
        h.connect(background: true)
        #expect(h.send(.enterForeground) == firstAppearance() + ["reply 2"])
        #expect(h.session.state == .foregroundActive)
    }

    @Test func laterForegroundTripsRunOnlySceneCallbacks() {
        let h = Harness()
        h.connect()
        #expect(
            h.send(.enterBackground)
                == ["sceneWillResignActive", "sceneDidEnterBackground", "stateRestorationActivity", "reply 2"]
        )
        #expect(h.send(.enterForeground) == ["sceneWillEnterForeground", "sceneDidBecomeActive", "reply 3"])

        // Same after a background launch once the first appearance ran.
        let b = Harness()
        b.connect(background: true)
        b.send(.enterForeground)
        b.send(.enterBackground)
        #expect(b.send(.enterForeground) == ["sceneWillEnterForeground", "sceneDidBecomeActive", "reply 4"])
    }

    @Test func deactivateAndActivate() {
        let h = Harness()
        h.connect()
        #expect(h.send(.deactivate) == ["sceneWillResignActive", "reply 2"])
        #expect(h.session.state == .foregroundInactive)
        #expect(h.send(.activate) == ["sceneDidBecomeActive", "reply 3"])
        #expect(h.session.state == .foregroundActive)
    }

    @Test func backgroundFromInactiveDoesNotResignAgain() {
        let h = Harness()
        h.connect()
        h.send(.deactivate)
        #expect(h.send(.enterBackground) == ["sceneDidEnterBackground", "stateRestorationActivity", "reply 3"])
        #expect(h.lastResult != nil)
    }

    @Test func stateRestorationOperation() {
        let h = Harness()
        h.connect()
        h.send(.push(viewController: "Detail"))
        h.send(.enterBackground)
        // Asked again of a background scene (the only state the model allows it in).
        #expect(h.send(.stateRestoration) == ["stateRestorationActivity", "reply 4"])
        guard case .object(let state)? = h.lastResult else {
            Issue.record("no restoration object")
            return
        }
        #expect(state["stack"] == .array([.string("Root"), .string("Detail")]))
    }

    @Test func pushAndPop() {
        let h = Harness()
        h.connect()
        #expect(h.send(.push(viewController: "Detail")) == push("Detail", over: "Root") + ["reply 2"])
        #expect(h.send(.push(viewController: "More")) == push("More", over: "Detail") + ["reply 3"])
        #expect(
            h.send(.pop)
                == [
                    // Detail laid out when it was pushed and nothing resized since: no layout (§3).
                    "More.viewWillDisappear", "Detail.viewWillAppear", "Detail.viewIsAppearing",
                    "More.viewDidDisappear", "Detail.viewDidAppear", "More.deinit", "reply 4",
                ]
        )
        // Pushing the same name again makes a new instance.
        #expect(h.send(.push(viewController: "More")) == push("More", over: "Detail") + ["reply 5"])
    }

    @Test func pushWhileInactiveIsAllowed() {
        let h = Harness()
        h.connect()
        h.send(.deactivate)
        #expect(h.send(.push(viewController: "Detail")) == push("Detail", over: "Root") + ["reply 3"])
    }

    @Test func resize() {
        let h = Harness()
        h.connect()
        h.send(.push(viewController: "Detail"))
        #expect(
            h.send(.resize(width: 800, height: 600))
                == [
                    // 390 → 800 points wide: compact → regular, so the traits change too.
                    // willTransition(to:with:) before the trait change (c24), then the window scene's
                    // update (c25).
                    "Root.viewWillTransition", "Detail.viewWillTransition", "Root.willTransition",
                    "Detail.willTransition", "Root.traitCollectionDidChange", "Detail.traitCollectionDidChange",
                    "windowSceneDidUpdate", "Detail.viewWillLayoutSubviews", "Detail.viewDidLayoutSubviews",
                    "reply 3",
                ]
        )
        #expect(h.session.scene?.window.size == Size(width: 800, height: 600))
        #expect(
            h.session.scene?.window.navigationStack.topViewController?.view?.size == Size(width: 800, height: 600)
        )
    }

    @Test func memoryWarningRootFirst() {
        let h = Harness()
        h.connect()
        h.send(.push(viewController: "Detail"))
        #expect(
            h.send(.memoryWarning)
                == [
                    "applicationDidReceiveMemoryWarning", "Root.didReceiveMemoryWarning",
                    "Detail.didReceiveMemoryWarning", "reply 3",
                ]
        )
        // Also in the background.
        h.send(.enterBackground)
        #expect(
            h.send(.memoryWarning)
                == [
                    "applicationDidReceiveMemoryWarning", "Root.didReceiveMemoryWarning",
                    "Detail.didReceiveMemoryWarning", "reply 5",
                ]
        )
    }

    @Test func notify() {
        let h = Harness()
        h.connect(background: true)
        let messages = h.sendRaw(.notify(name: "sync", value: .int(3)))
        #expect(
            messages == [
                .callback(CallbackEvent(.didReceiveNotification, notification: "sync", value: .int(3))),
                .reply(id: 2, result: nil),
            ]
        )
        h.send(.stateRestoration)
        guard case .object(let state)? = h.lastResult else {
            Issue.record("no restoration object")
            return
        }
        #expect(state["notifications"] == .int(1))
    }

    @Test func disconnectDeinitsTopFirstAndExits() {
        let h = Harness()
        h.connect()
        h.send(.push(viewController: "Detail"))
        h.send(.push(viewController: "More"))
        h.send(.enterBackground)
        #expect(
            h.send(.disconnect)
                == ["sceneDidDisconnect", "More.deinit", "Detail.deinit", "Root.deinit", "reply 5"]
        )
        #expect(h.session.exitStatus == 0)
        #expect(h.session.state == .unattached)
        // Nothing more is handled.
        #expect(h.send(.memoryWarning) == [])
    }

    @Test func terminateRunsNoDeinits() {
        let h = Harness()
        h.connect()
        h.send(.push(viewController: "Detail"))
        h.send(.enterBackground)
        #expect(h.send(.terminate) == ["sceneDidDisconnect", "applicationWillTerminate", "reply 4"])
        #expect(h.session.exitStatus == 0)
    }

    @Test func backgroundTasks() {
        let h = Harness()
        h.connect()
        h.send(.enterBackground)
        #expect(h.send(.beginBackgroundTask) == ["beginBackgroundTask", "reply 3"])
        // The default expiration handler does not end the task.
        #expect(h.send(.expireBackgroundTask) == ["backgroundTaskExpiration", "reply 4"])
        #expect(h.session.application.currentBackgroundTask != nil)
        #expect(h.send(.endBackgroundTask) == ["endBackgroundTask", "reply 5"])
        #expect(h.session.application.currentBackgroundTask == nil)
        // A new one may start once the old one ended.
        #expect(h.send(.beginBackgroundTask) == ["beginBackgroundTask", "reply 6"])
    }
}
