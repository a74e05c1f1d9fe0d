import Protocol

/// A scene session (`UISceneSession`): it outlives its worker and ends only when discarded.
public struct SceneSession: Sendable, Hashable {
    /// The persistent identifier (the scene's name in scenarios and the trace).
    public var identifier: String
    public var configuration: String
    public var role: String
    /// The last answer to `stateRestorationActivity`, stored before the background transition completed.
    public var restoration: JSONValue?
    /// `.app` when the session's app has no scene support (docs/LIFECYCLE.md §3d): a later
    /// connect that asks for no lifecycle, after a host restart too, asks for this one. Nil
    /// for a scene-based app (the file then has no `lifecycle` field, as before).
    public var lifecycle: LifecycleKind?
    /// The argv of the worker that last connected the session, when it was not the host's
    /// default (`connect … "worker"`): a connect that names none, after a host restart too,
    /// runs it again, so that the default worker does not take over (and overwrite) the
    /// state of another app. Nil for the default worker (the file has no `worker` field), so
    /// a host whose own path changed still starts its default.
    public var worker: [String]?
    /// The app whose process the session's scene last ran in (docs/LIFECYCLE.md §4a): a later
    /// connect that names no app, after a host restart too, joins it. Nil for a scene with a
    /// process of its own (the file then has no `app` field).
    public var app: String?

    public init(
        identifier: String,
        configuration: String = "Default Configuration",
        role: String = "windowApplication",
        restoration: JSONValue? = nil,
        lifecycle: LifecycleKind? = nil,
        worker: [String]? = nil,
        app: String? = nil
    ) {
        self.identifier = identifier
        self.configuration = configuration
        self.role = role
        self.restoration = restoration
        self.lifecycle = lifecycle
        self.worker = worker
        self.app = app
    }

    package var json: JSONValue {
        var object: [String: JSONValue] = [
            "identifier": .string(identifier),
            "configuration": .string(configuration),
            "role": .string(role),
        ]
        if let restoration { object["restoration"] = restoration }
        if lifecycle == .app { object["lifecycle"] = .string(LifecycleKind.app.rawValue) }
        if let worker { object["worker"] = .array(worker.map { .string($0) }) }
        if let app { object["app"] = .string(app) }
        return .object(object)
    }

    package init?(json: JSONValue) {
        guard case .object(let object) = json,
            case .string(let identifier)? = object["identifier"],
            case .string(let configuration)? = object["configuration"],
            case .string(let role)? = object["role"]
        else { return nil }
        // An unknown lifecycle (a newer host's) reads as scene-based rather than losing the session.
        var lifecycle: LifecycleKind?
        if case .string(let kind)? = object["lifecycle"], LifecycleKind(rawValue: kind) == .app { lifecycle = .app }
        // A worker argv that is not a non-empty list of strings reads as none: the default
        // worker then runs, rather than the session being lost.
        var worker: [String]?
        if case .array(let elements)? = object["worker"], !elements.isEmpty {
            let strings = elements.compactMap { element -> String? in
                if case .string(let text) = element, !text.isEmpty { return text }
                return nil
            }
            if strings.count == elements.count { worker = strings }
        }
        // An app name that is not a valid one reads as none: the scene then gets a process
        // of its own rather than the session being lost.
        var app: String?
        if case .string(let name)? = object["app"], SceneSession.isValidIdentifier(name) { app = name }
        self.init(
            identifier: identifier,
            configuration: configuration,
            role: role,
            restoration: object["restoration"],
            lifecycle: lifecycle,
            worker: worker,
            app: app
        )
    }

    /// Whether `identifier` is safe as a session identifier and a file name:
    /// 1–64 characters from `A-Z a-z 0-9 . _ -`, not starting with `.`.
    public static func isValidIdentifier(_ identifier: String) -> Bool {
        let bytes = Array(identifier.utf8)
        guard (1...64).contains(bytes.count), bytes[0] != UInt8(ascii: ".") else { return false }
        return bytes.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
                true
            default:
                false
            }
        }
    }
}
