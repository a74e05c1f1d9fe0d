/// The sizes every change to a scene obeys, whoever asks for it: a client's request (the
/// host checks it where it enters) and the app's own change (the worker checks it in the
/// app's API, where an over-limit change fails with nothing changed). One table, so that the
/// app cannot make what a client could not: a stack or a name the host would then refuse to
/// store, or a value whose echo a healthy worker could not send back.
public enum SceneLimits {
    /// The longest view controller name, in bytes of its JSON string (quotes and escapes
    /// included): names are saved with the restoration state, the stack's and the children's.
    public static let maximumViewControllerNameBytes = 256
    /// The longest URL a scene is opened with, and the longest user activity type, in UTF-8 bytes.
    public static let maximumURLBytes = 8192
    /// The deepest navigation stack.
    public static let maximumStackDepth = 256
    /// The most tabs a tab bar root may have.
    public static let maximumTabs = 32
    /// How deep a value may nest that the trace records as an event's `value` (a notify's
    /// value): an event frame wraps it in two objects (`{"event":{…,"value":…}}`), and every
    /// reader of frames parses at most `JSONParser.defaultMaximumDepth` levels.
    public static let maximumValueDepth = JSONParser.defaultMaximumDepth - 2
    /// How deep a user activity's `userInfo` may nest: its echo wraps it once more
    /// (`"value":{"activityType":…,"userInfo":…}`).
    public static let maximumUserInfoDepth = maximumValueDepth - 1

    /// What a connect frame needs besides the restoration state it gives back to a worker:
    /// a state larger than the frame limit less this is not stored.
    public static let restorationRoom = 8192

    /// The key of the marker a worker answers a save with when no frame could carry the app's
    /// state (`restorationStateRefusal`): the host keeps the session's earlier state and fails
    /// the request with `sessionNotStored`, as for a state it could carry but not give back,
    /// instead of receiving a frame it must refuse (and kill the worker for).
    public static let unsendableStateKey = "scenehost.unsendableState"

    /// The marker that stands for a state no frame could carry, saying why.
    public static func unsendableState(_ reason: String) -> JSONValue {
        .object([unsendableStateKey: .string(reason)])
    }

    /// Why the worker could not send its state, when `state` is its marker.
    public static func unsendableStateReason(_ state: JSONValue) -> String? {
        guard case .object(let members) = state, members.count == 1,
            case .string(let reason)? = members[unsendableStateKey]
        else { return nil }
        return reason
    }

    /// Why the restoration state `state` cannot be saved with frames of `frameLimit` bytes
    /// (sent in a reply, given back in a connect frame, recorded in an event), or nil.
    public static func restorationStateRefusal(_ state: JSONValue, frameLimit: Int) -> String? {
        if state.nests(deeperThan: maximumValueDepth) {
            return "the restoration state nests deeper than \(maximumValueDepth) levels"
        }
        var bytes: [UInt8] = []
        JSONWriter.write(state, into: &bytes)
        let limit = frameLimit - restorationRoom
        guard bytes.count > limit else { return nil }
        return "the restoration state is \(bytes.count) bytes, more than a connect frame gives back "
            + "(\(limit) bytes with a frame limit of \(frameLimit))"
    }

    /// The bytes of `name` as a JSON string, or nil when it has more UTF-8 bytes than the
    /// limit (too long however it is escaped).
    public static func viewControllerNameBytes(_ name: String) -> Int? {
        guard name.utf8.count + 2 <= maximumViewControllerNameBytes else { return nil }
        var bytes: [UInt8] = []
        JSONWriter.writeString(name, into: &bytes)
        return bytes.count
    }

    /// Why the view controller name `name` cannot be used, or nil.
    public static func viewControllerNameRefusal(_ name: String) -> String? {
        if name.isEmpty { return "an empty view controller name" }
        if let bytes = viewControllerNameBytes(name), bytes <= maximumViewControllerNameBytes { return nil }
        return "a view controller name may take at most \(maximumViewControllerNameBytes) bytes as JSON"
    }

    /// The larger of the two frames a user activity makes on its way to a scene: the
    /// `continueUserActivity` request and the worker's echo of it (the same activity in a
    /// longer envelope). Both must fit the frame limit.
    public static func continueUserActivityFrameBytes(activityType: String, userInfo: JSONValue?) -> Int {
        var request: [UInt8] = []
        HostCommand.request(id: Int.max, .continueUserActivity(activityType: activityType, userInfo: userInfo))
            .encode(into: &request)
        var echo: [UInt8] = []
        WorkerMessage.callback(
            CallbackEvent(
                .continueUserActivity,
                value: .object(["activityType": .string(activityType), "userInfo": userInfo ?? .null])
            )
        ).encode(into: &echo)
        return max(request.count, echo.count)
    }

    /// Why a user activity cannot be handed to a scene whose frames are limited to
    /// `frameLimit` bytes, or nil.
    public static func userActivityRefusal(activityType: String, userInfo: JSONValue?, frameLimit: Int) -> String? {
        if let userInfo, userInfo.nestingDepth > maximumUserInfoDepth {
            return "userInfo nests deeper than \(maximumUserInfoDepth) levels"
        }
        let bytes = continueUserActivityFrameBytes(activityType: activityType, userInfo: userInfo)
        guard bytes <= frameLimit else {
            return
                "the activity would take a \(bytes)-byte frame to or from the worker, over the frame limit of \(frameLimit)"
        }
        return nil
    }
}

extension JSONValue {
    /// Whether arrays and objects nest more than `limit` levels: `nestingDepth`, stopping one
    /// level past the limit (a value the app made, not parsed, may nest without bound).
    public func nests(deeperThan limit: Int) -> Bool {
        switch self {
        case .array(let elements): limit <= 0 || elements.contains { $0.nests(deeperThan: limit - 1) }
        case .object(let members): limit <= 0 || members.values.contains { $0.nests(deeperThan: limit - 1) }
        default: false
        }
    }

    /// The levels of arrays and objects: 0 for a scalar, 1 for `[]` or `[1]`, 2 for `[[]]`.
    /// (Recursive: a parsed value is at most `JSONParser.defaultMaximumDepth` deep.)
    public var nestingDepth: Int {
        switch self {
        case .null, .bool, .int, .double, .string: 0
        case .array(let elements): 1 + (elements.lazy.map(\.nestingDepth).max() ?? 0)
        case .object(let members): 1 + (members.values.lazy.map(\.nestingDepth).max() ?? 0)
        }
    }
}
