import HostTools
import Protocol
import SceneModel
import Testing

@testable import HostProcess

/// The stress audit's checks that a refusal changed nothing, on a hand-made trace: timers,
/// whose cancellation leaves no event (so the event's absence must be noticed), and the
/// status a client sees around a refusal.
@Suite struct TimerAuditTests {
    /// The stress configuration's delays: suspension after 20 ms, a background task's
    /// expiration at 240 ms and its kill at 300 ms; `hostctl stress`'s default slack, 1 s.
    private static let timing = TimerAudit.Timing(
        suspendDelay: 0.02,
        expiration: 0.24,
        backgroundTaskLimit: 0.3,
        minimumSlack: StressUnits.seconds(StressOptions().timerSlack)
    )

    /// connect, background, a refused activate (seq 24), foreground (seq 25...28), quit: as
    /// a host with a long suspend delay recorded it.
    private static let lines = [
        #"{"seq":1,"t":0.000184,"type":"host","name":"started","pid":11086}"#,
        #"{"seq":2,"t":0.003787,"type":"process","scene":"S0","event":"spawned","pid":11092}"#,
        #"{"seq":3,"t":0.019300,"type":"callback","scene":"S0","name":"willFinishLaunching"}"#,
        #"{"seq":4,"t":0.019354,"type":"callback","scene":"S0","name":"didFinishLaunching"}"#,
        #"{"seq":5,"t":0.022074,"type":"callback","scene":"S0","name":"configurationForConnecting"}"#,
        #"{"seq":6,"t":0.022237,"type":"callback","scene":"S0","name":"willConnectTo"}"#,
        #"{"seq":7,"t":0.022261,"type":"callback","scene":"S0","name":"loadView","vc":"Root"}"#,
        #"{"seq":8,"t":0.022279,"type":"callback","scene":"S0","name":"viewDidLoad","vc":"Root"}"#,
        #"{"seq":9,"t":0.022302,"type":"callback","scene":"S0","name":"viewWillAppear","vc":"Root"}"#,
        #"{"seq":10,"t":0.022302,"type":"callback","scene":"S0","name":"viewIsAppearing","vc":"Root"}"#,
        // (A neutral host event where an older first appearance had a trait change: the tests name seqs.)
        #"{"seq":11,"t":0.022302,"type":"host","name":"memoryPressure"}"#,
        #"{"seq":12,"t":0.022324,"type":"callback","scene":"S0","name":"viewWillLayoutSubviews","vc":"Root"}"#,
        #"{"seq":13,"t":0.022355,"type":"callback","scene":"S0","name":"viewDidLayoutSubviews","vc":"Root"}"#,
        #"{"seq":14,"t":0.022369,"type":"callback","scene":"S0","name":"sceneWillEnterForeground"}"#,
        #"{"seq":15,"t":0.022378,"type":"state","scene":"S0","from":"unattached","to":"foregroundInactive"}"#,
        #"{"seq":16,"t":0.022392,"type":"callback","scene":"S0","name":"sceneDidBecomeActive"}"#,
        #"{"seq":17,"t":0.022400,"type":"state","scene":"S0","from":"foregroundInactive","to":"foregroundActive"}"#,
        #"{"seq":18,"t":0.022414,"type":"callback","scene":"S0","name":"viewDidAppear","vc":"Root"}"#,
        #"{"seq":19,"t":0.032416,"type":"callback","scene":"S0","name":"sceneWillResignActive"}"#,
        #"{"seq":20,"t":0.032511,"type":"state","scene":"S0","from":"foregroundActive","to":"foregroundInactive"}"#,
        #"{"seq":21,"t":0.032559,"type":"callback","scene":"S0","name":"sceneDidEnterBackground"}"#,
        #"{"seq":22,"t":0.032581,"type":"state","scene":"S0","from":"foregroundInactive","to":"background"}"#,
        #"{"seq":23,"t":0.032595,"type":"callback","scene":"S0","name":"stateRestorationActivity"}"#,
        #"{"seq":24,"t":0.032839,"type":"error","scene":"S0","op":"activate","code":1,"message":"the scene is background, not foregroundInactive"}"#,
        #"{"seq":25,"t":0.033105,"type":"callback","scene":"S0","name":"sceneWillEnterForeground"}"#,
        #"{"seq":26,"t":0.033135,"type":"state","scene":"S0","from":"background","to":"foregroundInactive"}"#,
        #"{"seq":27,"t":0.033150,"type":"callback","scene":"S0","name":"sceneDidBecomeActive"}"#,
        #"{"seq":28,"t":0.033158,"type":"state","scene":"S0","from":"foregroundInactive","to":"foregroundActive"}"#,
        #"{"seq":29,"t":0.033206,"type":"host","name":"quit"}"#,
        #"{"seq":30,"t":0.033392,"type":"callback","scene":"S0","name":"sceneWillResignActive"}"#,
        #"{"seq":31,"t":0.033417,"type":"state","scene":"S0","from":"foregroundActive","to":"foregroundInactive"}"#,
        #"{"seq":32,"t":0.033432,"type":"callback","scene":"S0","name":"sceneDidEnterBackground"}"#,
        #"{"seq":33,"t":0.033449,"type":"state","scene":"S0","from":"foregroundInactive","to":"background"}"#,
        #"{"seq":34,"t":0.033461,"type":"callback","scene":"S0","name":"stateRestorationActivity"}"#,
        #"{"seq":35,"t":0.034905,"type":"callback","scene":"S0","name":"sceneDidDisconnect"}"#,
        #"{"seq":36,"t":0.034989,"type":"state","scene":"S0","from":"background","to":"unattached"}"#,
        #"{"seq":37,"t":0.035020,"type":"callback","scene":"S0","name":"applicationWillTerminate"}"#,
        #"{"seq":38,"t":0.035155,"type":"process","scene":"S0","event":"exited","pid":11092,"reason":"terminated","status":0}"#,
        #"{"seq":39,"t":0.035230,"type":"host","name":"stopped"}"#,
    ]

