import Testing

@testable import Protocol

private func encoded(_ command: HostCommand) -> String {
    var buffer: [UInt8] = []
    command.encode(into: &buffer)
    return String(decoding: buffer, as: UTF8.self)
}

private func encoded(_ message: WorkerMessage) -> String {
    var buffer: [UInt8] = []
    message.encode(into: &buffer)
    return String(decoding: buffer, as: UTF8.self)
}

/// One of each operation, with awkward parameters where there are any.
let allOperations: [WorkerOperation] = [
    .connect(ConnectOptions(session: "A")),
    .connect(
        ConnectOptions(
            session: "sess-\"1\"\n",
            configuration: "Ext é",
            role: "windowExternalDisplayNonInteractive",
            background: true,
            root: "Root",
            reconnect: true,
            restoration: .object(["stack": .array([.string("Root"), .string("Detail")]), "n": .double(0.5)])
        )
    ),
    .connect(ConnectOptions(session: "B", restoration: .null)),
    .activate,
    .deactivate,
    .enterBackground,
    .enterForeground,
    .stateRestoration,
    .disconnect,
    .terminate,
    .push(viewController: "Detail"),
    .push(viewController: "Ünïcode 😀"),
    .push(viewController: "Detail", payload: ["id": 42, "tags": ["a"]]),
    .push(viewController: "Detail", payload: .null),
    .pop,
    .resize(width: 800, height: 600),
    .resize(width: 0, height: Int.max),
    .memoryWarning,
    .notify(name: "sync", value: .int(3)),
    .notify(name: "n", value: .null),
    .notify(name: "deep", value: .array([.object(["a": .array([.bool(true)])])])),
    .beginBackgroundTask,
    .endBackgroundTask,
    .expireBackgroundTask,
    .tap,
    .openURL(url: "notes://x?q=%22x%22&r=1#f"),
    .continueUserActivity(activityType: "edit", userInfo: .object(["id": .int(1)])),
    .continueUserActivity(activityType: "view", userInfo: nil),
    .didDiscardSceneSessions(sessions: ["A", "b\"c"]),
    .connect(ConnectOptions(session: "D", discardedSessions: ["A"])),
    .connect(ConnectOptions(session: "U", url: "notes://item/%227%22", width: 844, height: 390)),
]

let allMessages: [WorkerMessage] =
    [
        .ready(protocolVersion: 1, pid: 4242),
        .ready(protocolVersion: 99, pid: Int32.max),
        .reply(id: 0, result: nil),
        .reply(id: 7, result: .object(["stack": .array([.string("Root")])])),
        .reply(id: Int.max, result: .null),
        .failure(id: 7, ProtocolError(.illegalTransition, "cannot pop the root view controller")),
        .failure(id: nil, ProtocolError(.parseError, "invalid JSON at byte 3: \"quoted\"\n")),
        .callback(
            CallbackEvent(
                .didReceiveNotification,
                viewController: "Root",
                restoration: .object(["x": .int(1)]),
                notification: "sync",
                value: .string("v")
            )
        ),
        .callback(CallbackEvent(.willConnectTo, restoration: .null)),
        .callback(CallbackEvent(.didReceiveNotification, notification: "", value: .null)),
    ]
    + ProtocolError.Code.allCases.map { .failure(id: 1, ProtocolError($0, "code \($0)")) }
    + CallbackName.allCases.map { name in
        .callback(CallbackEvent(name, viewController: name.isViewControllerCallback ? "Root" : nil))
    }

