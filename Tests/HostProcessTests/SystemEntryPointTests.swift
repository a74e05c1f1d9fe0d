import Glibc
import HostTools
import Protocol
import SceneHostTesting
import SceneModel
import Testing

@testable import HostProcess

/// docs/LIFECYCLE.md §3f against real default workers, each case in real iOS's order
/// (real-ios-orders-3 cNN), every swapped pair of its callbacks rejected by the verifier
/// (`PresentationOrderTests.transition`).
@Suite struct SystemEntryPointTests {
    static func configuration() -> HostConfiguration {
        var configuration = TestWorker.configuration()
        configuration.suspendDelay = .milliseconds(20)
        return configuration
    }

    /// c11: a quick action launches a scene with no worker (the shortcut item in its
    /// connection options, no `performActionFor`); a background scene gets it on its way to
    /// the foreground; an active one at once.
    @Test func aQuickActionLaunchesOrReachesTheScene() async throws {
        try await withSceneHost(configuration: Self.configuration()) { host in
            let scene = try host.scene("A")
            let launch = try await PresentationOrderTests.transition(host) {
                try await scene.quickAction("compose", userInfo: .object(["draft": .int(1)]))
            }
            #expect(!launch.contains("cb performActionFor") && launch.contains("cb willConnectTo"))
            let connect = host.trace.history.last { $0.scene == "A" && $0.name == "willConnectTo" }
            #expect(
                connect?.value
                    == .object([
                        "shortcutItem": .object(["type": .string("compose"), "userInfo": .object(["draft": .int(1)])])
                    ])
            )
            try await scene.background()
            try await scene.waitFor(process: .suspended, timeout: TestLimit.event)
            let fromBackground = try await PresentationOrderTests.transition(host) {
                try await scene.quickAction("search")
            }
            #expect(
                fromBackground == [
                    "process resumed", "cb sceneWillEnterForeground", "state background>foregroundInactive",
                    "cb performActionFor", "cb sceneDidBecomeActive", "state foregroundInactive>foregroundActive",
                ]
            )
            let active = try await PresentationOrderTests.transition(host) { try await scene.quickAction("search") }
            #expect(active == ["cb performActionFor"])
        }
    }

    /// c12: a tapped notification launches the app; the notification center's delegate hears
    /// of it while the scene is still foregroundInactive.
    @Test func aTappedNotificationLaunchesTheAppAndArrivesBeforeItIsActive() async throws {
        try await withSceneHost(configuration: Self.configuration()) { host in
            let scene = try host.scene("A")
            let launch = try await PresentationOrderTests.transition(host) {
                try await scene.openNotification(userInfo: .object(["thread": .string("t1")]))
            }
            #expect(
                Array(launch.suffix(6)) == [
                    "cb sceneWillEnterForeground", "state unattached>foregroundInactive",
                    "cb userNotificationCenterDidReceive", "cb sceneDidBecomeActive",
                    "state foregroundInactive>foregroundActive", "cb viewDidAppear Root",
                ]
            )
            let delivered = host.trace.history.last { $0.scene == "A" && $0.name == "userNotificationCenterDidReceive" }
            #expect(
                delivered?.value
                    == .object([
                        "actionIdentifier": .string(SceneOperation.defaultNotificationAction),
                        "userInfo": .object(["thread": .string("t1")]),
                    ])
            )
            let active = try await PresentationOrderTests.transition(host) {
                try await scene.openNotification(userInfo: nil, actionIdentifier: "reply")
            }
            #expect(active == ["cb userNotificationCenterDidReceive"])
        }
    }

    /// c20: a silent push launches an app that does not run into the background, with no
    /// scene connected (`didFinishLaunching`, then the push); the process, the scene's own, is
    /// not what the scene's next connect runs in. After the user ended the app, no push
    /// launches it until the user opens it again.
    @Test func aSilentPushLaunchesAnAppThatDoesNotRunWithNoScene() async throws {
        try await withSceneHost(configuration: Self.configuration()) { host in
            let scene = try host.scene("A")
            let launch = try await PresentationOrderTests.transition(host) {
                try await scene.remoteNotification(userInfo: .object(["sync": .int(1)]))
            }
            #expect(
                launch == [
                    "process spawned", "cb willFinishLaunching", "cb didFinishLaunching",
                    "cb didReceiveRemoteNotification", "process detached",
                ]
            )
            let status = await scene.status()
            #expect(status.activation == .unattached && !status.process.isAlive)
            let pushed = host.trace.history.first { $0.processEvent == .spawned }?.pid
            try await scene.connect()
            #expect(await scene.status().pid != pushed)
            try await scene.terminate()
            await #expect(throws: HostError.self) { try await scene.remoteNotification() }
            try await scene.connect()
            try await scene.remoteNotification()
        }
    }

    /// c20 in an app's process (`connect`'s `app`): a push for a scene that is not connected
    /// reaches the running app with no scene, and a push to an app that does not run launches
    /// its process, which the app's next scene connects in.
    @Test func aSilentPushForAnAppProcessReachesItOrLaunchesIt() async throws {
        try await withSceneHost(configuration: Self.configuration()) { host in
            let a = try host.scene("A")
            let b = try host.scene("B")
            try await a.connect(launch: LaunchParameters(app: "Mail"))
            try await a.background()
            try await a.disconnect()
            let mark = host.lastSeq
            try await a.remoteNotification()
            #expect(
                AppProcessTests.events(host, "A", after: mark) == [
                    "process attached", "cb didReceiveRemoteNotification", "process detached",
                ]
            )
            try await b.connect(launch: LaunchParameters(app: "Mail"))
            #expect(AppProcessTests.events(host, "B", after: mark).first == "process attached")
            #expect(host.verifyTrace() == nil)
        }
    }

    /// c20 (a running app): a silent push reaches a suspended app in the background, which is
    /// resumed for it and suspended again.
    @Test func aSilentPushReachesASuspendedAppInTheBackground() async throws {
        try await withSceneHost(configuration: Self.configuration()) { host in
            let scene = try host.scene("A")
            try await scene.connect()
            try await scene.background()
            try await scene.waitFor(process: .suspended, timeout: TestLimit.event)
            let push = try await PresentationOrderTests.transition(host) {
                try await scene.remoteNotification(userInfo: .object(["sync": .bool(true)]))
            }
            #expect(Array(push.prefix(2)) == ["process resumed", "cb didReceiveRemoteNotification"])
            #expect(await scene.status().activation == .background)
            try await scene.waitFor(process: .suspended, timeout: TestLimit.event)
        }
    }

    /// c22: the middle controller gets no appearance callbacks and is released between the
    /// root's `viewWillAppear` and the top's `viewDidDisappear`.
    @Test func popToRootReleasesTheMiddleControllersSilently() async throws {
        try await withSceneHost(configuration: Self.configuration()) { host in
            let scene = try host.scene("A")
            try await scene.connect(root: "First")
            try await scene.push("Second")
            try await scene.push("Third")
            let pop = try await PresentationOrderTests.transition(host) { try await scene.popToRoot() }
            #expect(
                pop == [
                    "cb viewWillDisappear Third", "cb viewWillAppear First", "cb viewIsAppearing First",
                    "cb deinit Second", "cb viewDidDisappear Third", "cb viewDidAppear First", "cb deinit Third",
                ]
            )
            #expect(await scene.status().stack == ["First"])
            await #expect(throws: HostError.self) { try await scene.popToRoot() }
        }
    }

    /// c21, c28: over full screen and alert leave the presenter alone; a modal sheet only
    /// tells its delegate of a swipe.
    @Test func overFullScreenAndAlertLeaveThePresenterAloneAndAModalSheetStays() async throws {
        try await withSceneHost(configuration: Self.configuration()) { host in
            let scene = try host.scene("A")
            try await scene.connect()
            for style in [PresentationStyle.overFullScreen, .alert] {
                let present = try await PresentationOrderTests.transition(host) {
                    try await scene.present("Cover", style: style)
                }
                #expect(!present.contains { $0.hasSuffix(" Root") }, "\(style): \(present)")
                await #expect(throws: HostError.self) { try await scene.swipeDismiss() }
                let dismiss = try await PresentationOrderTests.transition(host) { try await scene.dismiss() }
                #expect(dismiss == ["cb viewWillDisappear Cover", "cb viewDidDisappear Cover", "cb deinit Cover"])
            }
            try await scene.present("Sheet", modalInPresentation: true)
            let swipe = try await PresentationOrderTests.transition(host) { try await scene.swipeDismiss() }
            #expect(swipe == ["cb presentationControllerDidAttemptToDismiss Sheet"])
            #expect(await scene.status().presented == "Sheet")
        }
    }

    /// c17: a dark scene's controllers flip to light and back after it enters the background;
    /// a light one's do not.
    @Test func aDarkSceneIsSnapshotInBothAppearancesWhenItGoesToTheBackground() async throws {
        try await withSceneHost(configuration: Self.configuration()) { host in
            let dark = try host.scene("A")
            try await dark.connect(launch: LaunchParameters(style: .dark))
            try await dark.push("Detail")
            let background = try await PresentationOrderTests.transition(host) { try await dark.background() }
            // (The worker may be suspended by the time the events are read: 20 ms.)
            #expect(
                background.filter { !$0.hasPrefix("process") } == [
                    "cb sceneWillResignActive", "state foregroundActive>foregroundInactive",
                    "cb sceneDidEnterBackground",
                    "state foregroundInactive>background", "cb stateRestorationActivity",
                    "cb traitCollectionDidChange Root", "cb traitCollectionDidChange Detail",
                    "cb traitCollectionDidChange Root", "cb traitCollectionDidChange Detail",
                ]
            )
            let light = try host.scene("B")
            try await light.connect()
            let mark = host.lastSeq
            try await light.background()
            #expect(!host.compactEvents(of: "B", after: mark).contains { $0.contains("traitCollectionDidChange") })
        }
    }
}

