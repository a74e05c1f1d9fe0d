/// One field an operation takes, as scenario steps, control requests and `hostctl` flags
/// spell it (`{"op":"push","scene":"A","vc":"Detail"}`, `hostctl push A --vc Detail`).
public struct OperationField: Sendable, Hashable {
    /// What a field's value must be.
    public enum Value: Sendable, Hashable {
        /// A scene identifier.
        case scene
        case bool
        /// A string (`nonEmpty`: the empty string is refused).
        case string(nonEmpty: Bool)
        /// An integer of at least 1.
        case positiveInt
        /// An integer of at least 0 (a tab's index).
        case nonNegativeInt
        /// A whole number of milliseconds.
        case milliseconds
        /// Any JSON value.
        case json
        /// A non-empty array of strings: a worker's argv.
        case argv
        /// A non-empty array of non-empty controller names (a tab bar's tabs).
        case names
        /// A signal name (`KILL`) or number (1–64).
        case signal
        /// An activation state's name.
        case activationState
        /// A process state's name.
        case processState
    }

    /// Whether a step must carry the field.
    public enum Presence: Sendable, Hashable {
        case required
        case optional
        /// Exactly one of the operation's fields marked so must be present.
        case exactlyOneOf
    }

    /// The JSON key (`vc`, `timeoutMs`).
    public var name: String
    public var value: Value
    public var presence: Presence
    /// What `--help` shows for the value (`NAME`, `N`).
    public var placeholder: String

    public init(_ name: String, _ value: Value, _ presence: Presence = .optional, placeholder: String = "") {
        self.name = name
        self.value = value
        self.presence = presence
        self.placeholder = placeholder
    }

    static let scene = OperationField("scene", .scene, .required, placeholder: "SCENE")
}
