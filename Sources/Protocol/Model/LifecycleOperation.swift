/// Every operation a scenario step, a control request or a `hostctl` command can name:
/// the one spelling of each name, its fields, and (for scene operations) when it is legal.
///
/// The host's refusals, the scenario parser, the CLI and its `--help`, and the stress audit
/// read this table; a test compares docs/LIFECYCLE.md §2's operations table with it.
public enum LifecycleOperation: String, Sendable, Hashable, CaseIterable, CasePositioned, CustomStringConvertible {
    case connect
    case activate
    case deactivate
    case background
    case foreground
    case disconnect
    case discard
    case push
    case pop
    case resize
    case memoryWarning
    case notify
    case beginBackgroundTask
    case endBackgroundTask
    case kill
    case terminate
    case memoryPressure
    case waitFor
    case sleep
    case quit
    // Presentation and interactive transitions (LIFECYCLE.md §3a).
    case present
    case dismiss
    case swipeDismiss
    case swipeBack
    case tap
    case openURL
    case continueUserActivity
    // Tab bar roots (LIFECYCLE.md §3a).
    case selectTab
    // Containment (LIFECYCLE.md §3a): a child of the frontmost controller.
    case addChild
    case removeChild
    // A user's hands and eyes: actions on the frontmost screen, and a look at it.
    case selectRow
    case typeText
    case tapControl
    case alertAction
    case swipeRow
    case moveRow
    case inspect
    // The system's ways into an app (real-ios-orders-3 c11, c12) and a stack's pop to its root (c22).
    case quickAction
    case openNotification
    case popToRoot
    case remoteNotification

    /// What an operation acts on.
    public enum Kind: Sendable, Hashable {
        /// One scene, with a legality (refused with a typed error when illegal).
        case scene
        /// The whole host (never refused).
        case host
        /// A step of a script: waits, never refused.
        case script
    }

    public var description: String { rawValue }

    public var kind: Kind {
        switch self {
        case .memoryPressure, .quit: .host
        case .waitFor, .sleep: .script
        default: .scene
        }
    }

