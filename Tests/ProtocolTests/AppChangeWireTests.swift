import Testing

@testable import Protocol

/// The `change` message and the callbacks' `origin` (LIFECYCLE.md §3b): exact bytes, round
/// trips through both encoders, and the typed errors of every malformed variant.
@Suite struct AppChangeWireTests {
    static let changes: [AppChange] = [
        .push(viewController: "Detail"),
        .push(viewController: "Ünïcode 😀 \"q\"\n"),
        .push(viewController: String(repeating: "v", count: 300)),
        .pop,
        .popToRoot,
        .popTo(index: 2),
        .beginBackgroundTask,
        .endBackgroundTask,
        .setStack(["Root"]),
        .setStack(["Root", "List", "Detail"]),
        .setStack(["Root", "with \"quote\"", "é"]),
        .replaceStack(kept: [], viewController: "Home"),
        .replaceStack(kept: [0, 2], viewController: "Ünïcode \"q\""),
        .replaceStack(kept: [0], below: ["Inbox", "é \"q\""], viewController: "Message"),
        .replaceStack(kept: [], below: ["Inbox"], viewController: "Message"),
        .setTabs(["List"], selected: 0),
        .setTabs(["List", "Settings \"q\"", "é"], selected: 2),
        .requestSceneSessionActivation(session: nil, activityType: nil, userInfo: nil),
        .requestSceneSessionActivation(session: "A-1", activityType: "compose", userInfo: .object(["d": .int(1)])),
        .requestSceneSessionDestruction(session: "B"),
    ]

    static let messages: [WorkerMessage] =
        changes.map { .change($0) } + [
            .callback(CallbackEvent(.viewDidLoad, viewController: "Detail", origin: .app)),
            .callback(CallbackEvent(.viewDidLoad, viewController: "with \"quote\"", origin: .app)),
            .callback(CallbackEvent(.didReceiveNotification, notification: "n", value: .int(1), origin: .app)),
            .callback(CallbackEvent(.willConnectTo, restoration: .null, origin: .app)),
        ]

    private func encoded(_ message: WorkerMessage) -> String {
        var buffer: [UInt8] = []
        message.encode(into: &buffer)
        return String(decoding: buffer, as: UTF8.self)
    }

