/// A message from a worker to the host (one JSON object per line on the worker's stdout).
public enum WorkerMessage: Sendable, Hashable {
    /// The worker accepted the hello, and declares its app's lifecycle (`"lifecycle":"app"`
    /// for an app without scene support; absent: scene-based).
    /// `{"type":"ready","protocol":1,"pid":4242}`
    case ready(protocolVersion: Int, pid: Int32, lifecycle: LifecycleKind = .scene)
    /// A callback the worker ran. `{"type":"callback","name":"viewDidLoad","vc":"Root"}`
    case callback(CallbackEvent)
    /// A change the app made itself; the callbacks it ran follow, each with `"origin":"app"`.
    /// `{"type":"change","op":"push","vc":"Detail"}`
    case change(AppChange)
    /// The request `id` is done. `{"type":"reply","id":7}` or with `"result":{...}`.
    case reply(id: Int, result: JSONValue?)
    /// The request `id` (or, without an id, the last frame) failed.
    /// `{"type":"error","id":7,"code":1,"message":"cannot pop the root view controller"}`
    case failure(id: Int?, ProtocolError)
}

/// One callback a worker ran, as it reports it. Flat: optional fields are omitted on the wire.
public struct CallbackEvent: Sendable, Hashable {
    public var name: CallbackName
    /// The view controller's name, for view-controller callbacks.
    public var viewController: String?
    /// For `willConnectTo`: the restoration state the scene received.
    public var restoration: JSONValue?
    /// For `didReceiveNotification`: the notification's name (wire key `notification`).
    public var notification: String?
    /// For `didReceiveNotification`: its value (wire key `value`).
    public var value: JSONValue?
    /// `app` when the callback ran for a change the app made itself (wire key `origin`);
    /// nil for the callbacks of a host request.
    public var origin: CallbackOrigin?
    /// How many of the lifecycle notifications this callback posts
    /// (`CallbackName.postedNotifications`, the first ones, in order) followed it with nothing
    /// in between, folded into its frame (wire key `posted`, absent when 0): the host records
    /// each right after the callback, as if it had come in a frame of its own (the same events
    /// in the same order). Only on a callback of a host request (no `origin`); at most as
    /// many as the callback posts. Not positive: none (neither encoder writes the field).
    public var posted = 0
    /// The request this frame also answers (wire key `reply`, absent when nil): the worker's
    /// reply without a result, folded into the frame of the callback right before it, when
    /// the host's `hello` asked for that (`foldedReplies`); the worker folds it only into a
    /// callback without `restoration`, `notification` or `value`, whose frame is small. The
    /// host handles it as that reply,
    /// right after the callback and the notifications it posted: one frame instead of two,
    /// for the worker to write and the host to read, and the same trace.
    public var reply: Int?

    // Inlinable: every callback a worker reports and a host records is made with it, most
    // with nothing but a name, and a call to it from another module cost about 200
    // instructions.
    @inlinable
    public init(
        _ name: CallbackName,
        viewController: String? = nil,
        restoration: JSONValue? = nil,
        notification: String? = nil,
        value: JSONValue? = nil,
        origin: CallbackOrigin? = nil
    ) {
        self.name = name
        self.viewController = viewController
        self.restoration = restoration
        self.notification = notification
        self.value = value
        self.origin = origin
    }
}

extension CallbackEvent {
    /// `posted` as a frame gives it (at least 1), when the callback `name` can have posted
    /// that many notifications: at most as many as it posts, and only for a host request's
    /// callback (no `origin`).
    static func checked(posted: Int, of name: CallbackName, origin: CallbackOrigin?) throws(ProtocolError) -> Int {
        let most = name.postedNotifications.count
        guard most > 0 else {
            throw ProtocolError(
                .invalidParameters,
                "callback: \(name.rawValue) posts no notifications (field \"posted\")"
            )
        }
        guard posted <= most else {
            throw ProtocolError(
                .invalidParameters,
                "callback: field \"posted\" must be in 1...\(most) for \(name.rawValue)"
            )
        }
        guard origin == nil else {
            throw ProtocolError(.invalidParameters, "callback: field \"posted\" only without \"origin\"")
        }
        return posted
    }
}