extension SystemEntryPointTests {
    /// c23: a presented sheet presents another; dismissing goes one at a time, top first; the
    /// chain has a limit, past which a present is refused with nothing changed.
    @Test func aPresentedSheetPresentsAnotherUpToTheLimit() async throws {
        try await withSceneHost(configuration: Self.configuration()) { host in
            let scene = try host.scene("A")
            try await scene.connect()
            try await scene.present("First")
            let second = try await PresentationOrderTests.transition(host) { try await scene.present("Second") }
            #expect(
                second == [
                    "cb loadView Second", "cb viewDidLoad Second", "cb viewWillAppear Second",
                    "cb viewIsAppearing Second", "cb viewWillLayoutSubviews Second", "cb viewDidLayoutSubviews Second",
                    "cb viewDidAppear Second",
                ]
            )
            // Full screen over the second sheet: the second disappears, not the first.
            let cover = try await PresentationOrderTests.transition(host) {
                try await scene.present("Cover", style: .fullScreen)
            }
            #expect(cover.contains("cb viewWillDisappear Second") && !cover.contains { $0.hasSuffix(" First") })
            let uncover = try await PresentationOrderTests.transition(host) { try await scene.dismiss() }
            #expect(
                uncover == [
                    "cb viewWillDisappear Cover", "cb viewWillAppear Second", "cb viewIsAppearing Second",
                    "cb viewDidDisappear Cover", "cb viewDidAppear Second", "cb deinit Cover",
                ]
            )
            let swipe = try await PresentationOrderTests.transition(host) { try await scene.swipeDismiss() }
            #expect(swipe.last == "cb deinit Second")
            #expect(await scene.status().presented == "First")
            for index in 2...SceneSnapshot.maximumPresentationDepth { try await scene.present("Sheet\(index)") }
            let limit = await host.refusalReason(of: .present(viewController: "TooMany"), on: scene)
            #expect(limit?.contains("the limit") == true, "\(limit ?? "accepted")")
            #expect(await scene.status().presented == "Sheet\(SceneSnapshot.maximumPresentationDepth)")
            let inspect = try await scene.inspect()
            guard case .array(let below)? = inspect["presentedBelow"] else {
                Issue.record("no presentedBelow in \(inspect)")
                return
            }
            #expect(below.count == SceneSnapshot.maximumPresentationDepth - 1)
            // The disconnect releases every presented controller, the last presented first.
            let mark = host.lastSeq
            try await scene.disconnect()
            let deinits = host.compactEvents(of: "A", after: mark).filter { $0.hasPrefix("cb deinit") }
            #expect(deinits.first == "cb deinit Sheet\(SceneSnapshot.maximumPresentationDepth)")
            #expect(deinits.last == "cb deinit Root")
        }
    }
}