@Suite struct WireCodecTests {
    @Test func exactHostCommandBytes() {
        #expect(encoded(.hello(protocolVersion: 1)) == "{\"op\":\"hello\",\"protocol\":1}\n")
        #expect(
            encoded(.request(id: 7, .push(viewController: "Detail")))
                == "{\"id\":7,\"op\":\"push\",\"vc\":\"Detail\"}\n"
        )
        #expect(
            encoded(.request(id: 7, .push(viewController: "Detail", payload: ["id": 42])))
                == #"{"id":7,"op":"push","vc":"Detail","payload":{"id":42}}"# + "\n"
        )
        #expect(encoded(.request(id: 1, .activate)) == "{\"id\":1,\"op\":\"activate\"}\n")
        #expect(encoded(.request(id: 2, .enterBackground)) == "{\"id\":2,\"op\":\"background\"}\n")
        #expect(
            encoded(.request(id: 3, .resize(width: 800, height: 600)))
                == "{\"id\":3,\"op\":\"resize\",\"width\":800,\"height\":600}\n"
        )
        #expect(
            encoded(.request(id: 4, .notify(name: "sync", value: .int(3))))
                == "{\"id\":4,\"op\":\"notify\",\"name\":\"sync\",\"value\":3}\n"
        )
        #expect(
            encoded(.request(id: 5, .connect(ConnectOptions(session: "A", configuration: "Default"))))
                == #"{"id":5,"op":"connect","session":"A","configuration":"Default","role":"windowApplication","#
                + #""background":false,"root":"Root","reconnect":false}"# + "\n"
        )
        #expect(
            encoded(
                .request(
                    id: 6,
                    .connect(
                        ConnectOptions(
                            session: "A",
                            background: true,
                            reconnect: true,
                            restoration: .object(["b": .int(1), "a": .int(2)])
                        )
                    )
                )
            )
                == #"{"id":6,"op":"connect","session":"A","configuration":"Default Configuration","#
                + #""role":"windowApplication","background":true,"root":"Root","reconnect":true,"#
                + #""restoration":{"a":2,"b":1}}"# + "\n"
        )
    }

    @Test func exactWorkerMessageBytes() {
        #expect(encoded(.ready(protocolVersion: 1, pid: 4242)) == "{\"type\":\"ready\",\"protocol\":1,\"pid\":4242}\n")
        #expect(
            encoded(.callback(CallbackEvent(.viewDidLoad, viewController: "Root")))
                == "{\"type\":\"callback\",\"name\":\"viewDidLoad\",\"vc\":\"Root\"}\n"
        )
        #expect(
            encoded(.callback(CallbackEvent(.deinit, viewController: "A")))
                == #"{"type":"callback","name":"deinit","vc":"A"}"# + "\n"
        )
        #expect(
            encoded(.callback(CallbackEvent(.didReceiveNotification, notification: "sync", value: .int(3))))
                == #"{"type":"callback","name":"didReceiveNotification","notification":"sync","value":3}"# + "\n"
        )
        #expect(encoded(.reply(id: 7, result: nil)) == "{\"type\":\"reply\",\"id\":7}\n")
        #expect(
            encoded(.reply(id: 7, result: .object(["k": .bool(true)])))
                == "{\"type\":\"reply\",\"id\":7,\"result\":{\"k\":true}}\n"
        )
        #expect(
            encoded(.failure(id: 7, ProtocolError(.illegalTransition, "cannot pop the root view controller")))
                == #"{"type":"error","id":7,"code":1,"message":"cannot pop the root view controller"}"# + "\n"
        )
        #expect(
            encoded(.failure(id: nil, ProtocolError(.parseError, "bad \"x\"")))
                == #"{"type":"error","code":-32700,"message":"bad \"x\""}"# + "\n"
        )
    }

    @Test func encodeAppendsToExistingBuffer() throws {
        var buffer: [UInt8] = Array("prefix\n".utf8)
        HostCommand.request(id: 1, .pop).encode(into: &buffer)
        WorkerMessage.reply(id: 1, result: nil).encode(into: &buffer)
        #expect(
            String(decoding: buffer, as: UTF8.self)
                == "prefix\n{\"id\":1,\"op\":\"pop\"}\n{\"type\":\"reply\",\"id\":1}\n"
        )
    }

    @Test func hostCommandsRoundTrip() throws {
        var commands: [HostCommand] = [
            .hello(protocolVersion: 1), .hello(protocolVersion: 2), .hello(protocolVersion: -5),
        ]
        for (index, operation) in allOperations.enumerated() {
            commands.append(.request(id: index * 1_000_003, operation))
        }
        for command in commands {
            var buffer: [UInt8] = []
            command.encode(into: &buffer)
            #expect(buffer.last == 0x0A)
            #expect(buffer.dropLast().contains(0x0A) == false)
            let decoded = try HostCommand(frame: Array(buffer.dropLast()))
            #expect(decoded == command)
            let viaBuffer = try buffer.dropLast().withUnsafeBytes { raw throws(ProtocolError) in
                try HostCommand(frame: raw)
            }
            #expect(viaBuffer == command)
        }
    }

    @Test func everyOperationNameIsCovered() {
        let names = Set(allOperations.map(\.name))
        #expect(names.count == 20)
    }

    @Test func workerMessagesRoundTrip() throws {
        for message in allMessages {
            var buffer: [UInt8] = []
            message.encode(into: &buffer)
            #expect(buffer.last == 0x0A)
            #expect(buffer.dropLast().contains(0x0A) == false)
            let decoded = try WorkerMessage(frame: Array(buffer.dropLast()))
            #expect(decoded == message)
        }
    }

    @Test func decodingIgnoresUnknownFieldsAndOrder() throws {
        let command = try HostCommand(frame: Array(#" { "vc" : "D", "extra":{"x":[1]}, "op":"push", "id":3 } "#.utf8))
        #expect(command == .request(id: 3, .push(viewController: "D")))
        let hello = try HostCommand(frame: Array(#"{"protocol":2,"op":"hello","id":"ignored"}"#.utf8))
        #expect(hello == .hello(protocolVersion: 2))
        let message = try WorkerMessage(frame: Array(#"{"type":"reply","id":1,"future":true}"#.utf8))
        #expect(message == .reply(id: 1, result: nil))
    }

    @Test func unknownErrorCodeMapsToOperationFailed() throws {
        let message = try WorkerMessage(
            frame: Array(#"{"type":"error","id":4,"code":777,"message":"newer peer"}"#.utf8)
        )
        #expect(message == .failure(id: 4, ProtocolError(.operationFailed, "newer peer")))
    }

    @Test(arguments: [
        // Not JSON.
        ("", ProtocolError.Code.parseError),
        ("{\"op\":", .parseError),
        ("{\"op\":\"pop\",\"id\":1}}", .parseError),
        ("{\"op\":\"pop\",\"op\":\"pop\",\"id\":1}", .parseError),
        ("{\"op\":\"push\",\"id\":1,\"vc\":\"\\ud800\"}", .parseError),
        ("{\"op\":\"notify\",\"id\":1,\"name\":\"n\",\"value\":1e999}", .parseError),
        // Not a command.
        ("[]", .invalidMessage),
        ("[{\"op\":\"pop\",\"id\":1}]", .invalidMessage),
        ("\"hello\"", .invalidMessage),
        ("null", .invalidMessage),
        ("{}", .invalidMessage),
        ("{\"op\":1}", .invalidMessage),
        ("{\"op\":null,\"id\":1}", .invalidMessage),
        ("{\"op\":\"hello\"}", .invalidMessage),
        ("{\"op\":\"hello\",\"protocol\":\"1\"}", .invalidMessage),
        ("{\"op\":\"pop\"}", .invalidMessage),
        ("{\"op\":\"push\"}", .invalidMessage),
        ("{\"op\":\"push\",\"id\":1}", .invalidMessage),
        ("{\"op\":\"push\",\"id\":1,\"vc\":7}", .invalidMessage),
        ("{\"op\":\"pop\",\"id\":\"1\"}", .invalidMessage),
        ("{\"op\":\"resize\",\"id\":1,\"width\":800}", .invalidMessage),
        ("{\"op\":\"resize\",\"id\":1,\"width\":800,\"height\":\"600\"}", .invalidMessage),
        ("{\"op\":\"notify\",\"id\":1,\"name\":\"n\"}", .invalidMessage),
        ("{\"op\":\"connect\",\"id\":1,\"session\":\"A\"}", .invalidMessage),
        (
            "{\"op\":\"connect\",\"id\":1,\"session\":\"A\",\"configuration\":\"c\",\"role\":\"r\",\"background\":0,"
                + "\"root\":\"R\",\"reconnect\":false}", .invalidMessage
        ),
        // Unknown operations.
        ("{\"op\":\"fly\",\"id\":1}", .unknownOperation),
        ("{\"op\":\"Pop\",\"id\":1}", .unknownOperation),
        ("{\"op\":\"enterBackground\",\"id\":1}", .unknownOperation),
        ("{\"op\":\"nope\"}", .unknownOperation),
        // Bad parameters.
        ("{\"id\":-1,\"op\":\"pop\"}", .invalidParameters),
        ("{\"id\":1.5,\"op\":\"pop\"}", .invalidParameters),
        ("{\"id\":1e2,\"op\":\"pop\"}", .invalidParameters),
        ("{\"id\":99999999999999999999,\"op\":\"pop\"}", .invalidParameters),
        ("{\"op\":\"push\",\"id\":1,\"vc\":\"\"}", .invalidParameters),
        ("{\"op\":\"resize\",\"id\":1,\"width\":-1,\"height\":600}", .invalidParameters),
        ("{\"op\":\"resize\",\"id\":1,\"width\":800,\"height\":-600}", .invalidParameters),
        ("{\"op\":\"resize\",\"id\":1,\"width\":800.5,\"height\":600}", .invalidParameters),
        ("{\"op\":\"notify\",\"id\":1,\"name\":\"\",\"value\":1}", .invalidParameters),
        (
            "{\"op\":\"connect\",\"id\":1,\"session\":\"\",\"configuration\":\"c\",\"role\":\"r\",\"background\":false,"
                + "\"root\":\"R\",\"reconnect\":false}", .invalidParameters
        ),
        // A URL the host would refuse, from whoever sent it: the worker never makes it a URL.
        ("{\"op\":\"openURL\",\"id\":1,\"url\":\"a b\"}", .invalidParameters),
        ("{\"op\":\"openURL\",\"id\":1}", .invalidMessage),
        (
            "{\"op\":\"connect\",\"id\":1,\"session\":\"A\",\"configuration\":\"c\",\"role\":\"r\",\"background\":false,"
                + "\"root\":\"R\",\"reconnect\":false,\"url\":\"notes://%zz\"}", .invalidParameters
        ),
    ])
    func rejectsMalformedCommands(input: String, code: ProtocolError.Code) {
        do {
            let command = try HostCommand(frame: Array(input.utf8))
            Issue.record("decoded \(command) from \(input)")
        } catch {
            #expect(error.code == code, "\(input): \(error)")
            #expect(!error.message.isEmpty)
        }
    }

    @Test(arguments: [
        ("\u{0}", ProtocolError.Code.parseError),
        ("{\"type\":\"reply\",\"id\":1", .parseError),
        ("{\"type\":\"reply\",\"id\":1,\"id\":2}", .parseError),
        ("[\"reply\"]", .invalidMessage),
        ("{\"id\":1}", .invalidMessage),
        ("{\"type\":\"reply\"}", .invalidMessage),
        ("{\"type\":\"ready\",\"protocol\":1}", .invalidMessage),
        ("{\"type\":\"ready\",\"pid\":1}", .invalidMessage),
        ("{\"type\":\"callback\"}", .invalidMessage),
        ("{\"type\":\"callback\",\"name\":\"viewDidLoad\",\"vc\":null}", .invalidMessage),
        ("{\"type\":\"callback\",\"name\":\"didReceiveNotification\",\"notification\":1}", .invalidMessage),
        ("{\"type\":\"error\",\"code\":1}", .invalidMessage),
        ("{\"type\":\"error\",\"message\":\"m\"}", .invalidMessage),
        ("{\"type\":\"error\",\"id\":\"7\",\"code\":1,\"message\":\"m\"}", .invalidMessage),
        ("{\"type\":\"callback\",\"name\":\"nope\"}", .unknownOperation),
        ("{\"type\":\"callbacks\",\"name\":\"viewDidLoad\"}", .unknownOperation),
        ("{\"type\":\"callback\",\"name\":\"VIEWDIDLOAD\"}", .unknownOperation),
        ("{\"type\":\"reply\",\"id\":-1}", .invalidParameters),
        ("{\"type\":\"reply\",\"id\":0.5}", .invalidParameters),
        ("{\"type\":\"error\",\"id\":-7,\"code\":1,\"message\":\"m\"}", .invalidParameters),
        ("{\"type\":\"error\",\"code\":1.5,\"message\":\"m\"}", .invalidParameters),
        ("{\"type\":\"ready\",\"protocol\":1,\"pid\":0}", .invalidParameters),
        ("{\"type\":\"ready\",\"protocol\":1,\"pid\":4294967296}", .invalidParameters),
        ("{\"type\":\"callback\",\"name\":\"viewDidLoad\",\"vc\":\"\"}", .invalidParameters),
    ])
    func rejectsMalformedMessages(input: String, code: ProtocolError.Code) {
        do {
            let message = try WorkerMessage(frame: Array(input.utf8))
            Issue.record("decoded \(message) from \(input)")
        } catch {
            #expect(error.code == code, "\(input): \(error)")
        }
    }

    @Test func deepNestingInsideAMessage() {
        let input = #"{"op":"notify","id":1,"name":"n","value":"# + String(repeating: "[", count: 10_000)
        #expect(throws: ProtocolError.self) { try HostCommand(frame: Array(input.utf8)) }
        do {
            _ = try HostCommand(frame: Array(input.utf8))
        } catch {
            #expect(error.code == .nestingTooDeep)
        }
        let closed =
            #"{"type":"reply","id":1,"result":"# + String(repeating: "[", count: 64)
            + String(repeating: "]", count: 64) + "}"
        #expect(throws: ProtocolError.self) { try WorkerMessage(frame: Array(closed.utf8)) }
    }

    @Test func errorMessagesNameTheField() {
        func message(_ text: String) -> String {
            do {
                _ = try HostCommand(frame: Array(text.utf8))
                return ""
            } catch {
                return error.message
            }
        }
        #expect(message(#"{"op":"push","id":1}"#).contains("\"vc\""))
        #expect(message(#"{"op":"resize","id":1,"width":-3,"height":1}"#).contains("\"width\""))
        #expect(message(#"{"op":"fly","id":1}"#).contains("fly"))
        #expect(message(#"{"op":"pop","id":-1}"#).contains("\"id\""))
        let long = String(repeating: "x", count: 10_000)
        #expect(message(#"{"op":""# + long + #"","id":1}"#).utf8.count < 200)
    }
}
