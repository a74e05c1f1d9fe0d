import HostProcess
import Protocol

/// One fuzz run: one app instance (a scene of its own in the fuzzer's host), launched with
/// `root`, driven through steps given or chosen at random from what is legal and what the
/// screen offers, checked after every step.
struct FuzzRun: Sendable {
    let host: SceneHost
    let scene: String
    let root: String
    let worker: [String]
    let invariants: [FuzzInvariant]
    /// How long a background app may take to be suspended (its suspend delay, plus a
    /// background task it may hold, plus slack).
    let suspendTimeout: Duration

    /// A run of `configuration`'s app as scene `scene` of `host`.
    init(_ configuration: FuzzConfiguration, host: SceneHost, scene: String) {
        self.host = host
        self.scene = scene
        root = configuration.root
        worker = configuration.worker
        invariants = configuration.invariants
        suspendTimeout = Fuzzer.suspendTimeout(configuration.host)
    }

    /// Runs exactly `steps` (a replay, a shrinking try).
    func run(_ steps: [FuzzStep]) async -> (steps: [FuzzStep], failure: FuzzFailure?) {
        var unused = SeededGenerator(seed: 0)
        return await run(steps, count: steps.count, generator: &unused)
    }

    /// Runs `given` steps, or `count` chosen with `generator`; returns the steps it ran and
    /// the first failure. The scene is terminated and discarded afterwards.
    func run(
        _ given: [FuzzStep]?,
        count: Int,
        generator: inout SeededGenerator
    ) async -> (
        steps: [FuzzStep], failure: FuzzFailure?
    ) {
        var executed: [FuzzStep] = []
        var failure: FuzzFailure?
        // Only this run's events are looked at: from here on, not the whole history.
        let start = host.trace.lastSeq + 1
        do {
            let handle = try host.scene(scene)
            try await handle.connect(root: root, worker: worker)
            let total = given?.count ?? count
            for index in 0..<total {
                let step: FuzzStep
                if let given {
                    step = given[index]
                } else {
                    step = await choose(on: handle, &generator)
                }
                executed.append(step)
                if let broken = await perform(step, on: handle) {
                    // The app's death says more than the step that ran into it.
                    failure = exitFailure(since: start) ?? broken
                    break
                }
                if let broken = exitFailure(since: start) {
                    failure = broken
                    break
                }
                if let broken = await screenFailure(handle, since: start) {
                    failure = broken
                    break
                }
            }
            if failure == nil { failure = traceFailure(since: start) }
            if failure == nil { failure = exitFailure(since: start) }
            // Terminated, not discarded: a discard would reach the next run's app
            // (`didDiscardSceneSessions`), and runs must not depend on each other. Then
            // forgotten whole, so that a long session holds nothing per run.
            try? await handle.terminate()
            _ = await host.forgetEndedScene(scene)
        } catch {
            failure = FuzzFailure(kind: .killed, message: "the run could not start: \(error)", steps: executed)
            switch error as? HostError {
            case .workerExited(_, _, _, let detail)? where detail.beforeReady: failure?.neverStarted = true
            case .spawnFailed?: failure?.neverStarted = true
            default: break
            }
        }
        guard var found = failure else { return (executed, nil) }
        found.steps = executed
        found.events = events(since: start)
        return (executed, found)
    }

    // MARK: - Steps

    private func perform(_ step: FuzzStep, on handle: SceneHandle) async -> FuzzFailure? {
        do {
            switch step {
            case .op(let op):
                try await handle.perform(op)
            case .systemKill:
                return try await systemKill(handle)
            case .suspension:
                return await suspension(handle)
            }
        } catch let error as HostError {
            switch error {
            // Not legal now, or the screen had no such target: the step did nothing.
            case .refused, .workerError, .requestTooLarge, .invalidParameter:
                return nil
            default:
                return FuzzFailure(kind: .killed, message: "\(step): \(error)", steps: [])
            }
        } catch {
            return FuzzFailure(kind: .killed, message: "\(step): \(error)", steps: [])
        }
        return nil
    }

    /// The system kills the suspended app; the user comes back: the screen must be the one
    /// the user left.
    private func systemKill(_ handle: SceneHandle) async throws -> FuzzFailure? {
        let status = await handle.status()
        guard status.process == .running || status.process == .suspended, status.activation != .unattached else {
            return nil
        }
        var left: JSONValue?
        let mark = host.trace.lastSeq
        if status.activation == .foregroundActive, status.process == .running {
            left = try await handle.inspect()
            try await handle.background()
        } else if status.activation.isForeground {
            try await handle.background()
        }
        if await handle.status().process != .suspended, let broken = await awaitSuspension(after: mark) {
            return broken
        }
        try await handle.kill()
        try await handle.connect(root: root, worker: worker)
        guard let left else { return nil }
        let restored = try await handle.inspect()
        guard left.restorable != restored.restorable else { return nil }
        return FuzzFailure(
            kind: .restoration,
            message: "after the system killed the suspended app, the user came back to another screen",
            steps: [],
            left: left,
            restored: restored
        )
    }

