import Testing

@testable import Protocol

/// The codec's fast paths must decide and write exactly like the general code: the decoder's
/// word-at-a-time string scanning, packed member names and name tables (wherever in a word
/// the interesting byte falls), and the encoder's single-copy frames (`FrameScratch`).
@Suite struct CodecFastPathTests {
    private func parse(_ bytes: [UInt8]) throws(ProtocolError) -> JSONValue {
        try JSONParser.parse(bytes)
    }

    @Test func stringsEndEscapeAndValidateAtEveryOffset() throws {
        for length in 0..<26 {
            let plain = String(repeating: "a", count: length)
            #expect(try parse(Array("\"\(plain)\"".utf8)) == .string(plain))
            #expect(try parse(Array("\"\(plain)\\n\(plain)\"".utf8)) == .string(plain + "\n" + plain))
            #expect(try parse(Array("\"\(plain)é€\(plain)\"".utf8)) == .string(plain + "é€" + plain))
            #expect(try parse(Array("[\"\(plain)\",\"x\"]".utf8)) == .array([.string(plain), .string("x")]))

            var control = Array("\"\(plain)".utf8)
            control.append(0x1F)
            control += Array("bbbbbbbbbb\"".utf8)
            #expect(throws: ProtocolError.self) { try parse(control) }

            var invalid = Array("\"\(plain)".utf8)
            invalid.append(0xFF)
            invalid += Array("bbbbbbbbbb\"".utf8)
            #expect(throws: ProtocolError.self) { try parse(invalid) }

            #expect(throws: ProtocolError.self) { try parse(Array("\"\(plain)".utf8)) }
        }
    }

    @Test func memberNamesOfEveryLengthAreExact() throws {
        for length in 1..<24 {
            let name = String((0..<length).map { Character(Unicode.Scalar(UInt8(97 + $0 % 26))) })
            #expect(throws: ProtocolError.self) {
                _ = try HostCommand(frame: Array("{\"\(name)\":1,\"\(name)\":2,\"op\":\"pop\",\"id\":1}".utf8))
            }
            // Names differing in one byte, wherever it is, are different names.
            for position in 0..<length {
                var other = Array(name.utf8)
                other[position] = UInt8(ascii: "Z")
                let frame = "{\"\(name)\":1,\"\(String(decoding: other, as: UTF8.self))\":2,\"op\":\"pop\",\"id\":7}"
                #expect(try HostCommand(frame: Array(frame.utf8)) == .request(id: 7, .pop))
            }
        }
    }

    @Test func operationAndCallbackNamesMatchExactly() throws {
        let operations: [WorkerOperation] = [
            .activate, .deactivate, .enterBackground, .enterForeground, .stateRestoration, .disconnect,
            .terminate, .pop, .memoryWarning, .beginBackgroundTask, .endBackgroundTask, .expireBackgroundTask,
        ]
        for operation in operations {
            var bytes: [UInt8] = []
            HostCommand.request(id: 3, operation).encode(into: &bytes)
            #expect(try HostCommand(frame: Array(bytes.dropLast())) == .request(id: 3, operation))
            // Same length, same first and last bytes, one byte changed anywhere: unknown.
            let name = Array(operation.name.utf8)
            for position in name.indices {
                var mutated = name
                mutated[position] = UInt8(ascii: "_")
                let frame = "{\"id\":3,\"op\":\"\(String(decoding: mutated, as: UTF8.self))\"}"
                #expect(throws: ProtocolError.self) { try HostCommand(frame: Array(frame.utf8)) }
            }
        }
        for callback in CallbackName.allCases {
            let name = Array(callback.rawValue.utf8)
            for position in name.indices {
                var mutated = name
                mutated[position] = UInt8(ascii: "_")
                let frame = "{\"type\":\"callback\",\"name\":\"\(String(decoding: mutated, as: UTF8.self))\"}"
                do {
                    _ = try WorkerMessage(frame: Array(frame.utf8))
                    Issue.record("accepted \(String(decoding: mutated, as: UTF8.self))")
                } catch {
                    #expect(error.code == .unknownOperation)
                }
            }
            #expect(
                try WorkerMessage(frame: Array("{\"type\":\"callback\",\"name\":\"\(callback.rawValue)\"}".utf8))
                    == .callback(CallbackEvent(callback))
            )
        }
    }

    @Test func scratchFramesAreByteForByteTheGeneralEncoding() throws {
        let names = [
            "Detail", "", "é€ 漢字", "with \"quote\"", "back\\slash", "tab\t", String(repeating: "v", count: 300),
        ]
        var commands: [HostCommand] = [.hello(protocolVersion: 1), .hello(protocolVersion: -12)]
        let operations: [WorkerOperation] =
            [
                .activate, .deactivate, .enterBackground, .enterForeground, .stateRestoration, .disconnect,
                .terminate, .pop, .memoryWarning, .beginBackgroundTask, .endBackgroundTask, .expireBackgroundTask,
                .resize(width: 0, height: 1_000_000), .resize(width: Int.max, height: 7),
                .notify(name: "sync", value: .int(3)), .connect(ConnectOptions(session: "A")),
                .dismiss, .tap, .swipeBack(completes: true), .swipeBack(completes: false),
                .swipeDismiss(completes: true), .swipeDismiss(completes: false), .selectTab(index: 0),
                .selectTab(index: Int.max),
            ] + names.map { .push(viewController: $0) } + [.push(viewController: "Detail", payload: ["id": 1])]
            + names.flatMap { name in
                [.addChild(viewController: name), .removeChild(viewController: name)]
                    + PresentationStyle.allCases.map { .present(viewController: name, style: $0) }
            }
        for id in [0, 9, 10, 42, Int.max] {
            commands += operations.map { .request(id: id, $0) }
        }
        var messages: [WorkerMessage] = [
            .ready(protocolVersion: 1, pid: 4242), .ready(protocolVersion: 0, pid: Int32.max),
            .reply(id: 0, result: nil), .reply(id: 123_456, result: nil),
            .reply(id: 1, result: .object(["a": .int(1)])),
            .failure(id: 3, ProtocolError(.operationFailed, "no")),
            .callback(CallbackEvent(.didReceiveNotification, notification: "sync", value: .int(2))),
            .callback(CallbackEvent(.willConnectTo, restoration: .null)),
        ]
        for callback in CallbackName.allCases {
            messages.append(.callback(CallbackEvent(callback)))
            messages += names.map { .callback(CallbackEvent(callback, viewController: $0)) }
            for reply in [0, 7, Int.max] {
                var event = CallbackEvent(callback, origin: reply == 7 ? .app : nil)
                event.reply = reply
                messages.append(.callback(event))
            }
        }
        commands += [
            .hello(protocolVersion: 1, foldedReplies: true),
            .hello(protocolVersion: 1, lifecycle: .app, foldedReplies: true),
        ]
        for command in commands {
            var fast: [UInt8] = [1, 2]
            var general: [UInt8] = [1, 2]
            command.encode(into: &fast)
            command.encodePieceByPiece(into: &general)
            #expect(fast == general, "\(command)")
        }
        for message in messages {
            var fast: [UInt8] = [3]
            var general: [UInt8] = [3]
            message.encode(into: &fast)
            message.encodePieceByPiece(into: &general)
            #expect(fast == general, "\(message)")
        }
    }
}
