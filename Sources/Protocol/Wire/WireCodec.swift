/// Encoding and strict decoding of the protocol's own messages, without Codable.
///
/// `encode` appends one frame: the JSON object followed by `\n`. `decode` takes one frame's
/// bytes (without the newline) and either returns a message or throws a typed `ProtocolError`.
///
/// Encoding writes bytes directly (fixed key order, see the doc comments of `HostCommand`
/// and `WorkerMessage`); no intermediate `JSONValue` tree is built for the envelope.
///
/// Decoding is strict about what it understands and lenient about what it does not:
/// - not valid JSON → `.parseError` (`.nestingTooDeep` for deep nesting);
/// - valid JSON but not an object, or a required field missing or of the wrong JSON type
///   → `.invalidMessage` naming the field;
/// - an `op`, `type` or callback `name` this side does not know → `.unknownOperation`;
/// - a field of the right JSON type with an unacceptable value (negative or non-integral
///   `id`, negative `width`/`height`, empty `vc`, `session`, `root` or notification name,
///   `pid` outside `1...Int32.max`, an empty `stack` or an empty name in it, an `origin`
///   other than `app`) → `.invalidParameters` naming the field.
/// - Unknown extra fields are ignored, for forward compatibility: a newer peer may add
///   optional fields without breaking an older one. (Duplicate keys are still rejected.)
/// - Optional `JSONValue` fields (`restoration`, `value`, `result`) distinguish absent (nil)
///   from an explicit `null` (`.null`); optional string fields must be strings when present.
/// - `hello` and `ready` decode whatever protocol number they carry: checking it is the
///   receiver's job (it answers `.versionMismatch`).
extension HostCommand {
    /// Appends this command's frame (JSON + `\n`) to `buffer`.
    public func encode(into buffer: inout [UInt8]) {
        if FrameScratch.encode(self, into: &buffer) { return }
        encodePieceByPiece(into: &buffer)
    }

