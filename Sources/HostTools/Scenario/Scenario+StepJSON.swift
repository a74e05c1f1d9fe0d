import HostProcess
import Protocol
import SceneModel

extension Scenario {
    /// Parses one step object as a scenario file writes it (`{"op":"push","scene":"A","vc":"Detail"}`),
    /// with the scenario parser's validation: an unknown op or field, a missing or mistyped
    /// field is an error naming it. `expectError` is not accepted: it only means something
    /// inside a scenario.
    public static func step(fromJSON value: JSONValue) throws(ScenarioError) -> Step {
        // (Only for a known op: any other is named, quoted, by the parser's own error.)
        if case .object(let object) = value, object["expectError"] != nil, case .string(let op)? = object["op"],
            isStepOp(op)
        {
            throw ScenarioError("\(op): unknown field \"expectError\"")
        }
        do {
            return try parseEntry(value, number: 1, inScenario: false).step
        } catch {
            throw ScenarioError(withoutStepNumber(error.message))
        }
    }

    /// Whether `op` names a scenario step.
    public static func isStepOp(_ op: String) -> Bool {
        fieldsByOp[op] != nil
    }

    /// Every op a step may name, sorted.
    public static var stepOps: [String] {
        fieldsByOp.keys.sorted()
    }

    /// "step 1 (push): needs "vc"" → "push: needs "vc""; a single step has no number.
    private static func withoutStepNumber(_ message: String) -> String {
        if message.hasPrefix("step 1 (") {
            let rest = message.dropFirst("step 1 (".count)
            if let close = rest.firstIndex(of: ")") {
                return String(rest[..<close]) + String(rest[rest.index(after: close)...])
            }
        }
        if message.hasPrefix("step 1: ") { return String(message.dropFirst("step 1: ".count)) }
        return message
    }
}

extension Scenario.Step {
    /// The step as a scenario file writes it; `Scenario.step(fromJSON:)` reads it back.
    public var jsonObject: [String: JSONValue] {
        var object: [String: JSONValue] = ["op": .string(opName)]
        switch self {
        case .scene(let scene, let op):
            object["scene"] = .string(scene)
            switch op {
            case .connect(let background, let root, let worker, let launch):
                if background { object["background"] = .bool(true) }
                if root != "Root" { object["root"] = .string(root) }
                if let worker { object["worker"] = .array(worker.map { .string($0) }) }
                if let url = launch.url { object["url"] = .string(url) }
                if let lifecycle = launch.lifecycle { object["lifecycle"] = .string(lifecycle.rawValue) }
                if let width = launch.width { object["width"] = .int(width) }
                if let height = launch.height { object["height"] = .int(height) }
                if let tabs = launch.tabs { object["tabs"] = .array(tabs.map { .string($0) }) }
                if let style = launch.style { object["style"] = .string(style.rawValue) }
                if let app = launch.app { object["app"] = .string(app) }
            case .push(let viewController, let payload):
                object["vc"] = .string(viewController)
                if let payload { object["payload"] = payload }
            case .resize(let width, let height):
                object["width"] = .int(width)
                object["height"] = .int(height)
            case .notify(let name, let value):
                object["name"] = .string(name)
                object["value"] = value
            case .openURL(let url):
                object["url"] = .string(url)
            case .continueUserActivity(let activityType, let userInfo):
                object["activityType"] = .string(activityType)
                if let userInfo { object["userInfo"] = userInfo }
            case .quickAction(let type, let userInfo):
                object["type"] = .string(type)
                if let userInfo { object["userInfo"] = userInfo }
            case .openNotification(let userInfo, let actionIdentifier):
                object["actionIdentifier"] = .string(actionIdentifier)
                if let userInfo { object["userInfo"] = userInfo }
            case .remoteNotification(let userInfo):
                if let userInfo { object["userInfo"] = userInfo }
            case .kill(let signal):
                object["signal"] = .string(SignalNames.name(of: signal))
            case .present(let viewController, let style, let modal):
                object["vc"] = .string(viewController)
                object["style"] = .string(style.rawValue)
                if modal { object["modalInPresentation"] = .bool(true) }
            case .swipeDismiss(let completes), .swipeBack(let completes):
                object["completes"] = .bool(completes)
            case .dismiss:
                break
            case .selectTab(let index):
                object["index"] = .int(index)
            case .addChild(let viewController), .removeChild(let viewController):
                object["vc"] = .string(viewController)
            case .user(let action):
                object.merge(action.fields) { _, new in new }
            case .activate, .deactivate, .background, .foreground, .disconnect, .discard, .pop,
                .memoryWarning, .windowMemoryWarning, .beginBackgroundTask, .endBackgroundTask, .terminate,
                .windowTerminate, .tap,
                .inspect, .popToRoot:
                break
            }
        case .waitFor(let scene, let condition, let timeout):
            object["scene"] = .string(scene)
            switch condition {
            case .state(let state): object["state"] = .string(state.rawValue)
            case .process(let process): object["process"] = .string(process.rawValue)
            }
            object["timeoutMs"] = .int(Self.milliseconds(timeout))
        case .sleep(let duration):
            object["ms"] = .int(Self.milliseconds(duration))
        case .memoryPressure, .quit:
            break
        }
        return object
    }

    private static func milliseconds(_ duration: Duration) -> Int {
        let components = duration.components
        return Int(components.seconds) * 1000 + Int(components.attoseconds / 1_000_000_000_000_000)
    }
}