    private static func trace() throws -> [TraceEvent] {
        try lines.map { try TraceEvent(jsonLine: Array($0.utf8)) }
    }

    /// The requests behind the trace, with the trace times their client saw.
    private static func requests(foregroundSent: Double = 0.033000) -> [StressAudit.Request?] {
        [
            .init(scene: "S0", op: .connect(), outcome: .accepted, sent: 0.0001, completed: 0.0225),
            .init(scene: "S0", op: .background, outcome: .accepted, sent: 0.0323, completed: 0.0327),
            .init(scene: "S0", op: .activate, outcome: .refused, sent: 0.0328, completed: 0.0329),
            .init(
                scene: "S0",
                op: .foreground,
                outcome: .accepted,
                sent: foregroundSent,
                completed: foregroundSent + 0.0003
            ),
        ]
    }

    /// Delays every event from `seq` on by `seconds`.
    private static func delayed(_ history: [TraceEvent], from seq: Int, by seconds: Double) -> [TraceEvent] {
        history.map { event in
            var event = event
            if event.seq >= seq { event.time += seconds }
            return event
        }
    }

    /// Inserts `event` before the event `seq` and renumbers.
    private static func inserting(_ event: TraceEvent, before seq: Int, in history: [TraceEvent]) -> [TraceEvent] {
        var history = history
        history.insert(event, at: history.firstIndex { $0.seq == seq }!)
        for index in history.indices { history[index].seq = index + 1 }
        return history
    }

    private static func audit(
        _ history: [TraceEvent],
        _ requests: [StressAudit.Request?],
        statusChanges: [StressAudit.StatusChange] = [],
        timing: TimerAudit.Timing = timing
    ) -> (found: [String], kept: Int) {
        let log = ViolationLog { _ in }
        var audit = StressAudit(
            history: history,
            requests: requests,
            log: log,
            timing: timing,
            statusChanges: statusChanges
        )
        audit.run()
        return (log.descriptions, audit.timersKept)
    }

