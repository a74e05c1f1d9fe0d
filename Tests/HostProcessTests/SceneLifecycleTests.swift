import HostTools
import Protocol
import SceneModel
import Testing

@testable import HostProcess

/// Pure tests of the host's transition table: no processes, no I/O.
@Suite struct SceneLifecycleTests {
    private func connected(background: Bool = false) -> SceneLifecycle {
        var lifecycle = SceneLifecycle()
        lifecycle.launching(root: "Root")
        lifecycle.completed(.connect(ConnectOptions(session: "A", background: background)))
        return lifecycle
    }

    @Test func connectPlansALaunchOnlyWhenNoWorkerIsAlive() {
        var lifecycle = SceneLifecycle()
        #expect(lifecycle.request(.connect()) == .perform([.launch(background: false, root: "Root")]))
        lifecycle = connected()
        guard case .refuse = lifecycle.request(.connect()) else {
            Issue.record("second connect must be refused")
            return
        }
    }

    @Test func illegalRequestsAreRefusedForEveryState() {
        let unattached = SceneLifecycle()
        for op: SceneOperation in [
            .activate, .deactivate, .background, .foreground, .disconnect, .push(viewController: "B"), .pop,
            .memoryWarning, .endBackgroundTask, .kill(signal: 9), .terminate,
        ] {
            guard case .refuse = unattached.request(op) else {
                Issue.record("\(op.name) on an unattached scene must be refused")
                continue
            }
        }
        let active = connected()
        for op: SceneOperation in [.activate, .foreground, .pop, .endBackgroundTask, .resize(width: 0, height: 10)] {
            guard case .refuse = active.request(op) else {
                Issue.record("\(op.name) on an active scene must be refused")
                continue
            }
        }
        let background = connected(background: true)
        for op: SceneOperation in [
            .activate, .deactivate, .background, .push(viewController: "B"), .pop, .resize(width: 1, height: 1),
        ] {
            guard case .refuse = background.request(op) else {
                Issue.record("\(op.name) on a background scene must be refused")
                continue
            }
        }
    }

    @Test func transitionsMoveTheActivationState() {
        var lifecycle = connected()
        #expect(lifecycle.activation == .foregroundActive)
        #expect(lifecycle.request(.deactivate) == .perform([.send(.deactivate)]))
        lifecycle.completed(.deactivate)
        #expect(lifecycle.activation == .foregroundInactive)
        #expect(lifecycle.request(.background) == .perform([.send(.enterBackground)]))
        lifecycle.completed(.enterBackground)
        #expect(lifecycle.activation == .background)
        #expect(lifecycle.shouldSuspend)
        lifecycle.suspended()
        #expect(!lifecycle.shouldSuspend)
        #expect(
            lifecycle.request(.foreground) == .perform([.resume, .deliverQueuedNotifications, .send(.enterForeground)])
        )
    }

    @Test func disconnectFromTheForegroundGoesThroughBackgroundFirst() {
        let lifecycle = connected()
        #expect(lifecycle.request(.disconnect) == .perform([.send(.enterBackground), .disconnectWorker]))
        #expect(lifecycle.request(.terminate) == .perform([.send(.enterBackground), .terminateWorker]))
    }

    @Test func terminateOfASuspendedWorkerIsASilentKill() {
        var lifecycle = connected(background: true)
        lifecycle.suspended()
        #expect(lifecycle.request(.terminate) == .perform([.signal(9, .killed)]))
    }

    @Test func notificationsForASuspendedWorkerAreQueuedAndMergedByName() {
        var lifecycle = connected(background: true)
        lifecycle.suspended()
        #expect(
            lifecycle.request(.notify(name: "sync", value: .int(1)))
                == .perform([.queueNotification(name: "sync", value: .int(1))])
        )
        lifecycle.queue(notification: "sync", value: .int(1))
        lifecycle.queue(notification: "mail", value: .string("x"))
        lifecycle.queue(notification: "sync", value: .int(2))
        let queued = lifecycle.takeQueuedNotifications()
        #expect(queued.map(\.name) == ["sync", "mail"])
        #expect(queued.map(\.value) == [.int(2), .string("x")])
        #expect(lifecycle.takeQueuedNotifications().isEmpty)
    }

    @Test func popNeedsMoreThanTheRoot() {
        var lifecycle = connected()
        guard case .refuse = lifecycle.request(.pop) else {
            Issue.record("pop at root must be refused")
            return
        }
        lifecycle.completed(.push(viewController: "Detail"))
        #expect(lifecycle.stack == ["Root", "Detail"])
        #expect(lifecycle.request(.pop) == .perform([.send(.pop)]))
    }

    @Test func aBackgroundTaskHoldsOffSuspension() {
        var lifecycle = connected(background: true)
        lifecycle.completed(.beginBackgroundTask)
        #expect(!lifecycle.shouldSuspend)
        guard case .refuse = lifecycle.request(.beginBackgroundTask) else {
            Issue.record("a second background task must be refused")
            return
        }
        lifecycle.completed(.endBackgroundTask)
        #expect(lifecycle.shouldSuspend)
    }

    @Test func deathKeepsTheSessionButNotTheWorker() {
        var lifecycle = connected()
        lifecycle.processExited()
        #expect(lifecycle.activation == .unattached)
        #expect(lifecycle.process == .terminated)
        #expect(lifecycle.sessionExists)
        #expect(lifecycle.request(.discard) == .perform([.discardSession]))
        lifecycle.discarded()
        guard case .refuse = lifecycle.request(.foreground) else {
            Issue.record("a discarded session refuses everything but a new session")
            return
        }
        #expect(lifecycle.request(.connect()) == .perform([.launch(background: false, root: "Root")]))
        lifecycle.launching(root: "Root")
        #expect(!lifecycle.isDiscarded)
    }
}
