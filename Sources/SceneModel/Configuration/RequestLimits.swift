import Protocol

/// The sizes a request may have, checked where requests enter the host (`SceneHost.perform`,
/// `SceneHandle`), before any scene is created or anything is sent.
///
/// Each is chosen so that an accepted request can never make a frame to or from a healthy
/// worker pass the frame limit: the host would take the worker's oversized answer for a
/// protocol violation and kill it for a request the host itself accepted.
///
/// - `notify`: the request frame to the worker and the worker's `didReceiveNotification`
///   echo of it (the same value in a longer envelope) must both fit the frame limit, measured
///   exactly, as the host encodes them. The value's encoding is what counts, not the
///   client's text: `1e5` is written back as `100000.0`.
/// - `push`, `connect`'s root, `present`, `addChild`, `removeChild`: a view controller name
///   is at most 256 bytes as JSON, and
///   a stack at most `SceneLifecycle.maximumStackDepth` deep, so the restoration state a
///   worker saves (its stack, twice in the recording app: the stack and the one it was
///   restored from) stays far below the frame limit.
package enum RequestLimits {
    /// The longest view controller name, in bytes of its JSON string (quotes and escapes included).
    package static let maximumViewControllerNameBytes = SceneLimits.maximumViewControllerNameBytes
    /// The longest URL a scene is opened with, in UTF-8 bytes.
    package static let maximumURLBytes = SceneLimits.maximumURLBytes

    /// The frame limit both sides hold to: the host's, and at most the worker's default.
    package static func frameLimit(_ configuration: HostConfiguration) -> Int {
        min(configuration.maximumFrameSize, FrameLimits.defaultMaximumFrameSize)
    }

    /// Throws `requestTooLarge` if `op` on `scene` is larger than the host and its worker
    /// can exchange within `frameLimit` bytes per frame.
    package static func check(_ op: SceneOperation, scene: String, frameLimit: Int) throws(HostError) {
        switch op {
        case .notify(let name, let value):
            var valueBytes: [UInt8] = []
            JSONWriter.write(value, into: &valueBytes)
            // The envelopes around a `null`, plus the value's own bytes: exact, because the
            // writer encodes the value the same way wherever it stands.
            var request: [UInt8] = []
            HostCommand.request(id: Int.max, .notify(name: name, value: .null)).encode(into: &request)
            var echo: [UInt8] = []
            WorkerMessage.callback(CallbackEvent(.didReceiveNotification, notification: name, value: .null))
                .encode(into: &echo)
            let largest = max(request.count, echo.count) - 4 + valueBytes.count
            guard largest <= frameLimit else {
                throw HostError.requestTooLarge(
                    scene: scene,
                    op: op.name,
                    reason: "the notification would take a \(largest)-byte frame to or from the worker, "
                        + "over the frame limit of \(frameLimit) bytes (the value is \(valueBytes.count) bytes as JSON)"
                )
            }
        case .push(let name, let payload):
            try checkViewControllerName(name, scene: scene, op: op)
            if let payload {
                // The name passed its check, so the whole request's size is exact.
                var request: [UInt8] = []
                HostCommand.request(id: Int.max, .push(viewController: name, payload: payload)).encode(into: &request)
                guard request.count <= frameLimit else {
                    throw HostError.requestTooLarge(
                        scene: scene,
                        op: op.name,
                        reason: "the push would take a \(request.count)-byte frame to the worker, "
                            + "over the frame limit of \(frameLimit) bytes (the payload is too large)"
                    )
                }
            }
        case .connect(_, let root, _, let launch):
            try checkViewControllerName(root, scene: scene, op: op)
            for tab in launch.tabs ?? [] { try checkViewControllerName(tab, scene: scene, op: op) }
            try checkURL(launch.url, scene: scene, op: op)
        case .openURL(let url):
            try checkURL(url, scene: scene, op: op)
        // Children's names (and the presented one's) are saved with the restoration state too.
        case .addChild(let name), .removeChild(let name), .present(let name, _, _):
            try checkViewControllerName(name, scene: scene, op: op)
        // What the system hands a scene is echoed in the trace, and goes into its connection
        // options at a launch: the same limits as a user activity's.
        case .continueUserActivity(let activityType, let userInfo), .quickAction(let activityType, let userInfo),
            .openNotification(let userInfo, let activityType):
            guard activityType.utf8.count <= maximumURLBytes else {
                throw HostError.requestTooLarge(
                    scene: scene,
                    op: op.name,
                    reason: "an activity type may take at most \(maximumURLBytes) bytes"
                )
            }
            if let refusal = SceneLimits.userActivityRefusal(
                activityType: activityType,
                userInfo: userInfo,
                frameLimit: frameLimit
            ) {
                throw HostError.requestTooLarge(scene: scene, op: op.name, reason: refusal)
            }
        case .remoteNotification(let userInfo):
            if let refusal = SceneLimits.userActivityRefusal(
                activityType: "",
                userInfo: userInfo,
                frameLimit: frameLimit
            ) {
                throw HostError.requestTooLarge(scene: scene, op: op.name, reason: refusal)
            }
        case .user(let action):
            // The request and the worker's `userAction` echo of it must both fit a frame.
            var request: [UInt8] = []
            HostCommand.request(id: Int.max, .user(action)).encode(into: &request)
            var echo: [UInt8] = []
            WorkerMessage.callback(CallbackEvent(.userAction, value: action.traceValue)).encode(into: &echo)
            let largest = max(request.count, echo.count)
            guard largest <= frameLimit else {
                throw HostError.requestTooLarge(
                    scene: scene,
                    op: op.name,
                    reason:
                        "it would take a \(largest)-byte frame to or from the worker, over the frame limit of \(frameLimit)"
                )
            }
        default:
            break
        }
    }

    private static func checkURL(_ url: String?, scene: String, op: SceneOperation) throws(HostError) {
        guard let url else { return }
        guard url.utf8.count <= maximumURLBytes else {
            throw HostError.requestTooLarge(
                scene: scene,
                op: op.name,
                reason: "a URL may take at most \(maximumURLBytes) bytes, this one takes \(url.utf8.count)"
            )
        }
        if let refusal = SceneLimits.urlRefusal(url) {
            throw HostError.invalidParameter(
                scene: scene,
                op: op.name,
                reason: "\(quoted(url, limit: 80)) is no URL: \(refusal)"
            )
        }
    }

    private static func checkViewControllerName(_ name: String, scene: String, op: SceneOperation) throws(HostError) {
        // The app's own names are measured the same way (SceneLimits); nil: too long however escaped.
        let exactLength = SceneLimits.viewControllerNameBytes(name)
        let length = exactLength ?? name.utf8.count + 2
        let exact = exactLength != nil
        guard length <= maximumViewControllerNameBytes else {
            throw HostError.requestTooLarge(
                scene: scene,
                op: op.name,
                reason: "a view controller name may take at most \(maximumViewControllerNameBytes) bytes as JSON "
                    + "(quotes and escapes included), this one takes \(length)\(exact ? "" : " or more")"
            )
        }
    }
}
