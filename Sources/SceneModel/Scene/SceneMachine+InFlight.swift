import Protocol

/// The work a scene carries out one item at a time: what is queued (`Work`), the item in
/// flight (`InFlight`) with the steps it has left (`Steps`), and what it waits for before its
/// next step (`Wait`).
extension SceneMachine {
    /// Something queued for the scene, carried out one at a time in arrival order.
    package enum Work: Sendable {
        case request(SceneOperation, CallerID)
        /// Reconnect after an unexpected death (restart policy).
        case restart(background: Bool, root: String)
        /// The suspend timer fired while something was in flight.
        case suspend
        /// The background task's expiration time came.
        case expireBackgroundTask
        /// Tell the running worker's app delegate of sessions discarded elsewhere.
        case deliverDiscards([String])
        /// Record an event about this scene that comes from outside its queue (the host
        /// refusing a request of its app), between two transitions, never inside one; the
        /// caller, if any, is resumed then.
        case recordInTurn(TraceEvent, CallerID?)
        /// Resume the caller: everything queued before it is done.
        case settle(CallerID)
        /// Another scene of the app resumed the app's process: deliver what was queued for
        /// this scene while it was suspended.
        case deliverQueuedNotifications
    }

    /// What the step in flight waits for.
    package enum Wait: Sendable, Hashable {
        /// Nothing: the next step can start.
        case none
        case store(AfterStore)
        case spawn
        /// The process group is being stopped (on the blocking thread).
        case stop
        /// The reply to request `id` (its failure, or the worker's death).
        case reply(id: Int, WorkerOperation)
        /// The worker's death. `request`: the request written to it, whose failure fails the
        /// step when `failsOnRefusal`.
        case exit(request: Int?, failsOnRefusal: Bool, onTimeout: ExitTimeout)
    }

    package enum AfterStore: Sendable, Hashable {
        /// The first session was stored: start the worker.
        case launch(background: Bool, root: String, argv: [String])
        /// The restoration state answering a transition was stored.
        case restoration
        /// The discarded session was deleted.
        case deletion
        /// The worker that connected was stored, as the one a later host starts again.
        case connectedWorker
        /// The session a launch stored was deleted again: its worker could not be started
        /// (the failure is the flight's `failure`).
        case rollback
    }

    /// What the step watchdog does when a death does not come in time.
    package enum ExitTimeout: Sendable, Hashable {
        case kill(TerminationReason)
        /// The worker survived a signal: forget the signal's reason, the step is done.
        case giveUp
    }

    /// The steps a work item has still to take, in order.
    ///
    /// Taken by position, not removed: the lifecycle's step lists are mostly constant arrays
    /// (static objects), and removing a step from one copied the array first, on every
    /// transition.
    package struct Steps: Sendable, ExpressibleByArrayLiteral {
        private var steps: [SceneLifecycle.Step]
        private var next = 0

        package init(_ steps: [SceneLifecycle.Step]) { self.steps = steps }
        package init(arrayLiteral steps: SceneLifecycle.Step...) { self.steps = steps }

        package var isEmpty: Bool { next == steps.count }

        /// Takes the next step; there must be one.
        package mutating func takeFirst() -> SceneLifecycle.Step {
            defer { next += 1 }
            return steps[next]
        }

        /// Puts `new` before the steps left.
        package mutating func prepend(_ new: [SceneLifecycle.Step]) {
            steps = new + steps[next...]
            next = 0
        }
    }

    package struct InFlight: Sendable {
        package var work: Work
        package var steps: Steps
        package var wait: Wait = .none
        /// The session to store, until the store says it is stored.
        package var storing: SceneSession?
        /// Set when the request failed but must still end its worker (`terminate`).
        package var failure: HostError?
        /// A state that could not be stored on the way (too large, a full disk): the work goes
        /// on, and fails with it once done, unless something fails it first.
        package var storeFailure: HostError?
        /// The launch's parameters, for the `connect` request written once spawned.
        package var launch: (background: Bool, root: String, reconnect: Bool)?
        /// An app change was followed while this work was on its way to the worker.
        package var sawAppChange = false
        /// What the caller gets besides success: the visible tree an `inspect` replied with.
        package var result: JSONValue?
        /// The host's `windowTerminate` (under way it is a `terminate`): counted in
        /// `windowTerminationsCompleted` once it ends without a failure.
        package var isWindowTerminate = false

        package var caller: CallerID? {
            if case .request(_, let caller) = work { return caller }
            return nil
        }
    }
}