    @Test func exactBytes() {
        #expect(
            encoded(.change(.push(viewController: "Detail"))) == #"{"type":"change","op":"push","vc":"Detail"}"# + "\n"
        )
        #expect(encoded(.change(.pop)) == #"{"type":"change","op":"pop"}"# + "\n")
        #expect(encoded(.change(.popTo(index: 2))) == #"{"type":"change","op":"popTo","index":2}"# + "\n")
        #expect(encoded(.change(.beginBackgroundTask)) == #"{"type":"change","op":"beginBackgroundTask"}"# + "\n")
        #expect(encoded(.change(.endBackgroundTask)) == #"{"type":"change","op":"endBackgroundTask"}"# + "\n")
        #expect(
            encoded(.change(.setStack(["Root", "List", "Detail"])))
                == #"{"type":"change","op":"setStack","stack":["Root","List","Detail"]}"# + "\n"
        )
        #expect(
            encoded(.change(.replaceStack(kept: [0, 2], viewController: "Home")))
                == #"{"type":"change","op":"replaceStack","kept":[0,2],"vc":"Home"}"# + "\n"
        )
        #expect(
            encoded(.change(.replaceStack(kept: [0], below: ["Inbox", "Thread"], viewController: "Message")))
                == #"{"type":"change","op":"replaceStack","kept":[0],"below":["Inbox","Thread"],"vc":"Message"}"#
                + "\n"
        )
        #expect(
            encoded(.callback(CallbackEvent(.viewDidLoad, viewController: "Detail", origin: .app)))
                == #"{"type":"callback","name":"viewDidLoad","vc":"Detail","origin":"app"}"# + "\n"
        )
        #expect(
            encoded(.callback(CallbackEvent(.sceneDidEnterBackground, origin: .app)))
                == #"{"type":"callback","name":"sceneDidEnterBackground","origin":"app"}"# + "\n"
        )
        // A host request's callback carries no origin at all.
        #expect(!encoded(.callback(CallbackEvent(.viewDidLoad, viewController: "Root"))).contains("origin"))
    }

    @Test func everyChangeNameIsDistinctAndCovered() {
        #expect(
            Set(Self.changes.map(\.name)) == [
                "push", "pop", "popToRoot", "popTo", "beginBackgroundTask", "endBackgroundTask", "setStack",
                "replaceStack", "setTabs",
                "requestSceneSessionActivation", "requestSceneSessionDestruction",
            ]
        )
    }

    @Test func roundTripThroughBothEncoders() throws {
        for message in Self.messages {
            var fast: [UInt8] = [7]
            var general: [UInt8] = [7]
            message.encode(into: &fast)
            message.encodePieceByPiece(into: &general)
            #expect(fast == general, "\(message)")
            #expect(fast.last == 0x0A)
            #expect(!fast.dropFirst().dropLast().contains(0x0A))
            #expect(try WorkerMessage(frame: Array(fast.dropFirst().dropLast())) == message)
        }
    }

    @Test func decodingIgnoresUnknownFieldsAndOrder() throws {
        #expect(
            try WorkerMessage(frame: Array(#"{"vc":"D","future":[1],"op":"push","type":"change"}"#.utf8))
                == .change(.push(viewController: "D"))
        )
        #expect(
            try WorkerMessage(frame: Array(#"{"origin":"app","name":"viewDidAppear","type":"callback","vc":"D"}"#.utf8))
                == .callback(CallbackEvent(.viewDidAppear, viewController: "D", origin: .app))
        )
        // A `vc` on a change that has none is an unknown field for it, ignored.
        #expect(try WorkerMessage(frame: Array(#"{"type":"change","op":"pop","vc":"x"}"#.utf8)) == .change(.pop))
    }

    @Test(arguments: [
        (#"{"type":"change"}"#, ProtocolError.Code.invalidMessage),
        (#"{"type":"change","op":7}"#, .invalidMessage),
        (#"{"type":"change","op":null}"#, .invalidMessage),
        (#"{"type":"change","op":"push"}"#, .invalidMessage),
        (#"{"type":"change","op":"push","vc":1}"#, .invalidMessage),
        (#"{"type":"change","op":"setStack"}"#, .invalidMessage),
        (#"{"type":"change","op":"setStack","stack":"Root"}"#, .invalidMessage),
        (#"{"type":"change","op":"setStack","stack":{"0":"Root"}}"#, .invalidMessage),
        (#"{"type":"change","op":"setStack","stack":["Root",1]}"#, .invalidMessage),
        (#"{"type":"change","op":"setStack","stack":[null]}"#, .invalidMessage),
        (#"{"type":"change","op":"setStack","stack":[["Root"]]}"#, .invalidMessage),
        (#"{"type":"change","op":"setTabs","tabs":["List"]}"#, .invalidMessage),
        (#"{"type":"change","op":"popTo"}"#, .invalidMessage),
        (#"{"type":"change","op":"popTo","index":"1"}"#, .invalidMessage),
        (#"{"type":"change","op":"popTo","index":-1}"#, .invalidParameters),
        (#"{"type":"change","op":"replaceStack","vc":"Home"}"#, .invalidMessage),
        (#"{"type":"change","op":"replaceStack","kept":[0]}"#, .invalidMessage),
        (#"{"type":"change","op":"replaceStack","kept":0,"vc":"Home"}"#, .invalidMessage),
        (#"{"type":"change","op":"replaceStack","kept":["0"],"vc":"Home"}"#, .invalidMessage),
        (#"{"type":"change","op":"replaceStack","kept":[0.5],"vc":"Home"}"#, .invalidMessage),
        (#"{"type":"change","op":"replaceStack","kept":[-1],"vc":"Home"}"#, .invalidParameters),
        (#"{"type":"change","op":"replaceStack","kept":[1,0],"vc":"Home"}"#, .invalidParameters),
        (#"{"type":"change","op":"replaceStack","kept":[1,1],"vc":"Home"}"#, .invalidParameters),
        (#"{"type":"change","op":"replaceStack","kept":[],"vc":""}"#, .invalidParameters),
        (#"{"type":"change","op":"replaceStack","kept":[0],"below":"List","vc":"Home"}"#, .invalidMessage),
        (#"{"type":"change","op":"replaceStack","kept":[0],"below":[1],"vc":"Home"}"#, .invalidMessage),
        (#"{"type":"change","op":"replaceStack","kept":[0],"below":[],"vc":"Home"}"#, .invalidParameters),
        (#"{"type":"change","op":"replaceStack","kept":[0],"below":[""],"vc":"Home"}"#, .invalidParameters),
        (#"{"type":"change","op":"setTabs","tabs":[],"selected":0}"#, .invalidParameters),
        (#"{"type":"change","op":"setTabs","tabs":["List"],"selected":1}"#, .invalidParameters),
        (#"{"type":"change","op":"setTabs","tabs":["List"],"selected":-1}"#, .invalidParameters),
        (#"{"type":"callback","name":"viewDidLoad","origin":1}"#, .invalidMessage),
        (#"{"type":"callback","name":"viewDidLoad","origin":null}"#, .invalidMessage),
        (#"{"type":"change","op":"fly"}"#, .unknownOperation),
        (#"{"type":"change","op":"Push","vc":"D"}"#, .unknownOperation),
        (#"{"type":"change","op":"expireBackgroundTask"}"#, .unknownOperation),
        (#"{"type":"change","op":"activate"}"#, .unknownOperation),
        (#"{"type":"change","op":""}"#, .unknownOperation),
        (#"{"type":"changes","op":"pop"}"#, .unknownOperation),
        (#"{"type":"change","op":"push","vc":""}"#, .invalidParameters),
        (#"{"type":"change","op":"setStack","stack":[]}"#, .invalidParameters),
        (#"{"type":"change","op":"setStack","stack":["Root",""]}"#, .invalidParameters),
        (#"{"type":"callback","name":"viewDidLoad","origin":"host"}"#, .invalidParameters),
        (#"{"type":"callback","name":"viewDidLoad","origin":"App"}"#, .invalidParameters),
        (#"{"type":"callback","name":"viewDidLoad","origin":""}"#, .invalidParameters),
        (#"{"type":"change","op":"pop","op":"pop"}"#, .parseError),
        (#"{"type":"change","op":"setStack","stack":["Root""#, .parseError),
    ])
    func rejectsMalformedChanges(input: String, code: ProtocolError.Code) {
        do {
            let message = try WorkerMessage(frame: Array(input.utf8))
            Issue.record("decoded \(message) from \(input)")
        } catch {
            #expect(error.code == code, "\(input): \(error)")
            #expect(!error.message.isEmpty)
            #expect(error.message.utf8.count < 200)
        }
    }

    @Test func errorMessagesNameTheField() {
        func message(_ text: String) -> String {
            do {
                _ = try WorkerMessage(frame: Array(text.utf8))
                return ""
            } catch {
                return error.message
            }
        }
        #expect(message(#"{"type":"change","op":"push"}"#).contains("\"vc\""))
        #expect(message(#"{"type":"change","op":"setStack","stack":[]}"#).contains("\"stack\""))
        #expect(message(#"{"type":"change","op":"fly"}"#).contains("fly"))
        #expect(message(#"{"type":"callback","name":"viewDidLoad","origin":"x"}"#).contains("origin"))
        let long = String(repeating: "x", count: 10_000)
        #expect(message(#"{"type":"change","op":""# + long + #""}"#).utf8.count < 200)
    }

    @Test func changeNamesMatchExactly() {
        for change in Self.changes {
            let name = Array(change.name.utf8)
            for position in name.indices {
                var mutated = name
                mutated[position] = UInt8(ascii: "_")
                let frame =
                    #"{"type":"change","op":""# + String(decoding: mutated, as: UTF8.self)
                    + #"","vc":"D","stack":["R"]}"#
                do {
                    let decoded = try WorkerMessage(frame: Array(frame.utf8))
                    Issue.record("accepted \(decoded)")
                } catch {
                    #expect(error.code == .unknownOperation)
                }
            }
        }
    }

    @Test func everyTruncationIsATypedError() {
        for message in Self.messages {
            var frame: [UInt8] = []
            message.encode(into: &frame)
            frame.removeLast()
            for length in 0..<frame.count {
                do {
                    let decoded = try WorkerMessage(frame: Array(frame[..<length]))
                    Issue.record("decoded \(decoded) from a truncated frame")
                } catch {
                    #expect(error.code == .parseError)
                }
            }
        }
    }

    @Test func aHugeStackIsBoundedByTheFrameNotTheDecoder() throws {
        // 100 000 names fit in well under the 1 MiB frame limit: decoding them is linear.
        let names = (0..<100_000).map { "V\($0)" }
        var frame: [UInt8] = []
        WorkerMessage.change(.setStack(names)).encode(into: &frame)
        #expect(frame.count < 1 << 20)
        #expect(try WorkerMessage(frame: Array(frame.dropLast())) == .change(.setStack(names)))
    }
}
