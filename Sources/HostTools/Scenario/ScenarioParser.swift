import Glibc
import HostProcess
import Protocol
import SceneModel

/// A scenario file that cannot be run, with the place and the reason.
public struct ScenarioError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

extension Scenario {
    /// The ops a step may name, with the fields each accepts (besides `op` and `expectError`):
    /// the model's (`LifecycleOperation.fields`).
    package static let fieldsByOp: [String: Set<String>] = Dictionary(
        uniqueKeysWithValues: LifecycleOperation.allCases.map { ($0.rawValue, Set($0.fields.map(\.name))) }
    )

    package static let configFields: Set<String> = [
        "suspendDelayMs", "launchLimitMs", "transitionLimitMs", "terminateLimitMs", "backgroundTaskLimitMs",
        "memoryLimitMB", "memoryCheckIntervalMs", "worker", "stateDir", "restartLimit", "restartWindowMs", "prewarm",
    ]

    /// Parses and validates a whole scenario before anything runs: an unknown op or
    /// field, a missing or mistyped field is an error naming the step and the field.
    public init(json bytes: [UInt8]) throws(ScenarioError) {
        let root: JSONValue
        do {
            root = try JSONParser.parse(bytes)
        } catch {
            throw ScenarioError("not valid JSON: \(error.message)")
        }
        guard case .object(let object) = root else { throw ScenarioError("the scenario must be a JSON object") }
        for key in object.keys where key != "config" && key != "steps" && key != "fuzzFailure" {
            // (`fuzzFailure` is hostctl fuzz's own, not one to suggest.)
            throw ScenarioError("unknown top-level field \(quoted(key)) (expected \"config\" and \"steps\")")
        }
        var recorded: RecordedFailure?
        if let failure = object["fuzzFailure"] {
            guard case .string(let kind)? = failure["kind"], case .string(let message)? = failure["message"] else {
                throw ScenarioError("\"fuzzFailure\" must be an object with string fields kind and message")
            }
            recorded = RecordedFailure(kind: kind, message: message)
        }
        var limits = Limits()
        if let config = object["config"] {
            limits = try Self.parseLimits(config)
        }
        guard case .array(let steps)? = object["steps"] else {
            if object["steps"] == nil { throw ScenarioError("missing \"steps\": an array of steps") }
            throw ScenarioError("\"steps\" must be an array of steps")
        }
        var entries: [Entry] = []
        for (index, step) in steps.enumerated() {
            let entry = try Self.parseEntry(step, number: index + 1)
            // A step after `quit` would never run: say so rather than skip it silently.
            if let last = entries.last, case .quit = last.step {
                throw ScenarioError(
                    "step \(index + 1) (\(entry.step.opName)): comes after quit (step \(index)) and would never run"
                )
            }
            entries.append(entry)
        }
        self.init(limits: limits, entries: entries, recordedFailure: recorded)
    }

    /// Reads and parses a scenario file.
    public init(contentsOf path: String) throws(ScenarioError) {
        let limit = 16 << 20
        guard let bytes = readWholeFile(path, limit: limit) else {
            // The limit stated, not EFBIG's "File too large", which names no size.
            let reason = errno == EFBIG ? "larger than \(limit >> 20) MiB" : String(cString: strerror(errno))
            throw ScenarioError("cannot read \(path): \(reason)")
        }
        try self.init(json: bytes)
    }

    private static func parseLimits(_ value: JSONValue) throws(ScenarioError) -> Limits {
        guard case .object(let config) = value else { throw ScenarioError("\"config\" must be an object") }
        for key in config.keys where !configFields.contains(key) {
            throw ScenarioError(
                "config: unknown field \(quoted(key)) (known: \(configFields.sorted().joined(separator: ", ")))"
            )
        }
        let fields = Fields(config, place: "config")
        var limits = Limits()
        let ranges = LimitRanges.self
        limits.suspendDelay = try fields.limit(ranges.suspendDelay).map { .milliseconds($0) }
        limits.launchLimit = try fields.limit(ranges.launchLimit).map { .milliseconds($0) }
        limits.transitionLimit = try fields.limit(ranges.transitionLimit).map { .milliseconds($0) }
        limits.terminateLimit = try fields.limit(ranges.terminateLimit).map { .milliseconds($0) }
        limits.backgroundTaskLimit = try fields.limit(ranges.backgroundTaskLimit).map { .milliseconds($0) }
        limits.memoryLimitBytes = try fields.limit(ranges.memoryLimit).map { $0 << 20 }
        limits.memoryCheckInterval = try fields.limit(ranges.memoryCheckInterval).map { .milliseconds($0) }
        limits.worker = try fields.argv("worker")
        limits.stateDirectory = try fields.string("stateDir")
        if limits.stateDirectory?.isEmpty == true {
            throw ScenarioError("config: \"stateDir\" must be a directory path, not empty")
        }
        limits.prewarmedWorkers = try fields.limit(ranges.prewarm)
        if let maximum = try fields.limit(ranges.restartLimit) {
            limits.restartPolicy = RestartPolicy(
                maximumRestarts: maximum,
                window: .milliseconds(try fields.limit(ranges.restartWindow) ?? 5000)
            )
        } else if config["restartWindowMs"] != nil {
            throw fields.error("\"restartWindowMs\" needs \"restartLimit\"")
        }
        return limits
    }

