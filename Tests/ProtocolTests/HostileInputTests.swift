import Testing

@testable import Protocol

/// The hostile inputs Fuzz/run.sh explores, pinned as unit tests: each is a typed
/// `ProtocolError` with the right code (or, where JSON allows it, a value), never a trap.
@Suite struct HostileInputTests {
    private func parse(_ text: String) throws(ProtocolError) -> JSONValue {
        try JSONParser.parse(Array(text.utf8))
    }

    private func code(_ bytes: [UInt8]) -> ProtocolError.Code? {
        do {
            _ = try JSONParser.parse(bytes)
            return nil
        } catch {
            return error.code
        }
    }

    private func messageCode(_ bytes: [UInt8]) -> ProtocolError.Code? {
        do {
            _ = try WorkerMessage(frame: bytes)
            return nil
        } catch {
            return error.code
        }
    }

    @Test func hugeNumbers() throws {
        // Out of Double's range: an error, not infinity.
        #expect(code(Array(("1" + String(repeating: "0", count: 400)).utf8)) == .parseError)
        #expect(code(Array(("-" + String(repeating: "9", count: 400)).utf8)) == .parseError)
        #expect(code(Array("1e99999999999999999999".utf8)) == .parseError)
        #expect(code(Array(("[" + String(repeating: "7", count: 10_000) + ".5]").utf8)) == .parseError)
        // In range, however long the text: a double (underflow is zero, as in RFC 8259 parsers).
        #expect(try parse("1e-99999999999999999999") == .double(0))
        #expect(try parse("0." + String(repeating: "0", count: 5_000) + "1") == .double(0))
        #expect(try parse("123456789012345678901234567890") == .double(123456789012345678901234567890.0))
        // Integers stay exact up to Int's limits and become doubles beyond them.
        #expect(try parse("9223372036854775807") == .int(.max))
        #expect(try parse("-9223372036854775808") == .int(.min))
        #expect(try parse("9223372036854775808") == .double(9223372036854775808.0))
        // As an id, a number beyond Int is a bad parameter, not a crash or a wrap-around.
        #expect(messageCode(Array(#"{"type":"reply","id":9223372036854775808}"#.utf8)) == .invalidParameters)
        #expect(messageCode(Array(#"{"type":"ready","protocol":1,"pid":1e400}"#.utf8)) == .parseError)
    }

