/// The `op` string of each request (`WorkerOperation.name`).
enum OperationKind: String, CaseIterable {
    case connect
    case activate
    case deactivate
    case background
    case foreground
    case stateRestoration
    case disconnect
    case terminate
    case push
    case pop
    case resize
    case memoryWarning
    case windowMemoryWarning
    case notify
    case beginBackgroundTask
    case endBackgroundTask
    case expireBackgroundTask
    case present
    case dismiss
    case swipeDismiss
    case swipeBack
    case tap
    case openURL
    case continueUserActivity
    case quickAction
    case openNotification
    case remoteNotification
    case popToRoot
    case didDiscardSceneSessions
    case selectTab
    case addChild
    case removeChild
    case selectRow
    case typeText
    case tapControl
    case alertAction
    case swipeRow
    case moveRow
    case inspect

    /// Lookup table: a hash beats the linear string switch of `init(rawValue:)`.
    static let byName = NameTable(allCases) { $0.rawValue }

    /// The operation of a kind that takes no parameters; nil for the others.
    var withoutParameters: WorkerOperation? {
        switch self {
        case .activate: .activate
        case .deactivate: .deactivate
        case .background: .enterBackground
        case .foreground: .enterForeground
        case .stateRestoration: .stateRestoration
        case .disconnect: .disconnect
        case .terminate: .terminate
        case .pop: .pop
        case .memoryWarning: .memoryWarning
        case .windowMemoryWarning: .windowMemoryWarning
        case .beginBackgroundTask: .beginBackgroundTask
        case .endBackgroundTask: .endBackgroundTask
        case .expireBackgroundTask: .expireBackgroundTask
        case .dismiss: .dismiss
        case .tap: .tap
        case .inspect: .inspect
        case .popToRoot: .popToRoot
        case .quickAction, .openNotification, .remoteNotification: nil
        case .selectRow, .typeText, .tapControl, .alertAction, .swipeRow, .moveRow: nil
        case .connect, .push, .resize, .notify, .present, .swipeDismiss, .swipeBack, .openURL, .continueUserActivity,
            .didDiscardSceneSessions, .selectTab, .addChild, .removeChild:
            nil
        }
    }
}

extension CallbackName {
    /// Lookup table: a hash beats the linear string switch of `init(rawValue:)`.
    static let byName = NameTable(allCases) { $0.rawValue }

    /// The callback named `name` (its raw value), if any: `init(rawValue:)` through a hash
    /// table. The synthesized initializer costs about 600 instructions, and the host's trace
    /// checker asks once per callback it records.
    public init?(named name: String) {
        guard let callback = Self.byName[name] else { return nil }
        self = callback
    }
}
