import HostTools
import Protocol
import SceneHostTesting
import SceneModel
import Testing

@testable import HostProcess

/// LIFECYCLE.md §3 and §3a with real worker processes: every sequence in its exact order,
/// accepted by the verifier, and every swap of two of its callbacks rejected by it.
@Suite struct PresentationOrderTests {
    /// Runs `body` and returns the scene's compact events it caused, after checking that the
    /// whole trace verifies and that swapping any two different callbacks among those events
    /// makes the verifier reject it.
    static func transition(
        _ host: SceneHost,
        sourceLocation: SourceLocation = #_sourceLocation,
        _ body: () async throws -> Void
    ) async throws -> [String] {
        let mark = host.lastSeq
        try await body()
        let history = host.trace.history
        #expect(host.verifyTrace() == nil, sourceLocation: sourceLocation)
        let range = history.indices.filter { history[$0].seq > mark && history[$0].scene == "A" }
        let callbacks = range.filter { history[$0].kind == .callback }
        var swaps = 0
        for (n, i) in callbacks.enumerated() {
            for j in callbacks[(n + 1)...] {
                let a = history[i]
                let b = history[j]
                guard a.name != b.name || a.viewController != b.viewController else { continue }
                var swapped = history
                swapped[i] = b
                swapped[i].seq = a.seq
                swapped[i].time = a.time
                swapped[j] = a
                swapped[j].seq = b.seq
                swapped[j].time = b.time
                swaps += 1
                #expect(
                    firstViolation(swapped) != nil,
                    "swap of \(a.compact) and \(b.compact) accepted",
                    sourceLocation: sourceLocation
                )
            }
        }
        #expect(swaps > 0 || callbacks.count < 2, sourceLocation: sourceLocation)
        return range.map { history[$0].compact }
    }

    @Test func fullScreenPresentAndDismiss() async throws {
        try await withSceneHost(configuration: TestWorker.configuration()) { host in
            let scene = try host.scene("A")
            try await scene.connect()
            let present = try await Self.transition(host) { try await scene.present("Modal", style: .fullScreen) }
            #expect(
                present == [
                    "cb loadView Modal", "cb viewDidLoad Modal", "cb viewWillDisappear Root", "cb viewWillAppear Modal",
                    "cb viewIsAppearing Modal", "cb viewWillLayoutSubviews Modal", "cb viewDidLayoutSubviews Modal",
                    "cb viewDidAppear Modal", "cb viewDidDisappear Root",
                ]
            )
            // The trace names the operation: a present is not a push with two callbacks swapped.
            let presented = host.trace.history.suffix(9)
            #expect(presented.allSatisfy { $0.op == "present" })
            let status = await scene.status()
            #expect(status.stack == ["Root"])
            #expect(status.presented == "Modal" && status.presentation == .fullScreen)

            let dismiss = try await Self.transition(host) { try await scene.dismiss() }
            #expect(
                dismiss == [
                    "cb viewWillDisappear Modal", "cb viewWillAppear Root", "cb viewIsAppearing Root",
                    "cb viewDidDisappear Modal", "cb viewDidAppear Root", "cb deinit Modal",
                ]
            )
            #expect(await scene.status().presented == nil)
        }
    }

    @Test func aPageSheetLeavesThePresenterAlone() async throws {
        try await withSceneHost(configuration: TestWorker.configuration()) { host in
            let scene = try host.scene("A")
            try await scene.connect()
            let present = try await Self.transition(host) { try await scene.present("Sheet") }
            #expect(
                present == [
                    "cb loadView Sheet", "cb viewDidLoad Sheet", "cb viewWillAppear Sheet", "cb viewIsAppearing Sheet",
                    "cb viewWillLayoutSubviews Sheet", "cb viewDidLayoutSubviews Sheet", "cb viewDidAppear Sheet",
                ]
            )
            #expect(await scene.status().presentation == .pageSheet)
            let dismiss = try await Self.transition(host) { try await scene.dismiss() }
            #expect(dismiss == ["cb viewWillDisappear Sheet", "cb viewDidDisappear Sheet", "cb deinit Sheet"])
        }
    }

    @Test func aSwipeDownThatCompletesOrIsCancelled() async throws {
        try await withSceneHost(configuration: TestWorker.configuration()) { host in
            let scene = try host.scene("A")
            try await scene.connect()
            try await scene.present("Sheet")
            let cancelled = try await Self.transition(host) { try await scene.swipeDismiss(completes: false) }
            #expect(
                cancelled == [
                    "cb viewWillDisappear Sheet", "cb viewWillAppear Sheet", "cb viewIsAppearing Sheet",
                    "cb viewDidAppear Sheet",
                ]
            )
            #expect(await scene.status().presented == "Sheet")
            let completed = try await Self.transition(host) { try await scene.swipeDismiss() }
            #expect(
                completed == [
                    "cb viewWillDisappear Sheet", "cb presentationControllerWillDismiss Sheet",
                    "cb viewDidDisappear Sheet", "cb presentationControllerDidDismiss Sheet", "cb deinit Sheet",
                ]
            )
            #expect(await scene.status().presented == nil)
        }
    }

    @Test func aSwipeBackThatIsCancelledThenCompletes() async throws {
        try await withSceneHost(configuration: TestWorker.configuration()) { host in
            let scene = try host.scene("A")
            try await scene.connect()
            try await scene.push("Detail")
            let cancelled = try await Self.transition(host) { try await scene.swipeBack(completes: false) }
            #expect(
                cancelled == [
                    "cb viewWillDisappear Detail", "cb viewWillAppear Root", "cb viewIsAppearing Root",
                    "cb viewWillDisappear Root", "cb viewDidDisappear Root", "cb viewWillAppear Detail",
                    "cb viewIsAppearing Detail", "cb viewDidAppear Detail",
                ]
            )
            #expect(await scene.status().stack == ["Root", "Detail"])
            let completed = try await Self.transition(host) { try await scene.swipeBack() }
            #expect(
                completed == [
                    "cb viewWillDisappear Detail", "cb viewWillAppear Root", "cb viewIsAppearing Root",
                    "cb viewDidDisappear Detail", "cb viewDidAppear Root", "cb deinit Detail",
                ]
            )
            #expect(await scene.status().stack == ["Root"])
        }
    }

    /// §3's correction: a pop lays out the revealed controller only when its layout is dirty.
    @Test func aPopLaysOutOnlyADirtyController() async throws {
        try await withSceneHost(configuration: TestWorker.configuration()) { host in
            let scene = try host.scene("A")
            try await scene.connect()
            try await scene.push("Detail")
            let clean = try await Self.transition(host) { try await scene.pop() }
            #expect(
                clean == [
                    "cb viewWillDisappear Detail", "cb viewWillAppear Root", "cb viewIsAppearing Root",
                    "cb viewDidDisappear Detail", "cb viewDidAppear Root", "cb deinit Detail",
                ]
            )
            try await scene.push("Detail")
            try await scene.resize(width: 800, height: 600)
            let dirty = try await Self.transition(host) { try await scene.pop() }
            #expect(
                dirty == [
                    "cb viewWillDisappear Detail", "cb viewWillAppear Root", "cb viewIsAppearing Root",
                    "cb viewWillLayoutSubviews Root", "cb viewDidLayoutSubviews Root", "cb viewDidDisappear Detail",
                    "cb viewDidAppear Root", "cb deinit Detail",
                ]
            )
            // The same for a full-screen dismissal over a resized presenter.
            try await scene.present("Modal", style: .fullScreen)
            try await scene.resize(width: 390, height: 844)
            let dismiss = try await Self.transition(host) { try await scene.dismiss() }
            #expect(
                dismiss == [
                    "cb viewWillDisappear Modal", "cb viewWillAppear Root", "cb viewIsAppearing Root",
                    "cb viewWillLayoutSubviews Root", "cb viewDidLayoutSubviews Root", "cb viewDidDisappear Modal",
                    "cb viewDidAppear Root", "cb deinit Modal",
                ]
            )
        }
    }

    /// A presented controller gets size changes and memory warnings (last), and deinits first.
    @Test func thePresentedControllerIsOneOfTheLoadedOnes() async throws {
        try await withSceneHost(configuration: TestWorker.configuration()) { host in
            let scene = try host.scene("A")
            try await scene.connect()
            try await scene.push("Detail")
            try await scene.present("Sheet")
            let resize = try await Self.transition(host) { try await scene.resize(width: 800, height: 600) }
            #expect(
                resize == [
                    "cb viewWillTransition Root", "cb viewWillTransition Detail", "cb viewWillTransition Sheet",
                    "cb willTransition Root", "cb willTransition Detail", "cb willTransition Sheet",
                    "cb traitCollectionDidChange Root", "cb traitCollectionDidChange Detail",
                    "cb traitCollectionDidChange Sheet", "cb windowSceneDidUpdate", "cb viewWillLayoutSubviews Sheet",
                    "cb viewDidLayoutSubviews Sheet",
                ]
            )
            // The same size classes (regular both ways): no trait change.
            let sameClasses = try await Self.transition(host) { try await scene.resize(width: 1024, height: 768) }
            #expect(
                sameClasses == [
                    "cb viewWillTransition Root", "cb viewWillTransition Detail", "cb viewWillTransition Sheet",
                    "cb windowSceneDidUpdate", "cb viewWillLayoutSubviews Sheet", "cb viewDidLayoutSubviews Sheet",
                ]
            )
            let warning = try await Self.transition(host) { try await scene.memoryWarning() }
            #expect(
                warning == [
                    "cb applicationDidReceiveMemoryWarning", "cb didReceiveMemoryWarning Root",
                    "cb didReceiveMemoryWarning Detail", "cb didReceiveMemoryWarning Sheet",
                ]
            )
            let mark = host.lastSeq
            try await scene.disconnect()
            let deinits = host.compactEvents(of: "A", after: mark).filter { $0.hasPrefix("cb deinit") }
            #expect(deinits == ["cb deinit Sheet", "cb deinit Detail", "cb deinit Root"])
        }
    }

    /// Illegal requests are refused with a reason naming what they need, and change nothing.
    @Test func illegalPresentationsAreRefusedAndChangeNothing() async throws {
        try await withSceneHost(configuration: TestWorker.configuration()) { host in
            let scene = try host.scene("A")
            try await scene.connect()
            func refusal(_ op: SceneOperation) async -> String? { await host.refusalReason(of: op, on: scene) }
            #expect(await refusal(.dismiss) == "nothing is presented")
            #expect(await refusal(.swipeDismiss()) == "nothing is presented")
            #expect(await refusal(.swipeBack()) == "cannot pop the root view controller")
            try await scene.present("Modal", style: .fullScreen)
            #expect(await refusal(.swipeDismiss()) == "the presented view controller is fullScreen, not pageSheet")
            let covered = "a view controller is presented (fullScreen): dismiss it first"
            #expect(await refusal(.push(viewController: "Detail")) == covered)
            #expect(await refusal(.pop) == covered)
            try await scene.background()
            try await scene.waitFor(process: .suspended, timeout: TestLimit.event)
            #expect(await refusal(.dismiss) == "the scene is background, not foregroundActive or foregroundInactive")
            #expect(
                await refusal(.present(viewController: "Other"))
                    == "the scene is background, not foregroundActive or foregroundInactive"
            )
        }
    }
}