    @Test func theRecordedTracePasses() throws {
        let found = Self.audit(try Self.trace(), Self.requests()).found
        #expect(found == [])
    }

    /// The break the check exists for: the refusal cancelled the pending suspension, so the
    /// scene stayed running in the background until its next transition, 5 s later.
    @Test func aRefusalThatCancelledTheSuspensionIsCaughtByItsMissingEvent() throws {
        let history = Self.delayed(try Self.trace(), from: 25, by: 5)
        let found = Self.audit(history, Self.requests(foregroundSent: 5.033)).found
        #expect(found.count == 1, "\(found)")
        #expect(
            found.first?.hasPrefix(
                "seq 24, scene S0: background, worker running, no background task: a suspended event"
            )
                == true,
            "\(found)"
        )
        #expect(found.first?.contains("refusals in between: activate (seq 24)") == true, "\(found)")
        #expect(found.first?.hasSuffix("(on a loaded machine, give a larger --timer-slack-ms)") == true, "\(found)")
    }

    /// `--timer-slack-ms`: the same 5 s-late suspension is within a 6 s slack, and not within 4 s.
    @Test(arguments: [(4.0, false), (6.0, true)]) func theSlackIsTheUsersToWiden(slack: Double, excused: Bool) throws {
        let history = Self.delayed(try Self.trace(), from: 25, by: 5)
        var timing = Self.timing
        timing.minimumSlack = slack
        let found = Self.audit(history, Self.requests(foregroundSent: 5.033), timing: timing).found
        #expect(found.isEmpty == excused, "\(found)")
        if !excused {
            #expect(found.count == 1 && found.first?.contains("(+4.000 s slack)") == true, "\(found)")
        }
    }

    /// The host stood still (nothing recorded while a request of another scene waited): the
    /// stall is what is reported, once, not the timers it held back.
    @Test func aHostWideStallIsReportedAsSuch() throws {
        let history = Self.delayed(try Self.trace(), from: 25, by: 5)
        var requests = Self.requests(foregroundSent: 5.033)
        requests.append(.init(scene: "S1", op: .memoryWarning, outcome: .failed, sent: 0.0326, completed: 5.04))
        let found = Self.audit(history, requests).found
        #expect(found.count == 1, "\(found)")
        #expect(found.first?.hasPrefix("seq 24...25: the host recorded nothing at all for 5.000 s") == true, "\(found)")
        #expect(found.first?.hasSuffix("held back the timers that scenes S0 owed") == true, "\(found)")
    }

    @Test func theQuitEndsTheQuietStretchToo() throws {
        // No foreground: the quit comes 5 s after the refusal and terminates the background scene.
        var history = try Self.trace().filter { !(25...28).contains($0.seq) && !(30...34).contains($0.seq) }
        for index in history.indices { history[index].seq = index + 1 }
        history = Self.delayed(history, from: 25, by: 5)
        let found = Self.audit(history, Array(Self.requests().prefix(3))).found
        #expect(found.count == 1 && found.first?.contains("a suspended event was due") == true, "\(found)")
    }

    @Test func aSuspensionInTimeKeepsTheTimer() throws {
        var history = try Self.trace()
        history = Self.inserting(
            TraceEvent(time: 0.0529, kind: .process, scene: "S0", processEvent: .suspended, pid: 11092),
            before: 25,
            in: history
        )
        history = Self.inserting(
            TraceEvent(time: 5.033, kind: .process, scene: "S0", processEvent: .resumed, pid: 11092),
            before: 26,
            in: history
        )
        history = Self.delayed(history, from: 27, by: 5)
        let audit = Self.audit(history, Self.requests(foregroundSent: 5.032))
        #expect(audit.found == [])
        #expect(audit.kept == 1)
    }

    /// The recorded trace with the foreground 5 s late, as a slow host records it: memory
    /// pressure every 0.2 s meanwhile, and S1's refused `memoryWarning` at its end.
    private static func slowHostTrace() throws -> [TraceEvent] {
        var history = delayed(try trace(), from: 25, by: 5)
        for step in 1...24 {
            let line = #"{"seq":0,"t":\#(0.0328 + 0.2 * Double(step)),"type":"host","name":"memoryPressure"}"#
            history = inserting(try TraceEvent(jsonLine: Array(line.utf8)), before: 25 + step - 1, in: history)
        }
        let refusal =
            #"{"seq":0,"t":5.0331,"type":"error","scene":"S1","op":"memoryWarning","code":1,"message":"the scene is not connected"}"#
        return inserting(try TraceEvent(jsonLine: Array(refusal.utf8)), before: 49, in: history)
    }

    /// A loaded host is slow rather than stuck: it records an event now and then (memory
    /// pressure every 0.2 s here) while S1's request, which it is to refuse, waits 5 s for its
    /// answer. The time it stood still between its events held S0's suspension back as much,
    /// and is not the refusal's doing. The same trickle with nothing waiting is still caught.
    @Test(arguments: [true, false]) func aSlowHostExcusesALateTimer(refusalWaits: Bool) throws {
        let history = try Self.slowHostTrace()
        var requests = Self.requests(foregroundSent: 5.033)
        let sent = refusalWaits ? 0.0326 : 5.033
        requests.append(.init(scene: "S1", op: .memoryWarning, outcome: .refused, sent: sent, completed: 5.0332))
        let found = Self.audit(history, requests).found
        if refusalWaits {
            #expect(found == [])
        } else {
            #expect(found.count == 1 && found.first?.hasPrefix("seq 24, scene S0:") == true, "\(found)")
        }
    }

    /// The trickle with S1's refused request waiting behind a request of S1's own that ran
    /// meanwhile (a transition, a worker's doing): its wait was not the host's, and the late
    /// timer is reported.
    @Test func aRefusalWaitingBehindItsScenesTransitionExcusesNothing() throws {
        let history = try Self.slowHostTrace()
        var requests = Self.requests(foregroundSent: 5.033)
        requests.append(
            .init(scene: "S1", op: .notify(name: "n", value: .null), outcome: .failed, sent: 0.03, completed: 5.03)
        )
        requests.append(.init(scene: "S1", op: .memoryWarning, outcome: .refused, sent: 0.0326, completed: 5.0332))
        let found = Self.audit(history, requests).found
        #expect(found.count == 1 && found.first?.hasPrefix("seq 24, scene S0:") == true, "\(found)")
    }

    /// The next transition was sent within the limit (its first event came late, as under
    /// load): the suspension may have found the scene busy, nothing is owed.
    @Test func aRequestSentInTimeExcusesTheSuspension() throws {
        let history = Self.delayed(try Self.trace(), from: 25, by: 5)
        let found = Self.audit(history, Self.requests(foregroundSent: 0.5)).found
        #expect(found == [])
    }

    @Test func aStatusChangedAroundARefusalIsCaughtWhenNothingElseHappened() throws {
        let before = SceneStatus(
            scene: "S0",
            activation: .background,
            process: .running,
            pid: 11092,
            stack: ["Root"],
            hasBackgroundTask: false,
            isDiscarded: false,
            lastExit: nil
        )
        var after = before
        after.stack = []
        let quiet = StressAudit.StatusChange(id: 2, start: 0.0328, end: 0.03295, before: before, after: after)
        let found = Self.audit(try Self.trace(), Self.requests(), statusChanges: [quiet]).found
        #expect(found.count == 1, "\(found)")
        #expect(
            found.first?.hasPrefix("scene S0: request #2 (activate) was refused, yet the scene's status changed")
                == true
        )

        // The foreground's events (seq 25...) fall inside this window: they explain the change.
        let busy = StressAudit.StatusChange(id: 2, start: 0.0328, end: 0.0332, before: before, after: after)
        #expect(Self.audit(try Self.trace(), Self.requests(), statusChanges: [busy]).found == [])
    }
}