    /// `inScenario`: `expectError` is one of the known fields (a control request has no use for it).
    package static func parseEntry(
        _ value: JSONValue,
        number: Int,
        inScenario: Bool = true
    ) throws(ScenarioError) -> Entry {
        guard case .object(var object) = value else { throw ScenarioError("step \(number): must be an object") }
        guard case .string(let op)? = object.removeValue(forKey: "op") else {
            throw ScenarioError("step \(number): missing \"op\"")
        }
        guard let operation = LifecycleOperation(rawValue: op), let allowed = fieldsByOp[op] else {
            throw ScenarioError(
                "step \(number): unknown op \(quoted(op)) (known: \(fieldsByOp.keys.sorted().joined(separator: ", ")))"
            )
        }
        var expectsError = false
        if let expect = object.removeValue(forKey: "expectError") {
            guard case .bool(let flag) = expect else {
                throw ScenarioError("step \(number) (\(op)): \"expectError\" must be true or false")
            }
            expectsError = flag
        }
        for key in object.keys.sorted() where !allowed.contains(key) {
            let known = allowed.sorted() + (inScenario ? ["expectError"] : [])
            let list = known.isEmpty ? "it takes no fields" : "known: \(known.joined(separator: ", "))"
            throw ScenarioError("step \(number) (\(op)): unknown field \(quoted(key)) (\(list))")
        }
        var fields = Fields(object, place: "step \(number) (\(op))")
        try fields.checkPresence(of: operation.fields)
        let step = try parseStep(operation, &fields)
        return Entry(step, expectsError: expectsError)
    }

    private static func parseStep(_ op: LifecycleOperation, _ fields: inout Fields) throws(ScenarioError) -> Step {
        switch op {
        case .memoryPressure: return .memoryPressure
        case .quit: return .quit
        case .sleep: return .sleep(try fields.requiredMilliseconds("ms"))
        case .waitFor:
            let scene = try fields.scene()
            let timeout = try fields.milliseconds("timeoutMs") ?? .seconds(10)
            let state = try fields.string("state")
            let process = try fields.string("process")
            switch (state, process) {
            case (let state?, nil):
                guard let value = ActivationState(rawValue: state) else {
                    throw fields.error(
                        "unknown state \(quoted(state)) (known: \(ActivationState.allCases.map(\.rawValue).joined(separator: ", ")))"
                    )
                }
                return .waitFor(scene: scene, condition: .state(value), timeout: timeout)
            case (nil, let process?):
                guard let value = ProcessState(rawValue: process) else {
                    throw fields.error(
                        "unknown process state \(quoted(process)) (known: \(ProcessState.allCases.map(\.rawValue).joined(separator: ", ")))"
                    )
                }
                return .waitFor(scene: scene, condition: .process(value), timeout: timeout)
            default:
                throw fields.error("needs exactly one of \"state\" or \"process\"")
            }
        default:
            let scene = try fields.scene()
            let operation = try sceneOperation(op, &fields)
            // The sizes the host would refuse at the step are refused with the file's other
            // errors, before anything runs (a smaller configured frame limit is still checked
            // at the step).
            do {
                try RequestLimits.check(operation, scene: scene, frameLimit: FrameLimits.defaultMaximumFrameSize)
            } catch {
                switch error {
                case .requestTooLarge(_, _, let reason), .invalidParameter(_, _, let reason):
                    throw fields.error(reason)
                default:
                    throw fields.error("\(error)")
                }
            }
            return .scene(scene, operation)
        }
    }

