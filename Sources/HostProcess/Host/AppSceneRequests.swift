import Protocol
import Synchronization

/// Where a scene sends the scene requests its app makes (`requestSceneSessionActivation`,
/// `requestSceneSessionDestruction`, docs/LIFECYCLE.md §3c): the host carries them out on the
/// scenes they name, outside the requesting scene's own queue, one asking scene's requests
/// one after another in order (`AppRequestQueue`), each line drained by a child task of the
/// host's (`HostTasks`).
final class AppSceneRequests: Sendable {
    /// What the host does with a request: carry it out, or refuse it (its line is full, or
    /// the host quits).
    struct Handlers: Sendable {
        var perform: @Sendable (_ opener: String, _ change: AppChange) async -> Void
        var refuse: @Sendable (_ opener: String, _ change: AppChange, _ reason: Refusal) -> Void
    }

    /// Why a request was not carried out.
    enum Refusal: Sendable, Equatable {
        /// The asking scene has `AppRequestQueue.maximumWaitingPerScene` requests waiting.
        case lineFull
        /// Apps opened `SceneHost.maximumAppOpenedWindows` windows in this host already.
        case tooManyWindows
        /// The host quits: it starts nothing more.
        case quitting
    }

    private struct State: Sendable {
        var handlers: Handlers?
        var queue = AppRequestQueue()
    }

    private let state = Mutex(State())
    private let tasks: HostTasks

    /// Drains the lines as children of `tasks`.
    init(tasks: HostTasks) {
        self.tasks = tasks
    }

    /// Sets what carries out a request (set once by the host).
    func setHandlers(_ handlers: Handlers) {
        state.withLock { $0.handlers = handlers }
    }

    /// How many requests wait behind the ones in progress.
    var waitingCount: Int { state.withLock { $0.queue.waitingCount } }

    /// The app of scene `opener` asked for `change`.
    func request(from opener: String, _ change: AppChange) {
        let (handlers, enqueued) = state.withLock { state -> (Handlers?, AppRequestQueue.Enqueued) in
            guard let handlers = state.handlers else { return (nil, .full) }
            return (handlers, state.queue.enqueue(change, from: opener))
        }
        guard let handlers else { return }
        switch enqueued {
        case .startDrain:
            guard tasks.run({ await self.drain(opener, with: handlers.perform) }) else {
                // Requests queued behind this one meanwhile are refused with it, in order.
                let abandoned = state.withLock { $0.queue.abandon(opener) }
                for change in abandoned { handlers.refuse(opener, change, .quitting) }
                return
            }
        case .queued:
            return
        case .full:
            handlers.refuse(opener, change, .lineFull)
        }
    }

    private func drain(
        _ opener: String,
        with perform: @Sendable (_ opener: String, _ change: AppChange) async -> Void
    ) async {
        while let change = state.withLock({ $0.queue.next(from: opener) }) {
            await perform(opener, change)
        }
    }
}