/// The timeline draws presentations: a span per presented controller, with its style.
@Suite struct PresentationTimelineTests {
    @Test func presentationsAreSpansOfTheirScene() async throws {
        let host = try await withSceneHost(configuration: TestWorker.configuration()) { host in
            let scene = try host.scene("A")
            try await scene.connect()
            try await scene.present("Sheet")
            try await scene.swipeDismiss()
            try await scene.present("Modal", style: .fullScreen)
            try await scene.kill()
            return host
        }
        let tracks = SceneTracks(events: host.trace.history)
        let spans = try #require(tracks.track(for: "A")).presentations
        #expect(spans.map(\.label) == ["Sheet (pageSheet)", "Modal (fullScreen)"])
        #expect(spans.allSatisfy { !$0.isOpen && $0.end >= $0.start })
        let svg = SVGTimeline.render(tracks)
        #expect(svg.contains("presented Sheet (pageSheet)") && svg.contains("presented controller"))
        let perfetto = String(decoding: PerfettoExport.render(host.trace.history), as: UTF8.self)
        #expect(perfetto.contains("presented Modal (fullScreen)"))
    }
}

/// The app presents and dismisses from its own code (LIFECYCLE.md §3b): the host follows it,
/// the trace marks its callbacks `origin: app`, and a swapped pair is still rejected.
@Suite struct AppPresentationTests {
    @Test func theAppPresentsAndDismissesItself() async throws {
        try await withSceneHost(configuration: TestWorker.configuration()) { host in
            let scene = try host.scene("A")
            try await scene.connect()
            var mark = host.lastSeq
            try await scene.notify("openSheet", value: .string("fullScreen:Compose"))
            try await host.controller("A").waitUntil("the app's present", timeout: TestLimit.event) {
                $0.presented == "Compose"
            }
            let presented = host.trace.history.filter { $0.seq > mark && $0.origin == "app" }
            #expect(
                presented.map(\.compact) == [
                    "cb loadView Compose", "cb viewDidLoad Compose", "cb viewWillDisappear Root",
                    "cb viewWillAppear Compose", "cb viewIsAppearing Compose", "cb viewWillLayoutSubviews Compose",
                    "cb viewDidLayoutSubviews Compose", "cb viewDidAppear Compose", "cb viewDidDisappear Root",
                ]
            )
            #expect(presented.allSatisfy { $0.op == "present" })
            #expect(await scene.status().presentation == .fullScreen)
            // While the app's sheet is up, the host's own navigation is refused.
            await #expect(throws: HostError.self) { try await scene.push("Detail") }

            mark = host.lastSeq
            try await scene.notify("closeSheet", value: .null)
            try await host.controller("A").waitUntil("the app's dismiss", timeout: TestLimit.event) {
                $0.presented == nil
            }
            let dismissed = host.trace.history.filter { $0.seq > mark && $0.origin == "app" }
            #expect(
                dismissed.map(\.compact) == [
                    "cb viewWillDisappear Compose", "cb viewWillAppear Root", "cb viewIsAppearing Root",
                    "cb viewDidDisappear Compose", "cb viewDidAppear Root", "cb deinit Compose",
                ]
            )
            // And the host can dismiss what the app presented.
            try await scene.notify("openSheet", value: .string("Sheet"))
            try await host.controller("A").waitUntil("the app's sheet", timeout: TestLimit.event) {
                $0.presented == "Sheet"
            }
            try await scene.swipeDismiss()
            #expect(await scene.status().presented == nil)
        }
    }

    /// Sheets the app presents on sheets: the last presented dismisses itself alone; the
    /// stack's top dismisses every one, one dismissal each, the top first, and the host
    /// follows each.
    @Test func aDismissFromTheStackDismissesEverySheetTopFirst() async throws {
        let host = try await withSceneHost(configuration: TestWorker.configuration()) { host in
            let scene = try host.scene("A")
            try await scene.connect()
            for name in ["First", "Second", "fullScreen:Third", "Fourth"] {
                try await scene.notify("openSheet", value: .string(name))
            }
            try await host.controller("A").waitUntil("four sheets", timeout: TestLimit.event) {
                $0.presented == "Fourth"
            }
            var mark = host.lastSeq
            try await scene.notify("closeSheet", value: .null)
            try await host.controller("A").waitUntil("the top sheet gone", timeout: TestLimit.event) {
                $0.presented == "Third"
            }
            #expect(
                host.trace.history.filter { $0.seq > mark && $0.name == "deinit" }.map(\.viewController) == ["Fourth"]
            )

            mark = host.lastSeq
            try await scene.notify("closeAllSheets", value: .null)
            try await host.controller("A").waitUntil("every sheet gone", timeout: TestLimit.event) {
                $0.presented == nil
            }
            let app = host.trace.history.filter { $0.seq > mark && $0.origin == "app" }
            #expect(
                app.map(\.compact) == [
                    "cb viewWillDisappear Third", "cb viewWillAppear Second", "cb viewIsAppearing Second",
                    "cb viewDidDisappear Third", "cb viewDidAppear Second", "cb deinit Third",
                    "cb viewWillDisappear Second", "cb viewDidDisappear Second", "cb deinit Second",
                    "cb viewWillDisappear First", "cb viewDidDisappear First", "cb deinit First",
                ],
                "\(app.map(\.compact))"
            )
            try await scene.push("Detail")
            return host
        }
        #expect(host.verifyTrace() == nil)
    }
}

