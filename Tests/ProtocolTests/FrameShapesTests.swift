import Testing

@testable import Protocol

/// The decoding fast path (`FrameShapes`) takes the frames the encoders write for every round
/// trip, and for anything it takes, near misses included, gives what the general decoder
/// gives.
@Suite struct FrameShapesTests {
    static let ids = [0, 7, 42, 123_456_789_012_345_678]

    /// Every request without parameters, and every navigation request with its parameters,
    /// as the encoder writes them.
    static var requests: [[UInt8]] {
        let operations: [WorkerOperation] =
            [
                .activate, .deactivate, .enterBackground, .enterForeground, .stateRestoration, .disconnect,
                .terminate, .pop, .memoryWarning, .beginBackgroundTask, .endBackgroundTask, .expireBackgroundTask,
                .dismiss, .tap, .push(viewController: "Detail-2 (x)", payload: nil),
                .push(viewController: "D", payload: nil), .addChild(viewController: "Panel"),
                .removeChild(viewController: "P"), .swipeBack(completes: true), .swipeBack(completes: false),
                .swipeDismiss(completes: true), .swipeDismiss(completes: false), .selectTab(index: 0),
                .selectTab(index: 12),
            ] + PresentationStyle.allCases.map { .present(viewController: "Sheet", style: $0) }
        return operations.flatMap { operation in ids.map { frame(HostCommand.request(id: $0, operation)) } }
    }

    /// Replies without a result, and every callback with and without a `vc`, with each
    /// count of the notifications it posts folded in (`posted`), and with a reply folded in
    /// (`reply`).
    static var messages: [[UInt8]] {
        ids.map { frame(WorkerMessage.reply(id: $0, result: nil)) }
            + CallbackName.allCases.flatMap { name in
                [
                    frame(WorkerMessage.callback(CallbackEvent(name))),
                    frame(WorkerMessage.callback(CallbackEvent(name, viewController: "Detail-2 (x)"))),
                ]
                    + (0..<name.postedNotifications.count).map { count in
                        var event = CallbackEvent(name)
                        event.posted = count + 1
                        return frame(WorkerMessage.callback(event))
                    }
                    + ids.map { id in
                        var event = CallbackEvent(name, viewController: "Detail")
                        event.posted = name.postedNotifications.count
                        event.reply = id
                        return frame(WorkerMessage.callback(event))
                    }
            }
    }

    static func frame(_ command: HostCommand) -> [UInt8] {
        var buffer: [UInt8] = []
        command.encode(into: &buffer)
        return Array(buffer.dropLast())  // the newline
    }

    static func frame(_ message: WorkerMessage) -> [UInt8] {
        var buffer: [UInt8] = []
        message.encode(into: &buffer)
        return Array(buffer.dropLast())
    }

