import Protocol

#if canImport(Glibc)
import Glibc
#endif

/// Where everything a worker says goes before the run loop writes it: the callbacks the
/// runtime reports and the replies and failures of the session, in order.
///
/// View controllers, navigation controllers and the application keep a reference to the
/// sink of the session that created (or adopted) them, so a controller's real `deinit` can
/// report itself. Once the session has decided to exit the sink is closed: nothing more is
/// recorded (a test tearing down a terminated session must not see stray `deinit`s).
@MainActor
final class CallbackSink {
    // Unchecked exclusivity (the runtime's check cost about 100 instructions per access, on
    // every message): `messages` is changed in place only by `append` and `removeAll`, which
    // call out to nothing, and the rest are loads and stores, so no two accesses overlap.
    /// Messages not yet taken by the run loop (or a test).
    @exclusivity(unchecked) private(set) var messages: [WorkerMessage] = []
    /// Set once the session has decided to exit; drops everything afterwards.
    @exclusivity(unchecked) private(set) var isClosed = false
    /// Runs right after a callback is recorded, before the app's code for it runs.
    /// The run loop uses it for injected faults (`--hang-in`, `--crash-in`).
    var onCallback: ((CallbackEvent) -> Void)?

    /// Posts a lifecycle notification to the app's observers (the `UIKit` module's
    /// `NotificationCenter` poster); nil: none are posted, or traced.
    @exclusivity(unchecked) var notificationPoster: (@MainActor (CallbackName) -> Void)?
    /// Whether the application-level notification `name` is posted for this scene; nil: all
    /// are. An app process's scenes share one application, whose state only changes with
    /// the first scene to come forward or become active and the last to resign or go.
    @exclusivity(unchecked) var postsApplicationNotification: (@MainActor (CallbackName) -> Bool)?
    /// Runs as the sink comes to an owed `UIApplicationDidBecomeActiveNotification`, before it
    /// is posted (or left out): the application becomes active between the scene's
    /// notification and the application's (c01).
    @exclusivity(unchecked) var willPostApplicationDidBecomeActive: (@MainActor () -> Void)?
    /// The last host-driven callback, while it owes its notifications
    /// (`CallbackName.postedNotifications`): they are posted once its delegate method returned
    /// (`delegateReturned()`), before the runtime moves the state on, so observers see what
    /// the delegate saw. What the app does inside the method (a background task begun, a stack
    /// rebuilt) is reported inside it, before them. The callback, not its list: a list would
    /// be retained and released on every callback.
    @exclusivity(unchecked) private var owingCallback: CallbackName?

    /// The thread the sink was made on: the main thread, the main actor's.
    nonisolated let thread: pthread_t

    init() {
        thread = pthread_self()
        messages.reserveCapacity(64)
    }

    /// Whether the caller runs on the sink's (the main) thread.
    nonisolated var isCurrentThread: Bool {
        pthread_equal(pthread_self(), thread) != 0
    }

    /// The origin stamped on every callback reported while it is set: `.app` while the
    /// session runs a change the app made itself.
    @exclusivity(unchecked) var origin: CallbackOrigin?

    /// Records that the callback described by `event` is about to run.
    func report(_ event: consuming CallbackEvent) {
        guard !isClosed else { return }
        if event.origin == nil, let origin {
            event.origin = origin
        }
        // The app's own changes' callbacks come inside a delegate method: they post nothing,
        // and what the method owes waits for it to return.
        if notificationPoster != nil, event.origin != .app {
            if owingCallback != nil { postOwedNotifications() }
            owingCallback = event.name
        }
        // Moved into the queue when no hook wants it too (the hook is only for injected
        // faults): each copy of a callback retains and releases its strings.
        guard let onCallback else {
            messages.append(.callback(consume event))
            return
        }
        messages.append(.callback(copy event))
        onCallback(event)
    }

    /// Records a callback that carries nothing but its name (and its controller).
    func report(_ name: CallbackName, viewController: String? = nil) {
        report(CallbackEvent(name, viewController: viewController))
    }

    /// Records a reply, failure, handshake or app change message. A reply ends the request:
    /// anything still owed is posted first. A change comes from inside a delegate method.
    func send(_ message: WorkerMessage) {
        guard !isClosed else { return }
        if owingCallback != nil {
            if case .change = message {} else { postOwedNotifications() }
        }
        messages.append(message)
    }

    /// The delegate method of the last callback reported has returned: its notifications are
    /// posted now (UIKit posts them right after the method, c01, c02), before the state moves on.
    func delegateReturned() {
        if owingCallback != nil { postOwedNotifications() }
    }

    /// Reports and posts what the last callback owes: its delegate method has returned.
    private func postOwedNotifications() {
        guard let callback = owingCallback else { return }
        owingCallback = nil
        guard let notificationPoster else { return }
        for name in callback.postedNotifications {
            guard !isClosed else { return }
            if name == .applicationDidBecomeActiveNotification { willPostApplicationDidBecomeActive?() }
            if let postsApplicationNotification, !postsApplicationNotification(name) { continue }
            var event = CallbackEvent(name)
            event.origin = origin
            messages.append(.callback(event))
            notificationPoster(name)
        }
    }