    /// The app stays in the background until the system suspends it (a step from the
    /// background only): its timers stop there, and fire late when it is resumed.
    private func suspension(_ handle: SceneHandle) async -> FuzzFailure? {
        let mark = host.trace.lastSeq
        let status = await handle.status()
        guard status.activation == .background, status.process == .running else { return nil }
        return await awaitSuspension(after: mark)
    }

    /// Waits for the background app's suspension (events after `mark`); nil once suspended,
    /// else the failure: the app died, or was not suspended in time.
    private func awaitSuspension(after mark: Int) async -> FuzzFailure? {
        guard await suspendedOrExited(after: mark) else {
            return exitFailure(since: mark + 1)
                ?? FuzzFailure(
                    kind: .killed,
                    message: "the app was not suspended within \(suspendTimeout) in the background",
                    steps: []
                )
        }
        return nil
    }

    /// Waits, through the trace, until the scene's worker is suspended (true) or has exited
    /// (false), at most `suspendTimeout`: a worker the system kills in the background (a
    /// background task never ended) fails the step at once, not at the timeout.
    private func suspendedOrExited(after mark: Int) async -> Bool {
        let deadline = ContinuousClock.now + suspendTimeout
        var next = mark + 1
        while ContinuousClock.now < deadline {
            let batch = host.trace.heldEvents(fromSeq: next, maximumBytes: 1 << 20)
            if let last = batch.last, last.seq >= next {
                for event in batch where event.scene == scene {
                    if event.processEvent == .suspended { return true }
                    if event.processEvent == .exited { return false }
                }
                next = last.seq + 1
                continue
            }
            // Nothing new: wait for the next event, at most until the deadline.
            let seen = next - 1
            let trace = host.trace
            let arrived = await withTaskGroup(of: Bool.self) { group in
                group.addTask { await trace.waitForEvent(after: seen) }
                group.addTask {
                    try? await Task.sleep(until: deadline, clock: .continuous)
                    return false
                }
                let first = await group.next() ?? false
                group.cancelAll()
                return first
            }
            if !arrived { return false }
        }
        return false
    }

    /// A step chosen at random from what is legal in the scene's state and what its screen offers.
    private func choose(on handle: SceneHandle, _ generator: inout SeededGenerator) async -> FuzzStep {
        let status = await handle.status()
        switch (status.activation, status.process) {
        case (.foregroundActive, .running):
            let screen = (try? await handle.inspect()).map(FuzzScreen.init) ?? FuzzScreen(.null)
            var choices: [(weight: Int, step: FuzzStep)] = [
                (2, .op(.background)), (1, .op(.deactivate)), (1, .op(.memoryWarning)), (3, .systemKill),
                (1, .op(.resize(width: generator.chance(0.5) ? 390 : 1024, height: 844))),
                // A crash or a kill while the app runs: the next step launches it again.
                (1, .op(.kill(signal: SIGKILLNumber))),
            ]
            if !screen.alertActions.isEmpty {
                let title = screen.alertActions[generator.next(below: screen.alertActions.count)]
                choices.append((8, .op(.user(.alertAction(title: title)))))
            } else if screen.presented != nil {
                choices.append((2, .op(.swipeDismiss(completes: true))))
                choices.append((1, .op(.dismiss)))
            } else if screen.stackDepth > 1 {
                choices.append((2, .op(.pop)))
                choices.append((1, .op(.swipeBack(completes: generator.chance(0.7)))))
                if screen.stackDepth > 2 { choices.append((1, .op(.popToRoot))) }
            }
            // The system's ways in (LIFECYCLE.md §3f), as the app is used.
            choices.append((1, Self.systemEntry(&generator)))
            if screen.rowCount > 0 {
                choices.append((4, .op(.user(.selectRow(section: 0, row: generator.next(below: screen.rowCount))))))
                // A full swipe: the row's first swipe action (its Delete), where it has one.
                let row = generator.next(below: screen.rowCount)
                choices.append((1, .op(.user(.swipeRow(section: 0, row: row, edge: .trailing, action: nil)))))
                if screen.tableEditing, screen.rowCount > 1 {
                    let to = (row + 1 + generator.next(below: screen.rowCount - 1)) % screen.rowCount
                    choices.append((2, .op(.user(.moveRow(section: 0, row: row, toSection: 0, toRow: to)))))
                }
            }
            if !screen.fields.isEmpty {
                let field = screen.fields[generator.next(below: screen.fields.count)]
                let text = Self.texts[generator.next(below: Self.texts.count)]
                choices.append((4, .op(.user(.typeText(field: field, text: text)))))
            }
            if !screen.controls.isEmpty {
                let control = screen.controls[generator.next(below: screen.controls.count)]
                choices.append((4, .op(.user(.tapControl(control: control)))))
            }
            return Self.pick(choices, &generator)
        case (.foregroundInactive, _):
            return Self.pick([(3, .op(.activate)), (1, .op(.background))], &generator)
        case (.background, _):
            // The same choices whether or not the suspension came yet (a timer's race): a
            // seed then gives the same run however loaded the machine is (a suspension of a
            // suspended app is a step that waits for nothing).
            return Self.pick(
                [
                    (3, .op(.foreground)), (2, .systemKill), (1, .op(.memoryWarning)),
                    (1, Self.systemEntry(&generator)),
                    (1, .op(.remoteNotification(userInfo: .object(["fuzz": .bool(true)])))), (2, .suspension),
                ],
                &generator
            )
        default:
            return .op(.connect(root: root, worker: worker))
        }
    }