/// The default worker saves what it presents with its state, and a reconnect shows it again.
@Suite struct PresentationRestorationTests {
    @Test func aKilledSceneComesBackWithItsSheet() async throws {
        try await withSceneHost(configuration: TestWorker.configuration()) { host in
            let scene = try host.scene("A")
            try await scene.connect()
            try await scene.push("Detail")
            try await scene.present("Compose", style: .fullScreen)
            try await scene.background()
            try await scene.kill()
            let mark = host.lastSeq
            try await scene.connect()
            try await host.controller("A").waitUntil("the restored presentation", timeout: TestLimit.launch) {
                $0.presented == "Compose"
            }
            let status = await scene.status()
            #expect(status.stack == ["Root", "Detail"] && status.presentation == .fullScreen)
            let restored = host.trace.history.filter { $0.seq > mark && $0.op == "present" }
            #expect(restored.first?.compact == "cb loadView Compose" && restored.allSatisfy { $0.origin == "app" })
        }
    }
}

/// The client commands: `present`, `swipeBack --completes false`, and `ps` showing the
/// presentation.
@Suite struct PresentationClientTests {
    @Test func theClientCommandsPresentAndSwipe() async throws {
        let directory = makeTemporaryDirectory()
        let server = try await TestServer.start(directory: directory)
        defer { server.kill() }
        #expect(try await server.run("connect", "A").status == 0)
        #expect(try await server.run("push", "A", "--vc", "Detail").status == 0)
        #expect(try await server.run("swipeBack", "A", "--completes", "false").status == 0)
        #expect(try await server.run("present", "A", "--vc", "Compose", "--style", "fullScreen").status == 0)
        let table = try await server.run("ps")
        #expect(table.stdout.contains("PRESENTED") && table.stdout.contains("Compose (fullScreen)"), "\(table.stdout)")
        let row = try #require(try await server.scenes()["A"])
        #expect(row.stack == ["Root", "Detail"] && row.presented == "Compose" && row.presentation == .fullScreen)
        // A full-screen controller cannot be swiped down; a bad flag value is a usage error.
        #expect(try await server.run("swipeDismiss", "A").status == 3)
        #expect(try await server.run("swipeDismiss", "A", "--completes", "maybe").status == 2)
        #expect(try await server.run("dismiss", "A").status == 0)
        #expect(try await server.scenes()["A"]?.presented == nil)
        try await server.quit()
    }
}