    @Test func duplicateKeysCompareUnescaped() {
        #expect(code(Array(#"{"a":1,"\u0061":2}"#.utf8)) == .parseError)
        #expect(code(Array(#"[{"k\/":1,"k/":2}]"#.utf8)) == .parseError)
        #expect(messageCode(Array(#"{"type":"reply","\u0069d":1,"id":2}"#.utf8)) == .parseError)
        // Past 16 members the top-level duplicate check switches to a set.
        let members = (0..<20).map { #""k\#($0)":\#($0)"# }.joined(separator: ",")
        #expect(messageCode(Array(#"{"type":"reply","id":1,\#(members),"k3":0}"#.utf8)) == .parseError)
        #expect(messageCode(Array(#"{"type":"reply","id":1,\#(members)}"#.utf8)) == nil)
    }

    @Test func loneSurrogatesAndInvalidUTF8InKeys() {
        #expect(code(Array(#"{"\ud800":1}"#.utf8)) == .parseError)
        #expect(code(Array(#"{"\udfff":1}"#.utf8)) == .parseError)
        #expect(code(Array(#"{"\ud83d\u0041":1}"#.utf8)) == .parseError)
        #expect(messageCode(Array(#"{"type":"reply","id":1,"\ud800":0}"#.utf8)) == .parseError)
        #expect(code([0x7B, 0x22, 0xFF, 0x22, 0x3A, 0x31, 0x7D]) == .parseError)  // {"\xFF":1}
        #expect(code([0x7B, 0x22, 0xED, 0xBF, 0xBF, 0x22, 0x3A, 0x31, 0x7D]) == .parseError)  // encoded U+DFFF
        #expect(messageCode([0x7B, 0x22, 0xC3, 0x22, 0x3A, 0x31, 0x7D]) == .parseError)  // truncated sequence
    }

    @Test func nulBytes() throws {
        // Raw NUL anywhere is an error; an escaped one is just a character.
        #expect(code(Array("{\"a\u{0}\":1}".utf8)) == .parseError)
        #expect(code(Array("{\"a\":1}\u{0}".utf8)) == .parseError)
        #expect(messageCode(Array("{\"type\":\"reply\",\u{0}\"id\":1}".utf8)) == .parseError)
        #expect(try parse(#""a\u0000b""#) == .string("a\u{0}b"))
        // The frame decoder passes NULs through; the codec then refuses the frame.
        var decoder = FrameDecoder(maximumFrameSize: 64)
        decoder.append([0x00, 0x0A, 0x7B, 0x00, 0x7D, 0x0A])
        #expect(decoder.next() == .frame([0x00]))
        #expect(decoder.next() == .frame([0x7B, 0x00, 0x7D]))
        #expect(messageCode([0x7B, 0x00, 0x7D]) == .parseError)
    }

    @Test func everyTruncationOfEveryMessageIsATypedError() {
        let messages: [WorkerMessage] = [
            .ready(protocolVersion: 1, pid: 42),
            .callback(
                CallbackEvent(
                    .willConnectTo,
                    restoration: .object(["stack": .array([.string("Root"), .string("é😀")])])
                )
            ),
            .callback(CallbackEvent(.didReceiveNotification, notification: "sync", value: .double(-1.5e-3))),
            .reply(id: 7, result: .object(["a": .array([.bool(true), .null, .int(-3)])])),
            .failure(id: nil, ProtocolError(.parseError, "bad \"frame\"\n")),
        ]
        for message in messages {
            var frame: [UInt8] = []
            message.encode(into: &frame)
            frame.removeLast()  // the newline
            for length in 0..<frame.count {
                let prefix = Array(frame[..<length])
                #expect(messageCode(prefix) == .parseError, "\(String(decoding: prefix, as: UTF8.self))")
            }
            #expect(messageCode(frame) == nil)
            // And cut by the end of the stream, the decoder reports the truncation.
            var decoder = FrameDecoder()
            decoder.append(frame)
            #expect(decoder.next() == nil)
            #expect(throws: ProtocolError.self) { try decoder.finish() }
            do {
                try decoder.finish()
            } catch {
                Issue.record("a second finish threw \(error)")
            }
        }
    }

    @Test func truncationInsideAnOversizedFrameIsReported() {
        var decoder = FrameDecoder(maximumFrameSize: 8)
        decoder.append(Array(repeating: UInt8(ascii: "a"), count: 100))
        #expect(decoder.next() == .oversized(length: 100))
        do {
            try decoder.finish()
            Issue.record("no truncation reported")
        } catch {
            #expect(error.code == .truncatedFrame)
        }
    }

    @Test func deepNestingEverywhereIsNestingTooDeep() {
        let deepArray = String(repeating: "[", count: 100_000)
        let deepObject = String(repeating: #"{"a":"#, count: 100_000)
        #expect(code(Array(deepArray.utf8)) == .nestingTooDeep)
        #expect(code(Array(deepObject.utf8)) == .nestingTooDeep)
        #expect(messageCode(Array((#"{"type":"reply","id":1,"result":"# + deepArray).utf8)) == .nestingTooDeep)
        #expect(
            messageCode(Array((#"{"type":"callback","name":"willConnectTo","restoration":"# + deepObject).utf8))
                == .nestingTooDeep
        )
        // Exactly at the limit is fine: 63 levels inside the message object make 64.
        let limit = String(repeating: "[", count: 63) + String(repeating: "]", count: 63)
        #expect(messageCode(Array((#"{"type":"reply","id":1,"result":"# + limit + "}").utf8)) == nil)
        let over = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect(messageCode(Array((#"{"type":"reply","id":1,"result":"# + over + "}").utf8)) == .nestingTooDeep)
    }
}