    /// A step's `userInfo`, no deeper than a worker accepts.
    private static func userInfo(_ fields: inout Fields) throws(ScenarioError) -> JSONValue? {
        let userInfo = fields.raw("userInfo")
        if let userInfo, userInfo.nestingDepth > SceneLimits.maximumUserInfoDepth {
            throw fields.error("\"userInfo\" nests deeper than \(SceneLimits.maximumUserInfoDepth) levels")
        }
        return userInfo
    }

    private static func sceneOperation(
        _ op: LifecycleOperation,
        _ fields: inout Fields
    ) throws(ScenarioError) -> SceneOperation {
        switch op {
        case .connect:
            let root = try fields.string("root") ?? "Root"
            guard !root.isEmpty else { throw fields.error("\"root\" must not be empty") }
            var lifecycle: LifecycleKind?
            if let name = try fields.string("lifecycle") {
                guard let kind = LifecycleKind(rawValue: name) else {
                    throw fields.error("\"lifecycle\" must be \"scene\" or \"app\"")
                }
                lifecycle = kind
            }
            var style: InterfaceStyle?
            if let name = try fields.string("style") {
                guard let known = InterfaceStyle(rawValue: name) else {
                    throw fields.error("\"style\" must be \"light\" or \"dark\"")
                }
                style = known
            }
            var launch = LaunchParameters(
                url: try fields.string("url"),
                width: try fields.int("width", minimum: 1),
                height: try fields.int("height", minimum: 1),
                lifecycle: lifecycle,
                tabs: try fields.names("tabs"),
                style: style
            )
            launch.app = try fields.string("app")
            if launch.tabs != nil, fields.raw("root") != nil {
                throw fields.error("takes \"root\" or \"tabs\", not both (the first tab's root is the root)")
            }
            if let refusal = launch.refusal { throw fields.error(refusal) }
            return .connect(
                background: try fields.bool("background") ?? false,
                root: root,
                worker: try fields.argv("worker"),
                launch: launch
            )
        case .activate: return .activate
        case .deactivate: return .deactivate
        case .background: return .background
        case .foreground: return .foreground
        case .disconnect: return .disconnect
        case .discard: return .discard
        case .pop: return .pop
        case .memoryWarning: return .memoryWarning
        case .beginBackgroundTask: return .beginBackgroundTask
        case .endBackgroundTask: return .endBackgroundTask
        case .terminate: return .terminate
        case .tap: return .tap
        case .openURL:
            guard let url = try fields.string("url"), !url.isEmpty else { throw fields.error("needs \"url\"") }
            return .openURL(url: url)
        case .continueUserActivity:
            guard let activityType = try fields.string("activityType"), !activityType.isEmpty else {
                throw fields.error("needs \"activityType\"")
            }
            return .continueUserActivity(activityType: activityType, userInfo: try userInfo(&fields))
        case .quickAction:
            guard let type = try fields.string("type"), !type.isEmpty else { throw fields.error("needs \"type\"") }
            return .quickAction(type: type, userInfo: try userInfo(&fields))
        case .openNotification:
            let action = try fields.string("actionIdentifier") ?? SceneOperation.defaultNotificationAction
            guard !action.isEmpty else { throw fields.error("\"actionIdentifier\" must not be empty") }
            return .openNotification(userInfo: try userInfo(&fields), actionIdentifier: action)
        case .remoteNotification:
            return .remoteNotification(userInfo: try userInfo(&fields))
        case .popToRoot: return .popToRoot
        case .push:
            guard let vc = try fields.string("vc"), !vc.isEmpty else { throw fields.error("needs \"vc\"") }
            let payload = fields.raw("payload")
            if let payload, payload.nestingDepth > ControlServerFrame.maximumValueDepth {
                throw fields.error("\"payload\" nests deeper than \(ControlServerFrame.maximumValueDepth) levels")
            }
            return .push(viewController: vc, payload: payload)
        case .resize:
            guard let width = try fields.int("width", minimum: 1), let height = try fields.int("height", minimum: 1)
            else { throw fields.error("needs \"width\" and \"height\"") }
            return .resize(width: width, height: height)
        case .notify:
            guard let name = try fields.string("name"), !name.isEmpty else { throw fields.error("needs \"name\"") }
            let value = fields.raw("value") ?? .null
            guard value.nestingDepth <= ControlServerFrame.maximumValueDepth else {
                throw fields.error("\"value\" nests deeper than \(ControlServerFrame.maximumValueDepth) levels")
            }
            return .notify(name: name, value: value)
        case .kill:
            return .kill(signal: try fields.signal("signal") ?? SIGKILLNumber)
        case .present:
            guard let vc = try fields.string("vc"), !vc.isEmpty else { throw fields.error("needs \"vc\"") }
            let style = try fields.string("style") ?? PresentationStyle.pageSheet.rawValue
            guard let presentation = PresentationStyle(rawValue: style) else {
                let styles = PresentationStyle.allCases.map { "\"\($0)\"" }.joined(separator: " or ")
                throw fields.error("\"style\" must be \(styles)")
            }
            return .present(
                viewController: vc,
                style: presentation,
                modalInPresentation: try fields.bool("modalInPresentation") ?? false
            )
        case .dismiss: return .dismiss
        case .swipeDismiss: return .swipeDismiss(completes: try fields.bool("completes") ?? true)
        case .swipeBack: return .swipeBack(completes: try fields.bool("completes") ?? true)
        case .selectTab:
            guard let index = try fields.int("index", minimum: 0) else { throw fields.error("needs \"index\"") }
            return .selectTab(index: index)
        case .addChild, .removeChild:
            guard let vc = try fields.string("vc"), !vc.isEmpty else { throw fields.error("needs \"vc\"") }
            return op == .addChild ? .addChild(viewController: vc) : .removeChild(viewController: vc)
        case .selectRow:
            guard let row = try fields.int("row", minimum: 0) else { throw fields.error("needs \"row\"") }
            return .user(.selectRow(section: try fields.int("section", minimum: 0) ?? 0, row: row))
        case .typeText:
            guard let field = try fields.string("field"), !field.isEmpty else { throw fields.error("needs \"field\"") }
            guard let text = try fields.string("text") else { throw fields.error("needs \"text\"") }
            return .user(.typeText(field: field, text: text))
        case .tapControl:
            guard let control = try fields.string("control"), !control.isEmpty else {
                throw fields.error("needs \"control\"")
            }
            return .user(.tapControl(control: control))
        case .alertAction:
            guard let title = try fields.string("title"), !title.isEmpty else { throw fields.error("needs \"title\"") }
            return .user(.alertAction(title: title))
        case .swipeRow:
            guard let row = try fields.int("row", minimum: 0) else { throw fields.error("needs \"row\"") }
            var edge = UserAction.SwipeEdge.trailing
            if let name = try fields.string("edge") {
                guard let named = UserAction.SwipeEdge(rawValue: name) else {
                    throw fields.error("\"edge\" must be \"trailing\" (a swipe to the left) or \"leading\"")
                }
                edge = named
            }
            let action = try fields.string("action")
            if action?.isEmpty == true {
                throw fields.error("\"action\" must not be empty (leave it out to swipe all the way)")
            }
            return .user(
                .swipeRow(section: try fields.int("section", minimum: 0) ?? 0, row: row, edge: edge, action: action)
            )
        case .moveRow:
            guard let row = try fields.int("row", minimum: 0) else { throw fields.error("needs \"row\"") }
            guard let toRow = try fields.int("toRow", minimum: 0) else { throw fields.error("needs \"toRow\"") }
            let section = try fields.int("section", minimum: 0) ?? 0
            let toSection = try fields.int("toSection", minimum: 0) ?? section
            return .user(.moveRow(section: section, row: row, toSection: toSection, toRow: toRow))
        case .inspect: return .inspect
        case .memoryPressure, .waitFor, .sleep, .quit:
            throw fields.error("not a scene operation")
        }
    }
}

