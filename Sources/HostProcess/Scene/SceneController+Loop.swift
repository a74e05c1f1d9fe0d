import SceneModel

/// How the loop's thread calls into a scene's actor synchronously: its handlers, its jobs, a
/// caller already on the loop.
extension SceneController {
    /// `assumeIsolated` for the loop's calls into this actor (its handlers, its jobs, a caller
    /// on the loop thread), checked the cheap way.
    ///
    /// This actor's executor is the loop, which runs one thing at a time on its thread: code
    /// on that thread is isolated to it. The runtime's `assumeIsolated` reaches the same answer
    /// (through the loop's `checkIsolated`), but only after asking whether the loop is the
    /// main executor and the current task's: about 270 instructions, three times per
    /// transition. The cast is the one `assumeIsolated` itself makes once it has checked.
    ///
    /// The closure is cast inside a struct: a function value handed to the generic
    /// `unsafeBitCast` directly goes through two reabstraction thunks, each a heap allocation
    /// (about 700 instructions per call, three calls per transition). A struct's layout is
    /// fixed, so casting one copies its two words and nothing else.
    nonisolated func onLoop(_ operation: (isolated SceneController) -> Void) {
        precondition(EventLoop.shared.inEventLoop, "not on the event loop thread")
        withoutActuallyEscaping(operation) { operation in
            unsafeBitCast(IsolatedBody(run: operation), to: PlainBody.self).run(self)
        }
    }

    private struct IsolatedBody {
        package let run: (isolated SceneController) -> Void
    }

    private struct PlainBody {
        package let run: (SceneController) -> Void
    }

    // The loop's two calls on every transition, without a closure: `onLoop` wraps its
    // closure's context in a heap box for the check that it did not escape (an allocation,
    // a retain and two releases per call, three calls per transition). A static method's
    // reference has no context, so its cast is two words copied, as `onLoop`'s is. Named by
    // its type, not `Self.`: through `Self` the reference captured the dynamic type, and the
    // request's path allocated a box for it on every transition.

    /// `workerEvent(event, from: sender)` on the loop thread, as `onLoop` would run it.
    nonisolated func workerEventOnLoop(_ event: WorkerConnection.Event, from sender: WorkerConnection) {
        precondition(EventLoop.shared.inEventLoop, "not on the event loop thread")
        unsafeBitCast(IsolatedEventBody(run: SceneController.workerEventIsolated), to: PlainEventBody.self).run(
            self,
            event,
            sender
        )
    }

    private static func workerEventIsolated(
        _ controller: isolated SceneController,
        _ event: WorkerConnection.Event,
        _ sender: WorkerConnection
    ) {
        controller.workerEvent(event, from: sender)
    }

    private struct IsolatedEventBody {
        package let run: (isolated SceneController, WorkerConnection.Event, WorkerConnection) -> Void
    }

    private struct PlainEventBody {
        package let run: (SceneController, WorkerConnection.Event, WorkerConnection) -> Void
    }

    /// `begin(op, continuation, askedAfterTerminations:)` on the loop thread, as `onLoop`
    /// would run it.
    nonisolated func beginOnLoop(
        _ request: LoopRequest,
        _ continuation: UnsafeContinuation<Void, any Error>
    ) {
        unsafeBitCast(IsolatedBeginBody(run: SceneController.beginIsolated), to: PlainBeginBody.self).run(
            self,
            request,
            continuation
        )
    }

    /// A request as `beginOnLoop` passes it: one argument, so the cast function type stays small.
    struct LoopRequest {
        package let op: SceneOperation
        package let askedAfterTerminations: Int?
    }

    private static func beginIsolated(
        _ controller: isolated SceneController,
        _ request: LoopRequest,
        _ continuation: UnsafeContinuation<Void, any Error>
    ) {
        controller.begin(request.op, continuation, askedAfterTerminations: request.askedAfterTerminations)
    }

    private struct IsolatedBeginBody {
        package let run: (isolated SceneController, LoopRequest, UnsafeContinuation<Void, any Error>) -> Void
    }

    private struct PlainBeginBody {
        package let run: (SceneController, LoopRequest, UnsafeContinuation<Void, any Error>) -> Void
    }
}