    /// A quick action or a tapped notification: the app is brought to the foreground with it.
    private static func systemEntry(_ generator: inout SeededGenerator) -> FuzzStep {
        generator.chance(0.5)
            ? .op(.quickAction(type: "fuzz.quickAction"))
            : .op(.openNotification(userInfo: .object(["fuzz": .bool(true)])))
    }

    /// What the user types: nothing, a word, a sentence, emoji.
    static let texts = ["", "a", "Draft 7", "Groceries for the weekend", "🙂 ok", "x"]

    private static func pick(_ choices: [(weight: Int, step: FuzzStep)], _ generator: inout SeededGenerator) -> FuzzStep
    {
        var roll = generator.next(below: choices.reduce(0) { $0 + $1.weight })
        for choice in choices {
            if roll < choice.weight { return choice.step }
            roll -= choice.weight
        }
        return choices[0].step
    }

    // MARK: - Invariants

    /// The run's scene's events so far, read from the history in batches from `start`.
    private func events(since start: Int) -> [TraceEvent] {
        var events: [TraceEvent] = []
        var next = start
        while true {
            let batch = host.trace.heldEvents(fromSeq: next, maximumBytes: 1 << 20)
            guard let last = batch.last, last.seq >= next else { return events }
            events += batch.lazy.filter { $0.scene == scene }
            next = last.seq + 1
        }
    }

    /// The app died without the fuzzer killing it.
    private func exitFailure(since start: Int) -> FuzzFailure? {
        for event in events(since: start) where event.processEvent == .exited {
            switch event.reason {
            case .killed?, .disconnected?, .terminated?, nil:
                continue
            case let reason?:
                return FuzzFailure(
                    kind: .killed,
                    message: "the app's worker ended with reason \(reason) in a legal lifecycle",
                    steps: []
                )
            }
        }
        return nil
    }

    /// The scene's trace against the lifecycle model.
    private func traceFailure(since start: Int) -> FuzzFailure? {
        var checker = SceneTraceChecker()
        for event in events(since: start) {
            if let violation = checker.check(event) {
                return FuzzFailure(kind: .trace, message: "\(violation)", steps: [])
            }
        }
        return nil
    }

    /// What the screen says after a step the scene is active in: a timer that fired while
    /// the app could have been suspended (the tree's `backgroundTimers`), then the
    /// user's invariants.
    private func screenFailure(_ handle: SceneHandle, since start: Int) async -> FuzzFailure? {
        let status = await handle.status()
        guard status.activation == .foregroundActive, status.process == .running,
            let tree = try? await handle.inspect()
        else { return nil }
        if case .int(let count)? = tree["backgroundTimers"], count > 0 {
            return FuzzFailure(
                kind: .timer,
                message: "a timer was still scheduled when the app could be suspended (in the background, no "
                    + "background task): on a device it fires late, on resume, in the background (stop it in "
                    + "sceneDidEnterBackground, or on didEnterBackgroundNotification)",
                steps: []
            )
        }
        guard !invariants.isEmpty else { return nil }
        let events = events(since: start)
        for invariant in invariants {
            if let problem = invariant.check(tree, events) {
                return FuzzFailure(kind: .invariant, message: "\(invariant.name): \(problem)", steps: [])
            }
        }
        return nil
    }
}