/// Typed access to a step's fields, with errors that name the place.
private struct Fields {
    package let object: [String: JSONValue]
    package let place: String

    package init(_ object: [String: JSONValue], place: String) {
        self.object = object
        self.place = place
    }

    package func error(_ message: String) -> ScenarioError { ScenarioError("\(place): \(message)") }

    /// The model's required fields are present, and exactly one of its alternatives.
    package func checkPresence(of fields: [OperationField]) throws(ScenarioError) {
        for field in fields where field.presence == .required && object[field.name] == nil {
            throw error("needs \"\(field.name)\"")
        }
        let alternatives = fields.filter { $0.presence == .exactlyOneOf }.map(\.name)
        guard !alternatives.isEmpty, alternatives.count(where: { object[$0] != nil }) != 1 else { return }
        throw error("needs exactly one of " + alternatives.map { "\"\($0)\"" }.joined(separator: " or "))
    }

    package func raw(_ key: String) -> JSONValue? { object[key] }

    package func scene() throws(ScenarioError) -> String {
        guard let scene = try string("scene") else { throw error("needs \"scene\"") }
        guard SceneSession.isValidIdentifier(scene) else {
            throw error("\"scene\": \(HostError.invalidSceneIdentifier(scene))")
        }
        return scene
    }

    package func string(_ key: String) throws(ScenarioError) -> String? {
        guard let value = object[key] else { return nil }
        guard case .string(let string) = value else { throw error("\"\(key)\" must be a string") }
        return string
    }