    /// Takes back the callback `name` just reported, when nothing was recorded after it: what
    /// it announced turned out not to happen, and no app code ran in between (a swipe's
    /// standard Delete or a drag that the data source does not implement).
    /// Returns false when something came after it (it stays).
    func retractLastCallback(_ name: CallbackName) -> Bool {
        guard case .callback(let event)? = messages.last, event.name == name else { return false }
        messages.removeLast()
        return true
    }

    /// Stops recording: the worker is about to exit.
    func close() {
        isClosed = true
    }

    /// Hands every pending message to `body`, as the host is to read them, then forgets them
    /// (keeping the storage). The lifecycle notifications that directly follow the callback
    /// posting them go in its frame (`CallbackEvent.posted`): one frame instead of three, for
    /// the worker to write and the host to read, and the same trace. With `foldingReplies`
    /// (the host's `hello` asked for it), a reply without a result that directly follows a
    /// callback without a value (and the notifications folded into it) goes in its frame too
    /// (`CallbackEvent.reply`): the frame of every plain transition.
    ///
    /// Each message is lent to `body`, not copied (a copy retains and releases each of its
    /// strings): `body` must not record anything in this sink.
    func drain(foldingReplies: Bool = false, _ body: (borrowing WorkerMessage) -> Void) {
        var index = 0
        while index < messages.count {
            // Looked at in place first: a message that folds nothing needs no copy.
            let foldsNotification = index + 1 < messages.count && Self.isCallback(messages[index + 1])
            let foldsReply =
                foldingReplies && index + 1 < messages.count && Self.isReplyWithoutResult(messages[index + 1])
            guard foldsNotification || foldsReply, var event = Self.takeCallback(&messages[index]) else {
                body(messages[index])
                index += 1
                continue
            }
            if foldsNotification, event.origin == nil {
                let posted = event.name.postedNotifications
                while event.posted < posted.count, index + 1 < messages.count,
                    Self.isBare(&messages[index + 1], posted[event.posted])
                {
                    event.posted += 1
                    index += 1
                }
            }
            // Only into a callback that carries no value: a frame that small never nears the
            // frame limit, which the requests' limits measure the echoes of values against.
            if foldingReplies, event.restoration == nil, event.notification == nil, event.value == nil,
                index + 1 < messages.count, case .reply(let id, .none) = messages[index + 1]
            {
                event.reply = id
                index += 1
            }
            body(.callback(event))
            index += 1
        }
        // Popped, not `removeAll(keepingCapacity:)`: its general range replacement cost more
        // than the messages' own release, on every request.
        while let message = messages.popLast() { Self.discard(message) }
    }

    /// Destroys `message` case by case. Left to itself, the compiler destroys a
    /// `WorkerMessage` through its type metadata's value witnesses, tuples of payloads
    /// included: about 260 instructions a message (callgrind).
    @inline(__always)
    private static func discard(_ message: consuming WorkerMessage) {
        switch consume message {
        case .callback(let event): _ = consume event
        case .reply(_, let result): _ = consume result
        case .change(let change): _ = consume change
        case .failure(_, let error): _ = consume error
        case .ready: break
        }
    }

    /// The callback `message` is, moved out and replaced by a message with nothing to
    /// release (the drain forgets it); nil, and `message` left as it was, for any other
    /// message. Copying the callback out instead, and destroying the copy, cost about 250
    /// instructions a frame.
    @inline(__always)
    private static func takeCallback(_ message: inout WorkerMessage) -> CallbackEvent? {
        let taken = consume message
        switch consume taken {
        case .callback(let event):
            message = .ready(protocolVersion: 0, pid: 0)
            return event
        case let other:
            message = other
            return nil
        }
    }

    private static func isCallback(_ message: borrowing WorkerMessage) -> Bool {
        switch message {
        case .callback: true
        default: false
        }
    }

    /// Whether `message` is the callback `name` and nothing else (a notification as the sink
    /// records it). The callback is moved out to be looked at, then back: bound by a pattern,
    /// it was copied (every string and value retained, then released), and a `CallbackEvent`
    /// made to compare it with cost more than the rest of folding it.
    private static func isBare(_ message: inout WorkerMessage, _ name: CallbackName) -> Bool {
        guard let event = takeCallback(&message) else { return false }
        let isBare =
            event.name == name && event.viewController == nil && event.restoration == nil
            && event.notification == nil && event.value == nil && event.origin == nil && event.posted == 0
            && event.reply == nil
        message = .callback(event)
        return isBare
    }

    private static func isReplyWithoutResult(_ message: borrowing WorkerMessage) -> Bool {
        switch message {
        case .reply(_, .none): true
        default: false
        }
    }

    /// Takes every pending message.
    func take() -> [WorkerMessage] {
        defer { messages.removeAll(keepingCapacity: true) }
        return messages
    }
}