    /// The fields a step of this operation accepts (besides `op`), in help order.
    public var fields: [OperationField] {
        switch self {
        case .connect:
            [
                .scene, OperationField("background", .bool),
                OperationField("root", .string(nonEmpty: true), placeholder: "NAME"),
                OperationField("worker", .argv, placeholder: "PATH"),
                OperationField("url", .string(nonEmpty: true), placeholder: "URL"),
                OperationField("width", .positiveInt, placeholder: "N"),
                OperationField("height", .positiveInt, placeholder: "N"),
                OperationField("lifecycle", .string(nonEmpty: true), placeholder: "scene|app"),
                OperationField("tabs", .names, placeholder: "NAME,…"),
                OperationField("style", .string(nonEmpty: true), placeholder: "light|dark"),
                OperationField("app", .string(nonEmpty: true), placeholder: "NAME"),
            ]
        case .push:
            [
                .scene, OperationField("vc", .string(nonEmpty: true), .required, placeholder: "NAME"),
                OperationField("payload", .json, placeholder: "JSON"),
            ]
        case .resize:
            [
                .scene, OperationField("width", .positiveInt, .required, placeholder: "N"),
                OperationField("height", .positiveInt, .required, placeholder: "N"),
            ]
        case .notify:
            [
                .scene, OperationField("name", .string(nonEmpty: true), .required, placeholder: "NAME"),
                OperationField("value", .json, placeholder: "JSON"),
            ]
        case .kill: [.scene, OperationField("signal", .signal, placeholder: "SIGNAL")]
        case .openURL: [.scene, OperationField("url", .string(nonEmpty: true), .required, placeholder: "URL")]
        case .continueUserActivity:
            [
                .scene, OperationField("activityType", .string(nonEmpty: true), .required, placeholder: "TYPE"),
                OperationField("userInfo", .json, placeholder: "JSON"),
            ]
        case .waitFor:
            [
                .scene, OperationField("state", .activationState, .exactlyOneOf, placeholder: "STATE"),
                OperationField("process", .processState, .exactlyOneOf, placeholder: "PROCESS"),
                OperationField("timeoutMs", .milliseconds, placeholder: "MS"),
            ]
        case .sleep: [OperationField("ms", .milliseconds, .required, placeholder: "MS")]
        case .memoryPressure, .quit: []
        case .present:
            [
                .scene, OperationField("vc", .string(nonEmpty: true), .required, placeholder: "NAME"),
                OperationField("style", .string(nonEmpty: true), placeholder: "STYLE"),
                OperationField("modalInPresentation", .bool),
            ]
        case .quickAction:
            [
                .scene, OperationField("type", .string(nonEmpty: true), .required, placeholder: "TYPE"),
                OperationField("userInfo", .json, placeholder: "JSON"),
            ]
        case .remoteNotification: [.scene, OperationField("userInfo", .json, placeholder: "JSON")]
        case .openNotification:
            [
                .scene, OperationField("userInfo", .json, placeholder: "JSON"),
                OperationField("actionIdentifier", .string(nonEmpty: true), placeholder: "ID"),
            ]
        case .swipeDismiss, .swipeBack: [.scene, OperationField("completes", .bool)]
        case .dismiss: [.scene]
        case .selectTab: [.scene, OperationField("index", .nonNegativeInt, .required, placeholder: "N")]
        case .addChild, .removeChild:
            [.scene, OperationField("vc", .string(nonEmpty: true), .required, placeholder: "NAME")]
        case .selectRow:
            [
                .scene, OperationField("row", .nonNegativeInt, .required, placeholder: "N"),
                OperationField("section", .nonNegativeInt, placeholder: "N"),
            ]
        case .typeText:
            [
                .scene, OperationField("field", .string(nonEmpty: true), .required, placeholder: "FIELD"),
                OperationField("text", .string(nonEmpty: false), .required, placeholder: "TEXT"),
            ]
        case .tapControl:
            [.scene, OperationField("control", .string(nonEmpty: true), .required, placeholder: "TITLE")]
        case .alertAction:
            [.scene, OperationField("title", .string(nonEmpty: true), .required, placeholder: "TITLE")]
        case .swipeRow:
            [
                .scene, OperationField("row", .nonNegativeInt, .required, placeholder: "N"),
                OperationField("section", .nonNegativeInt, placeholder: "N"),
                OperationField("edge", .string(nonEmpty: true), placeholder: "trailing|leading"),
                OperationField("action", .string(nonEmpty: true), placeholder: "TITLE"),
            ]
        case .moveRow:
            [
                .scene, OperationField("row", .nonNegativeInt, .required, placeholder: "N"),
                OperationField("section", .nonNegativeInt, placeholder: "N"),
                OperationField("toRow", .nonNegativeInt, .required, placeholder: "N"),
                OperationField("toSection", .nonNegativeInt, placeholder: "N"),
            ]
        case .activate, .deactivate, .background, .foreground, .disconnect, .discard, .pop, .memoryWarning,
            .beginBackgroundTask, .endBackgroundTask, .terminate, .tap, .inspect, .popToRoot:
            [.scene]
        }
    }

    /// Whether a step names a scene.
    public var takesScene: Bool { fields.contains { $0.name == "scene" } }

    /// The fields besides `scene`, as help texts list them: `vc`, `state | process, timeoutMs`.
    public var fieldSummary: String {
        var parts: [String] = []
        var alternatives: [String] = []
        for field in fields where field.name != "scene" {
            if field.presence == .exactlyOneOf {
                alternatives.append(field.name)
                continue
            }
            if !alternatives.isEmpty {
                parts.append(alternatives.joined(separator: " | "))
                alternatives = []
            }
            parts.append(field.name)
        }
        if !alternatives.isEmpty { parts.append(alternatives.joined(separator: " | ")) }
        return parts.joined(separator: ", ")
    }

    /// `push (vc)`, `activate`: the operation and its fields, for help texts.
    public var usageSummary: String {
        let fields = fieldSummary
        return fields.isEmpty ? rawValue : "\(rawValue) (\(fields))"
    }
}