    package func bool(_ key: String) throws(ScenarioError) -> Bool? {
        guard let value = object[key] else { return nil }
        guard case .bool(let flag) = value else { throw error("\"\(key)\" must be true or false") }
        return flag
    }

    /// The largest integer a step's field takes (2⁴⁰): far above any window size, count or
    /// duration, and far below what overflows in arithmetic on it.
    package static let largestInteger = 1 << 40

    package func int(_ key: String, minimum: Int) throws(ScenarioError) -> Int? {
        guard let value = object[key] else { return nil }
        guard case .int(let number) = value, number >= minimum, number <= Self.largestInteger else {
            throw error("\"\(key)\" must be an integer in \(minimum)...\(Self.largestInteger)")
        }
        return number
    }

    /// A host limit, checked as its flag is (`Scenario.LimitRanges`).
    package func limit(_ limit: Scenario.LimitRange) throws(ScenarioError) -> Int? {
        guard let value = object[limit.key] else { return nil }
        guard case .int(let number) = value, limit.range.contains(number) else { throw error(limit.configMessage) }
        return number
    }

    package func milliseconds(_ key: String) throws(ScenarioError) -> Duration? {
        guard let value = object[key] else { return nil }
        guard case .int(let number) = value, number >= 0, number <= 86_400_000 else {
            throw error("\"\(key)\" must be a whole number of milliseconds between 0 and 86400000")
        }
        return .milliseconds(number)
    }

    package func requiredMilliseconds(_ key: String) throws(ScenarioError) -> Duration {
        guard let duration = try milliseconds(key) else { throw error("needs \"\(key)\"") }
        return duration
    }

    package func argv(_ key: String) throws(ScenarioError) -> [String]? {
        guard let value = object[key] else { return nil }
        guard case .array(let items) = value, !items.isEmpty else {
            throw error("\"\(key)\" must be a non-empty array of strings (an argv)")
        }
        var argv: [String] = []
        for item in items {
            guard case .string(let argument) = item else { throw error("\"\(key)\" must contain only strings") }
            // `execve` takes C strings: a NUL would cut the argument short, and another program
            // would run than the one shown and stored.
            guard !argument.utf8.contains(0) else {
                throw error(
                    "\"\(key)\" argument \(argv.count) contains a NUL character (\\u0000), which no argv can hold"
                )
            }
            argv.append(argument)
        }
        return argv
    }

    /// A non-empty array of non-empty names (a tab bar's tabs).
    package func names(_ key: String) throws(ScenarioError) -> [String]? {
        guard let value = object[key] else { return nil }
        guard case .array(let items) = value, !items.isEmpty else {
            throw error("\"\(key)\" must be a non-empty array of controller names")
        }
        var names: [String] = []
        for item in items {
            guard case .string(let name) = item, !name.isEmpty else {
                throw error("\"\(key)\" must contain only non-empty strings")
            }
            names.append(name)
        }
        return names
    }

    package func signal(_ key: String) throws(ScenarioError) -> Int32? {
        guard let value = object[key] else { return nil }
        switch value {
        case .string(let name):
            guard let number = SignalNames.number(named: name) else {
                throw error(
                    "unknown signal \(quoted(name)) (known: \(SignalNames.knownNames.joined(separator: " ")), "
                        + "with or without SIG, or a number 1-64)"
                )
            }
            return number
        case .int(let number) where (1...64).contains(number):
            return Int32(number)
        default:
            throw error("\"\(key)\" must be a signal name like \"KILL\" or a number 1-64")
        }
    }
}

/// Reads a whole file, at most `limit` bytes; nil on failure (errno set).
package func readWholeFile(_ path: String, limit: Int) -> [UInt8]? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var result: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n < 0 && errno == EINTR { continue }
        if n < 0 { return nil }
        if n == 0 { break }
        result.append(contentsOf: chunk[0..<n])
        if result.count > limit {
            errno = EFBIG
            return nil
        }
    }
    return result
}
