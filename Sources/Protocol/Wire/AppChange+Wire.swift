// The `change` message's fields (`AppChange`): decoded strictly, as WireCodec.swift decodes
// the rest of the worker's messages.

extension AppChange {
    /// Decodes the fields of a `change` message after its `type`.
    init(decoding message: inout WireObject) throws(ProtocolError) {
        let op = try message.string("op")
        guard let kind = ChangeKind.byName[op] else {
            throw ProtocolError(.unknownOperation, "unknown change op \(quoted(op))")
        }
        message.kind = "change \(op)"
        switch kind {
        case .push: self = .push(viewController: try message.nonEmptyString("vc"))
        case .pop: self = .pop
        case .popToRoot: self = .popToRoot
        case .popTo: self = .popTo(index: try message.nonNegativeInteger("index"))
        case .beginBackgroundTask: self = .beginBackgroundTask
        case .endBackgroundTask: self = .endBackgroundTask
        case .setStack: self = .setStack(try message.viewControllerList("stack"))
        case .replaceStack:
            self = .replaceStack(
                kept: try message.indexList("kept"),
                below: message.value("below") == nil ? [] : try message.viewControllerList("below"),
                viewController: try message.nonEmptyString("vc")
            )
        case .setTabs:
            let tabs = try message.viewControllerList("tabs")
            let selected = try message.nonNegativeInteger("selected")
            guard selected < tabs.count else {
                throw ProtocolError(.invalidParameters, "change setTabs: selected \(selected) is not a tab's index")
            }
            self = .setTabs(tabs, selected: selected)
        case .present:
            let style = try message.nonEmptyString("style")
            guard let presentation = PresentationStyle(rawValue: style) else {
                throw ProtocolError(.invalidParameters, "change present: unknown style \(quoted(style))")
            }
            self = .present(viewController: try message.nonEmptyString("vc"), style: presentation)
        case .dismiss: self = .dismiss
        case .requestSceneSessionActivation:
            self = .requestSceneSessionActivation(
                session: try message.optionalString("session"),
                activityType: try message.optionalString("activityType"),
                userInfo: message.value("userInfo")
            )
        case .requestSceneSessionDestruction:
            self = .requestSceneSessionDestruction(session: try message.nonEmptyString("session"))
        case .selectTab: self = .selectTab(index: try message.nonNegativeInteger("index"))
        case .addChild: self = .addChild(viewController: try message.nonEmptyString("vc"))
        case .removeChild: self = .removeChild(viewController: try message.nonEmptyString("vc"))
        }
    }
}

/// The `op` string of each app change (`AppChange.name`).
private enum ChangeKind: String, CaseIterable {
    case push
    case pop
    case popToRoot
    case popTo
    case beginBackgroundTask
    case endBackgroundTask
    case setStack
    case replaceStack
    case setTabs
    case present
    case dismiss
    case requestSceneSessionActivation
    case requestSceneSessionDestruction
    case selectTab
    case addChild
    case removeChild

    static let byName = NameTable(allCases) { $0.rawValue }
}