    /// The general encoder, for every command (`encode` tries `FrameScratch` first).
    func encodePieceByPiece(into buffer: inout [UInt8]) {
        switch self {
        case .hello(let protocolVersion, let lifecycle, let foldedReplies):
            JSONWriter.appendLiteral(#"{"op":"hello","protocol":"#, to: &buffer)
            JSONWriter.writeInt(protocolVersion, into: &buffer)
            if let lifecycle {
                JSONWriter.appendLiteral(#","lifecycle":""#, to: &buffer)
                JSONWriter.appendVerbatim(lifecycle.rawValue, to: &buffer)
                buffer.append(ASCII.quote)
            }
            if foldedReplies {
                JSONWriter.appendLiteral(#","foldedReplies":true"#, to: &buffer)
            }
        case .request(let id, let operation):
            JSONWriter.appendLiteral(#"{"id":"#, to: &buffer)
            JSONWriter.writeInt(id, into: &buffer)
            JSONWriter.appendLiteral(#","op":""#, to: &buffer)
            // Operation names are plain ASCII identifiers: no escaping needed.
            JSONWriter.appendVerbatim(operation.name, to: &buffer)
            buffer.append(ASCII.quote)
            operation.encodeParameters(into: &buffer)
        }
        JSONWriter.appendLiteral("}\n", to: &buffer)
    }

    /// Decodes one frame (without its trailing newline).
    public init(frame: UnsafeRawBufferPointer) throws(ProtocolError) {
        if let common = FrameShapes.request(frame) {
            self = common
            return
        }
        try self.init(generalFrame: frame)
    }

    /// The general decoder, for every frame (`init(frame:)` tries `FrameShapes` first).
    init(generalFrame frame: UnsafeRawBufferPointer) throws(ProtocolError) {
        var message = try WireObject(frame: frame, kind: "command")
        let op = try message.string("op")
        if op == "hello" {
            message.kind = op
            self = .hello(
                protocolVersion: try message.integer("protocol"),
                lifecycle: try message.lifecycle(),
                foldedReplies: try message.optionalBool("foldedReplies")
            )
            return
        }
        guard let kind = OperationKind.byName[op] else {
            throw ProtocolError(.unknownOperation, "unknown op \(quoted(op))")
        }
        message.kind = op
        let id = try message.nonNegativeInteger("id")
        if let plain = kind.withoutParameters {
            self = .request(id: id, plain)
            return
        }
        let operation: WorkerOperation
        switch kind {
        case .connect:
            operation = .connect(
                ConnectOptions(
                    session: try message.nonEmptyString("session"),
                    configuration: try message.string("configuration"),
                    role: try message.string("role"),
                    background: try message.bool("background"),
                    root: try message.nonEmptyString("root"),
                    reconnect: try message.bool("reconnect"),
                    restoration: message.value("restoration"),
                    url: try message.optionalURL("url"),
                    width: try message.optionalPositiveInteger("width"),
                    height: try message.optionalPositiveInteger("height"),
                    discardedSessions: try message.optionalNameList("discardedSessions"),
                    activityType: try message.optionalString("activityType"),
                    userInfo: message.value("userInfo"),
                    tabs: try message.optionalNameList("tabs"),
                    style: try message.optionalString("style").map { style throws(ProtocolError) in
                        guard let known = InterfaceStyle(rawValue: style) else {
                            throw ProtocolError(.invalidParameters, "connect: unknown style \(quoted(style))")
                        }
                        return known
                    },
                    shortcutItem: message.value("shortcutItem"),
                    notificationResponse: message.value("notificationResponse"),
                    remoteNotification: message.value("remoteNotification")
                )
            )
        case .push:
            operation = .push(viewController: try message.nonEmptyString("vc"), payload: message.value("payload"))
        case .resize:
            operation = .resize(
                width: try message.nonNegativeInteger("width"),
                height: try message.nonNegativeInteger("height")
            )
        case .notify:
            operation = .notify(name: try message.nonEmptyString("name"), value: try message.requiredValue("value"))
        case .present:
            let style = try message.nonEmptyString("style")
            guard let presentation = PresentationStyle(rawValue: style) else {
                throw ProtocolError(.invalidParameters, "present: unknown style \(quoted(style))")
            }
            operation = .present(
                viewController: try message.nonEmptyString("vc"),
                style: presentation,
                modalInPresentation: try message.optionalBool("modalInPresentation")
            )
        case .swipeDismiss: operation = .swipeDismiss(completes: try message.bool("completes"))
        case .swipeBack: operation = .swipeBack(completes: try message.bool("completes"))
        case .didDiscardSceneSessions:
            operation = .didDiscardSceneSessions(sessions: try message.viewControllerList("sessions"))
        case .openURL: operation = .openURL(url: try message.url("url"))
        case .continueUserActivity:
            operation = .continueUserActivity(
                activityType: try message.nonEmptyString("activityType"),
                userInfo: message.value("userInfo")
            )
        case .quickAction:
            operation = .quickAction(type: try message.nonEmptyString("type"), userInfo: message.value("userInfo"))
        case .openNotification:
            operation = .openNotification(
                actionIdentifier: try message.nonEmptyString("actionIdentifier"),
                userInfo: message.value("userInfo")
            )
        case .remoteNotification:
            operation = .remoteNotification(userInfo: message.value("userInfo"))
        case .selectTab: operation = .selectTab(index: try message.nonNegativeInteger("index"))
        case .addChild: operation = .addChild(viewController: try message.nonEmptyString("vc"))
        case .removeChild: operation = .removeChild(viewController: try message.nonEmptyString("vc"))
        case .selectRow:
            operation = .user(
                .selectRow(
                    section: try message.nonNegativeInteger("section"),
                    row: try message.nonNegativeInteger("row")
                )
            )
        case .typeText:
            operation = .user(.typeText(field: try message.nonEmptyString("field"), text: try message.string("text")))
        case .tapControl: operation = .user(.tapControl(control: try message.nonEmptyString("control")))
        case .alertAction: operation = .user(.alertAction(title: try message.nonEmptyString("title")))
        case .swipeRow: operation = .user(try UserAction.swipeRow(from: &message))
        case .moveRow: operation = .user(try UserAction.moveRow(from: &message))
        default:
            // `withoutParameters` names every other kind (its switch is exhaustive).
            preconditionFailure("\(kind) was decoded above")
        }
        self = .request(id: id, operation)
    }

    /// Decodes one frame (without its trailing newline).
    public init(frame: [UInt8]) throws(ProtocolError) {
        let result: Result<HostCommand, ProtocolError> = frame.withUnsafeBytes { raw in
            do throws(ProtocolError) {
                return .success(try HostCommand(frame: raw))
            } catch {
                return .failure(error)
            }
        }
        self = try result.get()
    }
}

extension WorkerOperation {
    /// `,"<key>":"<name>"`, then its `userInfo` if any: what the system hands a scene.
    fileprivate static func appendDelivery(
        _ key: StaticString,
        _ name: String,
        userInfo: JSONValue?,
        into buffer: inout [UInt8]
    ) {
        JSONWriter.appendLiteral(key, to: &buffer)
        JSONWriter.writeString(name, into: &buffer)
        appendUserInfo(userInfo, into: &buffer)
    }

    /// `,"userInfo":…`, or nothing without one.
    fileprivate static func appendUserInfo(_ userInfo: JSONValue?, into buffer: inout [UInt8]) {
        guard let userInfo else { return }
        JSONWriter.appendLiteral(#","userInfo":"#, to: &buffer)
        JSONWriter.write(userInfo, into: &buffer)
    }

    /// Appends `,"key":value` for each parameter of this operation.
    fileprivate func encodeParameters(into buffer: inout [UInt8]) {
        switch self {
        case .connect(let options):
            JSONWriter.appendLiteral(#","session":"#, to: &buffer)
            JSONWriter.writeString(options.session, into: &buffer)
            JSONWriter.appendLiteral(#","configuration":"#, to: &buffer)
            JSONWriter.writeString(options.configuration, into: &buffer)
            JSONWriter.appendLiteral(#","role":"#, to: &buffer)
            JSONWriter.writeString(options.role, into: &buffer)
            JSONWriter.appendLiteral(options.background ? #","background":true"# : #","background":false"#, to: &buffer)
            JSONWriter.appendLiteral(#","root":"#, to: &buffer)
            JSONWriter.writeString(options.root, into: &buffer)
            JSONWriter.appendLiteral(options.reconnect ? #","reconnect":true"# : #","reconnect":false"#, to: &buffer)
            if let restoration = options.restoration {
                JSONWriter.appendLiteral(#","restoration":"#, to: &buffer)
                JSONWriter.write(restoration, into: &buffer)
            }
            if let url = options.url {
                JSONWriter.appendLiteral(#","url":"#, to: &buffer)
                JSONWriter.writeString(url, into: &buffer)
            }
            if let width = options.width {
                JSONWriter.appendLiteral(#","width":"#, to: &buffer)
                JSONWriter.writeInt(width, into: &buffer)
            }
            if let height = options.height {
                JSONWriter.appendLiteral(#","height":"#, to: &buffer)
                JSONWriter.writeInt(height, into: &buffer)
            }
            if let sessions = options.discardedSessions {
                JSONWriter.appendLiteral(#","discardedSessions":"#, to: &buffer)
                JSONWriter.write(.array(sessions.map { .string($0) }), into: &buffer)
            }
            if let activityType = options.activityType {
                JSONWriter.appendLiteral(#","activityType":"#, to: &buffer)
                JSONWriter.writeString(activityType, into: &buffer)
            }
            if let userInfo = options.userInfo {
                JSONWriter.appendLiteral(#","userInfo":"#, to: &buffer)
                JSONWriter.write(userInfo, into: &buffer)
            }
            if let tabs = options.tabs {
                JSONWriter.appendLiteral(#","tabs":"#, to: &buffer)
                JSONWriter.write(.array(tabs.map { .string($0) }), into: &buffer)
            }
            if let style = options.style {
                JSONWriter.appendLiteral(#","style":"#, to: &buffer)
                JSONWriter.writeString(style.rawValue, into: &buffer)
            }
            for (key, value) in [
                ("shortcutItem", options.shortcutItem), ("notificationResponse", options.notificationResponse),
                ("remoteNotification", options.remoteNotification),
            ] {
                guard let value else { continue }
                JSONWriter.appendLiteral(",", to: &buffer)
                JSONWriter.writeString(key, into: &buffer)
                JSONWriter.appendLiteral(":", to: &buffer)
                JSONWriter.write(value, into: &buffer)
            }
        case .selectTab(let index):
            JSONWriter.appendLiteral(#","index":"#, to: &buffer)
            JSONWriter.writeInt(index, into: &buffer)
        case .addChild(let viewController), .removeChild(let viewController):
            JSONWriter.appendLiteral(#","vc":"#, to: &buffer)
            JSONWriter.writeString(viewController, into: &buffer)
        case .didDiscardSceneSessions(let sessions):
            JSONWriter.appendLiteral(#","sessions":"#, to: &buffer)
            JSONWriter.write(.array(sessions.map { .string($0) }), into: &buffer)
        case .push(let viewController, let payload):
            JSONWriter.appendLiteral(#","vc":"#, to: &buffer)
            JSONWriter.writeString(viewController, into: &buffer)
            if let payload {
                JSONWriter.appendLiteral(#","payload":"#, to: &buffer)
                JSONWriter.write(payload, into: &buffer)
            }
        case .openURL(let url):
            JSONWriter.appendLiteral(#","url":"#, to: &buffer)
            JSONWriter.writeString(url, into: &buffer)
        case .continueUserActivity(let activityType, let userInfo):
            Self.appendDelivery(#","activityType":"#, activityType, userInfo: userInfo, into: &buffer)
        case .resize(let width, let height):
            JSONWriter.appendLiteral(#","width":"#, to: &buffer)
            JSONWriter.writeInt(width, into: &buffer)
            JSONWriter.appendLiteral(#","height":"#, to: &buffer)
            JSONWriter.writeInt(height, into: &buffer)
        case .notify(let name, let value):
            JSONWriter.appendLiteral(#","name":"#, to: &buffer)
            JSONWriter.writeString(name, into: &buffer)
            JSONWriter.appendLiteral(#","value":"#, to: &buffer)
            JSONWriter.write(value, into: &buffer)
        case .present(let viewController, let style, let modal):
            JSONWriter.appendLiteral(#","vc":"#, to: &buffer)
            JSONWriter.writeString(viewController, into: &buffer)
            JSONWriter.appendLiteral(#","style":"#, to: &buffer)
            JSONWriter.writeString(style.rawValue, into: &buffer)
            if modal { JSONWriter.appendLiteral(#","modalInPresentation":true"#, to: &buffer) }
        case .quickAction(let type, let userInfo):
            Self.appendDelivery(#","type":"#, type, userInfo: userInfo, into: &buffer)
        case .openNotification(let actionIdentifier, let userInfo):
            Self.appendDelivery(#","actionIdentifier":"#, actionIdentifier, userInfo: userInfo, into: &buffer)
        case .remoteNotification(let userInfo):
            Self.appendUserInfo(userInfo, into: &buffer)
        case .swipeDismiss(let completes), .swipeBack(let completes):
            JSONWriter.appendLiteral(completes ? #","completes":true"# : #","completes":false"#, to: &buffer)
        case .activate, .deactivate, .enterBackground, .enterForeground, .stateRestoration, .disconnect, .terminate,
            .pop, .memoryWarning, .beginBackgroundTask, .endBackgroundTask, .expireBackgroundTask, .dismiss, .tap,
            .inspect, .popToRoot, .windowMemoryWarning:
            break
        case .user(let action):
            for (key, value) in action.fields.sorted(by: { $0.key < $1.key }) {
                buffer.append(UInt8(ascii: ","))
                JSONWriter.writeString(key, into: &buffer)
                buffer.append(UInt8(ascii: ":"))
                JSONWriter.write(value, into: &buffer)
            }
        }
    }
}

extension WorkerMessage {
    /// Appends this message's frame (JSON + `\n`) to `buffer`.
    public func encode(into buffer: inout [UInt8]) {
        if FrameScratch.encode(self, into: &buffer) { return }
        encodePieceByPiece(into: &buffer)
    }

    /// The general encoder, for every message (`encode` tries `FrameScratch` first).
    func encodePieceByPiece(into buffer: inout [UInt8]) {
        switch self {
        case .ready(let protocolVersion, let pid, let lifecycle):
            JSONWriter.appendLiteral(#"{"type":"ready","protocol":"#, to: &buffer)
            JSONWriter.writeInt(protocolVersion, into: &buffer)
            JSONWriter.appendLiteral(#","pid":"#, to: &buffer)
            JSONWriter.writeInt(Int(pid), into: &buffer)
            if lifecycle != .scene {
                JSONWriter.appendLiteral(#","lifecycle":""#, to: &buffer)
                JSONWriter.appendVerbatim(lifecycle.rawValue, to: &buffer)
                buffer.append(ASCII.quote)
            }
        case .callback(let event):
            JSONWriter.appendLiteral(#"{"type":"callback","name":""#, to: &buffer)
            // Callback names are plain ASCII identifiers: no escaping needed.
            JSONWriter.appendVerbatim(event.name.rawValue, to: &buffer)
            buffer.append(ASCII.quote)
            if let viewController = event.viewController {
                JSONWriter.appendLiteral(#","vc":"#, to: &buffer)
                JSONWriter.writeString(viewController, into: &buffer)
            }
            if event.posted > 0 {
                JSONWriter.appendLiteral(#","posted":"#, to: &buffer)
                JSONWriter.writeInt(event.posted, into: &buffer)
            }
            if let restoration = event.restoration {
                JSONWriter.appendLiteral(#","restoration":"#, to: &buffer)
                JSONWriter.write(restoration, into: &buffer)
            }
            if let notification = event.notification {
                JSONWriter.appendLiteral(#","notification":"#, to: &buffer)
                JSONWriter.writeString(notification, into: &buffer)
            }
            if let value = event.value {
                JSONWriter.appendLiteral(#","value":"#, to: &buffer)
                JSONWriter.write(value, into: &buffer)
            }
            if let origin = event.origin {
                JSONWriter.appendLiteral(#","origin":""#, to: &buffer)
                // Origins are plain ASCII identifiers: no escaping needed.
                JSONWriter.appendVerbatim(origin.rawValue, to: &buffer)
                buffer.append(ASCII.quote)
            }
            if let reply = event.reply {
                JSONWriter.appendLiteral(#","reply":"#, to: &buffer)
                JSONWriter.writeInt(reply, into: &buffer)
            }
        case .change(let change):
            JSONWriter.appendLiteral(#"{"type":"change","op":""#, to: &buffer)
            // Change names are plain ASCII identifiers: no escaping needed.
            JSONWriter.appendVerbatim(change.name, to: &buffer)
            buffer.append(ASCII.quote)
            switch change {
            case .push(let viewController):
                JSONWriter.appendLiteral(#","vc":"#, to: &buffer)
                JSONWriter.writeString(viewController, into: &buffer)
            case .setStack(let stack):
                JSONWriter.appendLiteral(#","stack":["#, to: &buffer)
                Self.writeNames(stack, into: &buffer)
                buffer.append(ASCII.closeBracket)
            case .replaceStack(let kept, let below, let viewController):
                JSONWriter.appendLiteral(#","kept":["#, to: &buffer)
                for (position, index) in kept.enumerated() {
                    if position > 0 { buffer.append(ASCII.comma) }
                    JSONWriter.writeInt(index, into: &buffer)
                }
                if !below.isEmpty {
                    JSONWriter.appendLiteral(#"],"below":["#, to: &buffer)
                    Self.writeNames(below, into: &buffer)
                }
                JSONWriter.appendLiteral(#"],"vc":"#, to: &buffer)
                JSONWriter.writeString(viewController, into: &buffer)
            case .setTabs(let tabs, let selected):
                JSONWriter.appendLiteral(#","tabs":["#, to: &buffer)
                Self.writeNames(tabs, into: &buffer)
                JSONWriter.appendLiteral(#"],"selected":"#, to: &buffer)
                JSONWriter.writeInt(selected, into: &buffer)
            case .present(let viewController, let style):
                JSONWriter.appendLiteral(#","vc":"#, to: &buffer)
                JSONWriter.writeString(viewController, into: &buffer)
                JSONWriter.appendLiteral(#","style":"#, to: &buffer)
                JSONWriter.writeString(style.rawValue, into: &buffer)
            case .requestSceneSessionActivation(let session, let activityType, let userInfo):
                if let session {
                    JSONWriter.appendLiteral(#","session":"#, to: &buffer)
                    JSONWriter.writeString(session, into: &buffer)
                }
                if let activityType {
                    JSONWriter.appendLiteral(#","activityType":"#, to: &buffer)
                    JSONWriter.writeString(activityType, into: &buffer)
                }
                if let userInfo {
                    JSONWriter.appendLiteral(#","userInfo":"#, to: &buffer)
                    JSONWriter.write(userInfo, into: &buffer)
                }
            case .requestSceneSessionDestruction(let session):
                JSONWriter.appendLiteral(#","session":"#, to: &buffer)
                JSONWriter.writeString(session, into: &buffer)
            case .selectTab(let index), .popTo(let index):
                JSONWriter.appendLiteral(#","index":"#, to: &buffer)
                JSONWriter.writeInt(index, into: &buffer)
            case .addChild(let viewController), .removeChild(let viewController):
                JSONWriter.appendLiteral(#","vc":"#, to: &buffer)
                JSONWriter.writeString(viewController, into: &buffer)
            case .pop, .popToRoot, .beginBackgroundTask, .endBackgroundTask, .dismiss:
                break
            }
        case .reply(let id, let result):
            JSONWriter.appendLiteral(#"{"type":"reply","id":"#, to: &buffer)
            JSONWriter.writeInt(id, into: &buffer)
            if let result {
                JSONWriter.appendLiteral(#","result":"#, to: &buffer)
                JSONWriter.write(result, into: &buffer)
            }
        case .failure(let id, let error):
            JSONWriter.appendLiteral(#"{"type":"error""#, to: &buffer)
            if let id {
                JSONWriter.appendLiteral(#","id":"#, to: &buffer)
                JSONWriter.writeInt(id, into: &buffer)
            }
            JSONWriter.appendLiteral(#","code":"#, to: &buffer)
            JSONWriter.writeInt(error.code.rawValue, into: &buffer)
            JSONWriter.appendLiteral(#","message":"#, to: &buffer)
            JSONWriter.writeString(error.message, into: &buffer)
        }
        JSONWriter.appendLiteral("}\n", to: &buffer)
    }

    /// Decodes one frame (without its trailing newline).
    public init(frame: UnsafeRawBufferPointer) throws(ProtocolError) {
        if let common = FrameShapes.message(frame) {
            self = common
            return
        }
        try self.init(generalFrame: frame)
    }

    /// The general decoder, for every frame (`init(frame:)` tries `FrameShapes` first).
    init(generalFrame frame: UnsafeRawBufferPointer) throws(ProtocolError) {
        var message = try WireObject(frame: frame, kind: "message")
        let type = try message.string("type")
        message.kind = type
        switch type {
        case "ready":
            let pid = try message.integer("pid")
            guard pid > 0 && pid <= Int(Int32.max) else {
                throw ProtocolError(.invalidParameters, "ready: field \"pid\" must be a process id in 1...\(Int32.max)")
            }
            self = .ready(
                protocolVersion: try message.integer("protocol"),
                pid: Int32(pid),
                lifecycle: try message.lifecycle() ?? .scene
            )
        case "callback":
            let name = try message.string("name")
            guard let callback = CallbackName.byName[name] else {
                throw ProtocolError(.unknownOperation, "unknown callback name \(quoted(name))")
            }
            let viewController = try message.optionalString("vc")
            if viewController?.isEmpty == true {
                throw ProtocolError(.invalidParameters, "callback: field \"vc\" must not be empty")
            }
            let origin: CallbackOrigin?
            switch try message.optionalString("origin") {
            case nil: origin = nil
            case "app": origin = .app
            case let other?:
                throw ProtocolError(.invalidParameters, "callback: unknown origin \(quoted(other))")
            }
            var event = CallbackEvent(
                callback,
                viewController: viewController,
                restoration: message.value("restoration"),
                notification: try message.optionalString("notification"),
                value: message.value("value"),
                origin: origin
            )
            if let posted = try message.optionalPositiveInteger("posted") {
                event.posted = try CallbackEvent.checked(posted: posted, of: callback, origin: origin)
            }
            event.reply = try message.optionalNonNegativeInteger("reply")
            self = .callback(event)
        case "change":
            self = .change(try AppChange(decoding: &message))
        case "reply":
            self = .reply(id: try message.nonNegativeInteger("id"), result: message.value("result"))
        case "error":
            let id: Int? = message.value("id") == nil ? nil : try message.nonNegativeInteger("id")
            let rawCode = try message.integer("code")
            let errorMessage = try message.string("message")
            // A code this side does not know (a newer peer's) still reports the failure.
            let code = ProtocolError.Code(rawValue: rawCode) ?? .operationFailed
            self = .failure(id: id, ProtocolError(code, errorMessage))
        default:
            throw ProtocolError(.unknownOperation, "unknown message type \(quoted(type))")
        }
    }

    /// Decodes one frame (without its trailing newline).
    public init(frame: [UInt8]) throws(ProtocolError) {
        let result: Result<WorkerMessage, ProtocolError> = frame.withUnsafeBytes { raw in
            do throws(ProtocolError) {
                return .success(try WorkerMessage(frame: raw))
            } catch {
                return .failure(error)
            }
        }
        self = try result.get()
    }

    /// `names` as JSON strings separated by commas, without the brackets.
    private static func writeNames(_ names: [String], into buffer: inout [UInt8]) {
        for (index, name) in names.enumerated() {
            if index > 0 { buffer.append(ASCII.comma) }
            JSONWriter.writeString(name, into: &buffer)
        }
    }
}
