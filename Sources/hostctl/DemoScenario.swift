import HostProcess
import HostTools
import Protocol

/// The built-in multi-window simulation `hostctl demo` runs.
enum DemoScenario {
    static var scenario: Scenario {
        var limits = Scenario.Limits()
        limits.suspendDelay = .milliseconds(100)
        let steps: [Scenario.Step] = [
            // Three windows: two opened by the user, one launched by the system in background
            // (Music has a tab bar: Library and Radio, each its own navigation stack). Mail is an
            // app whose windows share one process, as on iPadOS (its `app`).
            .scene("Mail", .connect(launch: LaunchParameters(app: "Mail"))),
            // Notes launches straight into landscape: its first layout is at that size.
            .scene("Notes", .connect(launch: LaunchParameters(width: 844, height: 390))),
            .scene("Music", .connect(background: true, launch: LaunchParameters(tabs: ["Library", "Radio"]))),
            // Clock is an app without scene support: only its app delegate hears of the lifecycle.
            .scene("Clock", .connect(launch: LaunchParameters(lifecycle: .app))),
            // Navigation, a rotation and an interruption.
            .scene("Mail", .push(viewController: "Message")),
            .scene("Mail", .resize(width: 1024, height: 768)),
            .scene("Notes", .deactivate),
            // Inactive is running but receiving no events: this tap is refused, nothing delivered.
            Self.refusedTap,
            .scene("Notes", .activate),
            .scene("Clock", .deactivate),
            .scene("Clock", .activate),
            .scene("Clock", .background),
            .scene("Notes", .tap),
            .scene("Notes", .push(viewController: "Editor")),
            // Editor contains a Toolbar child: it hears Editor's appearance and memory warnings after it.
            .scene("Notes", .addChild(viewController: "Toolbar")),
            .scene("Notes", .memoryWarning),
            .scene("Mail", .pop),
            // Mail composes in a page sheet the user swipes away; Notes shows a full-screen modal.
            .scene("Mail", .present(viewController: "Compose")),
            .scene("Mail", .swipeDismiss(completes: true)),
            .scene("Notes", .present(viewController: "Preview", style: .fullScreen)),
            .scene("Notes", .dismiss),
            // The user starts swiping back from Notes' editor, then changes their mind.
            .scene("Notes", .swipeBack(completes: false)),
            // Mail's app opens a second window itself: it connects in Mail's running process (no
            // second launch). It names the session, so that a rerun with the same --state-dir
            // brings that window back (restored) instead of opening yet another beside it.
            .scene("Mail", .notify(name: "openWindow", value: .string("Mail-1"))),
            .waitFor(scene: "Mail-1", condition: .state(.foregroundActive), timeout: .seconds(5)),
            // One memory warning for the app, then every controller of both its windows.
            .scene("Mail", .memoryWarning),
            // Notes goes to background (state saved), gets suspended, receives queued notifications.
            .scene("Notes", .background),
            .waitFor(scene: "Notes", condition: .process(.suspended), timeout: .seconds(5)),
            .scene("Notes", .notify(name: "sync", value: .int(1))),
            .scene("Notes", .notify(name: "sync", value: .int(2))),
            // Music comes to the foreground for the first time: its controllers appear now.
            .scene("Music", .foreground),
            // The user switches Music to its Radio tab: Radio's "will" before Library's.
            .scene("Music", .selectTab(index: 1)),
            // Notes is resumed: the queued notifications arrive first, merged into the latest value.
            .scene("Notes", .foreground),
            // The Notes worker is killed; its session keeps the saved state, and reconnecting restores it.
            .scene("Notes", .kill(signal: 9)),
            .scene("Notes", .connect(root: "Root")),
            // The restored editor is closed: a rerun with the same --state-dir starts from the
            // same stack, not one Editor deeper each time (the stack's limit would end it).
            .scene("Notes", .pop),
            // Mail's first window is closed; its process runs on with Mail-1.
            .scene("Mail", .disconnect),
            // A home-screen quick action reopens it, in the running process: the item comes in
            // its connection options. Sent to the background, Mail gets the next one on its way
            // back to the foreground, before it is active (as on iOS).
            .scene("Mail", .quickAction(type: "com.example.compose")),
            .scene("Mail", .background),
            .scene("Mail", .quickAction(type: "com.example.search")),
            // Clock comes back, then the quit terminates it: applicationWillTerminate.
            .scene("Clock", .foreground),
            .scene("Music", .background),
            .waitFor(scene: "Music", condition: .process(.suspended), timeout: .seconds(5)),
            .quit,
        ]
        let refused = steps.firstIndex(of: Self.refusedTap)
        return Scenario(
            limits: limits,
            entries: steps.indices.map { Scenario.Entry(steps[$0], expectsError: $0 == refused) }
        )
    }

    /// The demo's tap while Notes is inactive (a step that expects its refusal).
    private static let refusedTap = Scenario.Step.scene("Notes", .tap)
}