/// The verifier holds the trace to §3's layout rule and §3a's orders on its own.
@Suite struct PresentationGrammarTests {
    /// Connect, push Detail over Root.
    static func pushed() -> TraceBuilder {
        var t = TraceBuilder()
        t.connectToForeground()
        t.push("Detail", over: "Root")
        return t
    }

    static func pop(_ t: inout TraceBuilder, layout: Bool) {
        t.callback(.viewWillDisappear, "Detail")
        t.callback(.viewWillAppear, "Root")
        t.callback(.viewIsAppearing, "Root")
        if layout {
            t.callback(.viewWillLayoutSubviews, "Root")
            t.callback(.viewDidLayoutSubviews, "Root")
        }
        t.callback(.viewDidDisappear, "Detail")
        t.callback(.viewDidAppear, "Root")
        t.callback(.deinit, "Detail")
    }

    @Test func aCleanControllerMustNotLayOutOnPopAndADirtyOneMust() {
        var clean = Self.pushed()
        Self.pop(&clean, layout: false)
        #expect(firstViolation(clean.events) == nil)
        var cleanWithLayout = Self.pushed()
        Self.pop(&cleanWithLayout, layout: true)
        #expect(firstViolation(cleanWithLayout.events)?.got == "callback viewWillLayoutSubviews (vc Root)")

        var dirty = Self.pushed()
        dirty.callback(.viewWillTransition, "Root")
        dirty.callback(.viewWillTransition, "Detail")
        dirty.callback(.viewWillLayoutSubviews, "Detail")
        dirty.callback(.viewDidLayoutSubviews, "Detail")
        var dirtyWithout = dirty
        Self.pop(&dirty, layout: true)
        #expect(firstViolation(dirty.events) == nil)
        Self.pop(&dirtyWithout, layout: false)
        #expect(firstViolation(dirtyWithout.events)?.got == "callback viewDidDisappear (vc Detail)")
    }