    /// `frame` with one byte deleted, replaced or inserted at every position.
    static func nearMisses(of frame: [UInt8]) -> [[UInt8]] {
        let replacements = Array(#" "\0x},:1"#.utf8) + [0xC3, 0x7F, 0x1F, UInt8(ascii: "\\")]
        var result: [[UInt8]] = []
        for index in frame.indices {
            var deleted = frame
            deleted.remove(at: index)
            result.append(deleted)
            for byte in replacements {
                var replaced = frame
                replaced[index] = byte
                result.append(replaced)
                var inserted = frame
                inserted.insert(byte, at: index)
                result.append(inserted)
            }
        }
        return result
    }

    static func general(request bytes: [UInt8]) -> HostCommand? {
        bytes.withUnsafeBytes { try? HostCommand(generalFrame: $0) }
    }

    static func general(message bytes: [UInt8]) -> WorkerMessage? {
        bytes.withUnsafeBytes { try? WorkerMessage(generalFrame: $0) }
    }

    @Test func everyRoundTripRequestTakesTheFastPathWithTheGeneralResult() {
        for bytes in Self.requests {
            let fast = bytes.withUnsafeBytes { FrameShapes.request($0) }
            #expect(fast != nil, "\(String(decoding: bytes, as: UTF8.self))")
            #expect(fast == Self.general(request: bytes))
        }
    }

    @Test func everyRoundTripMessageTakesTheFastPathWithTheGeneralResult() {
        for bytes in Self.messages {
            let fast = bytes.withUnsafeBytes { FrameShapes.message($0) }
            #expect(fast != nil, "\(String(decoding: bytes, as: UTF8.self))")
            #expect(fast == Self.general(message: bytes))
        }
    }

    /// Whatever the fast path takes among the near misses, the general path takes too, with
    /// the same result (it accepts a subset).
    @Test func aNearMissIsLeftToTheGeneralPathOrDecodedAlike() {
        var taken = 0
        for bytes in Self.requests.flatMap(Self.nearMisses) {
            guard let fast = bytes.withUnsafeBytes({ FrameShapes.request($0) }) else { continue }
            taken += 1
            #expect(fast == Self.general(request: bytes), "\(String(decoding: bytes, as: UTF8.self))")
        }
        for bytes in Self.messages.flatMap(Self.nearMisses) {
            guard let fast = bytes.withUnsafeBytes({ FrameShapes.message($0) }) else { continue }
            taken += 1
            #expect(fast == Self.general(message: bytes), "\(String(decoding: bytes, as: UTF8.self))")
        }
        // Some near misses are still common frames (another id, another vc): the check ran.
        #expect(taken > 100)
    }

    @Test(arguments: [
        #"{"id":05,"op":"pop"}"#,  // a leading zero: invalid JSON
        #"{"id":1234567890123456789,"op":"pop"}"#,  // 19 digits
        #"{"id":-1,"op":"pop"}"#,
        #"{"id":1.0,"op":"pop"}"#,
        #"{"id":1,"op":"push"}"#,  // push needs a vc
        #"{"id":1,"op":"push","vc":""}"#,  // an empty vc is refused
        #"{"id":1,"op":"push","vc":"A","payload":{"k":1}}"#,
        #"{"id":1,"op":"push","vc":"A\u0042"}"#,
        #"{"id":1,"op":"addChild"}"#,  // addChild needs a vc
        #"{"id":1,"op":"present","vc":"A","style":"sideways"}"#,  // an unknown style: the general path says so
        #"{"id":1,"op":"present","style":"pageSheet","vc":"A"}"#,  // another field order
        #"{"id":1,"op":"swipeBack","completes":1}"#,
        #"{"id":1,"op":"swipeBack"}"#,
        #"{"id":1,"op":"selectTab","index":-1}"#,
        #"{"id":1,"op":"selectTab","index":"1"}"#,
        #"{"id":1,"op":"fly"}"#,
        #"{"id":1,"op":"p\u006fp"}"#,
        #"{"id":1, "op":"pop"}"#,
        #"{"id":1,"op":"pop","vc":"A"}"#,
        #"{"id":1,"op":"pop"}x"#,
    ])
    func requestsOutsideTheShapeAreLeftToTheGeneralPath(_ text: String) {
        #expect(Array(text.utf8).withUnsafeBytes { FrameShapes.request($0) } == nil)
    }

    @Test(arguments: [
        #"{"type":"callback","name":"viewDidAppear","vc":""}"#,  // an empty vc is refused
        #"{"type":"callback","name":"viewDidAppear","vc":"A","origin":"app"}"#,
        #"{"type":"callback","name":"flying"}"#,
        #"{"type":"callback","name":"viewDidAppear","vc":"Ä"}"#,
        #"{"type":"reply","id":7,"result":1}"#,
        #"{"type":"reply","id":07}"#,
        #"{"type":"error","id":7,"code":1,"message":"no"}"#,
    ])
    func messagesOutsideTheShapeAreLeftToTheGeneralPath(_ text: String) {
        #expect(Array(text.utf8).withUnsafeBytes { FrameShapes.message($0) } == nil)
    }
}