    @Test func aPresentIsKnownByItsOpAndAPushIsNot() {
        // A full-screen order without `op: present` is a push with a swapped pair.
        var t = TraceBuilder()
        t.connectToForeground()
        for (name, vc) in [
            (CallbackName.loadView, "Modal"), (.viewDidLoad, "Modal"), (.viewWillDisappear, "Root"),
            (.viewWillAppear, "Modal"), (.viewIsAppearing, "Modal"), (.viewWillLayoutSubviews, "Modal"),
            (.viewDidLayoutSubviews, "Modal"), (.viewDidAppear, "Modal"), (.viewDidDisappear, "Root"),
        ] {
            t.add(TraceEvent(kind: .callback, scene: "A", name: name.rawValue, viewController: vc, op: "present"))
        }
        #expect(firstViolation(t.events) == nil)
        var unmarked = t
        for index in unmarked.events.indices where unmarked.events[index].op != nil {
            unmarked.events[index].op = nil
        }
        #expect(firstViolation(unmarked.events)?.got == "callback viewDidAppear (vc Modal)")
        // And a push cannot be passed off as a present.
        var pushAsPresent = TraceBuilder()
        pushAsPresent.connectToForeground()
        pushAsPresent.push("Detail", over: "Root")
        for index in pushAsPresent.events.indices.suffix(9) { pushAsPresent.events[index].op = "present" }
        #expect(firstViolation(pushAsPresent.events) != nil)
    }
}

/// `hostctl ps` shows what is presented by the name an app or client gave it, which is any
/// text: a terminal escape in it is printed escaped, as `events` and errors print it.
@Suite struct PresentedColumnTests {
    @Test func psEscapesTerminalControlsInAPresentedControllersName() async throws {
        let server = try await TestServer.start()
        defer { server.kill() }
        #expect(try await server.run("connect", "A").status == 0)
        // Clears the screen and rings the bell if printed raw.
        let name = "\u{1B}[2JEvil\u{07}"
        let present = try await server.run("present", "A", "--vc", name)
        #expect(present.status == 0, "\(present.stderr)")
        // The host keeps the name as given (`--json` carries it as a JSON string).
        #expect(try await server.scenes()["A"]?.presented == name)
        let ps = try await server.run("ps")
        #expect(ps.status == 0, "\(ps.stderr)")
        #expect(!ps.stdout.utf8.contains(0x1B) && !ps.stdout.utf8.contains(0x07), "\(ps.stdout.debugDescription)")
        #expect(ps.stdout.contains(#"\u001B[2JEvil\u0007 ("#), "\(ps.stdout.debugDescription)")
        try await server.quit()
    }
}
