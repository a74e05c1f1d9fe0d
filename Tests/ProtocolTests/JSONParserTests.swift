import Testing

@testable import Protocol

private func parse(
    _ text: String,
    maximumDepth: Int = JSONParser.defaultMaximumDepth
) throws(ProtocolError) -> JSONValue {
    try JSONParser.parse(Array(text.utf8), maximumDepth: maximumDepth)
}

@Suite struct JSONParserTests {
    @Test func parsesScalars() throws {
        #expect(try parse("null") == .null)
        #expect(try parse("true") == .bool(true))
        #expect(try parse("false") == .bool(false))
        #expect(try parse("0") == .int(0))
        #expect(try parse("-0") == .int(0))
        #expect(try parse("42") == .int(42))
        #expect(try parse("-17") == .int(-17))
        #expect(try parse("1.5") == .double(1.5))
        #expect(try parse("-0.25e2") == .double(-25))
        #expect(try parse("1E+2") == .double(100))
        #expect(try parse("1e-2") == .double(0.01))
        #expect(try parse("1e-999") == .double(0))
        #expect(try parse(#""hi""#) == .string("hi"))
        #expect(try parse(" \t\r\n 7 \n") == .int(7))
    }

    @Test func integerLimits() throws {
        #expect(try parse("9223372036854775807") == .int(Int.max))
        #expect(try parse("-9223372036854775808") == .int(Int.min))
        #expect(try parse("9223372036854775808") == .double(9_223_372_036_854_775_808))
        #expect(try parse("-9223372036854775809") == .double(-0x1p63))
        #expect(try parse("100000000000000000000000000000") == .double(1e29))
    }

    @Test func parsesContainers() throws {
        let value = try parse(#"{"a":[1,2,{"b":null}],"c":{},"d":[],"e":"x"}"#)
        #expect(
            value
                == .object([
                    "a": .array([.int(1), .int(2), .object(["b": .null])]),
                    "c": .object([:]),
                    "d": .array([]),
                    "e": .string("x"),
                ])
        )
        #expect(
            try parse(" [ 1 , [ ] , { \"k\" : true } ] ") == .array([.int(1), .array([]), .object(["k": .bool(true)])])
        )
        #expect(try parse("[[[[]]]]") == .array([.array([.array([.array([])])])]))
    }

    @Test func parsesStringEscapes() throws {
        #expect(try parse(#""a\"b\\c\/d\b\f\n\r\t""#) == .string("a\"b\\c/d\u{8}\u{C}\n\r\t"))
        #expect(try parse(#""\u0041\u00e9\u20AC""#) == .string("Aé€"))
        #expect(try parse(#""\ud83d\ude00""#) == .string("😀"))
        #expect(try parse(#""\u0000""#) == .string("\u{0}"))
        #expect(try parse("\"héllo 😀 \u{7F}\"") == .string("héllo 😀 \u{7F}"))
        #expect(try parse("\"é\\n😀\"") == .string("é\n😀"))
    }

    @Test func depthLimit() throws {
        let ok = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        _ = try parse(ok)
        let tooDeep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        #expect(throws: ProtocolError.self) { try parse(tooDeep) }
        do {
            _ = try parse(tooDeep)
        } catch {
            #expect(error.code == .nestingTooDeep)
        }
        #expect(try parse("[[1]]", maximumDepth: 2) == .array([.array([.int(1)])]))
        #expect(try parse("5", maximumDepth: 0) == .int(5))
        // A large limit works (the parser is iterative; the depth is kept modest here because
        // destroying a deeply nested `JSONValue` is itself recursive).
        let deep = String(repeating: "[", count: 1_000) + String(repeating: "]", count: 1_000)
        let parsed = try parse(deep, maximumDepth: .max)
        if case .array(let outer) = parsed { #expect(outer.count == 1) } else { Issue.record("not an array") }
    }

    /// Every malformed input throws a `ProtocolError` with the expected code, and the
    /// message names a byte offset.
    @Test(arguments: [
        ("", ProtocolError.Code.parseError),
        ("   ", .parseError),
        ("[1,2", .parseError),
        ("{\"op\":", .parseError),
        ("\"abc", .parseError),
        ("\"\\u12", .parseError),
        ("tru", .parseError),
        ("nul", .parseError),
        ("nil", .parseError),
        ("truex", .parseError),
        ("01", .parseError),
        ("-01", .parseError),
        ("00.5", .parseError),
        ("-", .parseError),
        ("-a", .parseError),
        ("1.", .parseError),
        ("1.e5", .parseError),
        (".5", .parseError),
        ("1e", .parseError),
        ("1e+", .parseError),
        ("1E-x", .parseError),
        ("+1", .parseError),
        ("1e999", .parseError),
        ("-1e999", .parseError),
        ("[1e400]", .parseError),
        ("{} }", .parseError),
        ("{}}", .parseError),
        ("1 2", .parseError),
        ("[1]]", .parseError),
        ("[1,]", .parseError),
        ("{\"a\":1,}", .parseError),
        ("[,1]", .parseError),
        ("{\"a\" 1}", .parseError),
        ("{a:1}", .parseError),
        ("{'a':1}", .parseError),
        ("{\"a\":1 \"b\":2}", .parseError),
        ("{\"a\":1,\"a\":2}", .parseError),
        ("[{\"x\":1,\"y\":2,\"x\":3}]", .parseError),
        ("\"\\ud800\"", .parseError),
        ("\"\\udc00\"", .parseError),
        ("\"\\ud800\\u0041\"", .parseError),
        ("\"\\ud800x\"", .parseError),
        ("\"\\x\"", .parseError),
        ("\"\\U0041\"", .parseError),
        ("\"\\u00g0\"", .parseError),
        ("\"a\nb\"", .parseError),
        ("\"a\tb\"", .parseError),
        ("\"\u{1F}\"", .parseError),
        ("[1] x", .parseError),
        ("\u{0}", .parseError),
        ("1\u{0}", .parseError),
        ("[\u{0}1]", .parseError),
        ("\u{C}1", .parseError),
    ])
    func rejectsMalformedText(input: String, code: ProtocolError.Code) {
        expectFailure(Array(input.utf8), code: code)
    }

    @Test func rejectsDeepNesting() {
        expectFailure(Array(String(repeating: "[", count: 10_000).utf8), code: .nestingTooDeep)
        expectFailure(
            Array((String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)).utf8),
            code: .nestingTooDeep
        )
        let objects = String(repeating: "{\"a\":", count: 100) + "1" + String(repeating: "}", count: 100)
        expectFailure(Array(objects.utf8), code: .nestingTooDeep)
        expectFailure(Array(("[" + String(repeating: "{\"a\":[", count: 40)).utf8), code: .nestingTooDeep)
    }

    @Test(arguments: [
        [0xFF] as [UInt8],
        [0x22, 0xFF, 0x22],
        [0x22, 0xC0, 0x80, 0x22],  // overlong NUL
        [0x22, 0xC3, 0x22],  // truncated sequence
        [0x22, 0xE0, 0x80, 0x80, 0x22],  // overlong
        [0x22, 0xED, 0xA0, 0x80, 0x22],  // encoded surrogate
        [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22],  // above U+10FFFF
        [0x22, 0xF8, 0x88, 0x80, 0x80, 0x80, 0x22],
        [0x22, 0x80, 0x22],  // stray continuation byte
        [0x22, 0xE2, 0x82],  // truncated at end of input
        [0x22, 0x00, 0x22],  // NUL inside a string must be escaped
        [0xEF, 0xBB, 0xBF, 0x31],  // byte order mark
    ])
    func rejectsMalformedBytes(input: [UInt8]) {
        expectFailure(input, code: .parseError)
    }

    @Test func messagesNameByteOffsets() {
        do {
            _ = try parse("[1, 2, 01]")
            Issue.record("expected failure")
        } catch {
            #expect(error.message.contains("byte 7"))
            #expect(error.message.contains("leading zero"))
        }
        do {
            _ = try parse(#"{"a":1,"a":2}"#)
            Issue.record("expected failure")
        } catch {
            #expect(error.message.contains("byte 7"))
            #expect(error.message.contains("duplicate"))
        }
        do {
            _ = try JSONParser.parse([0x5B, 0x00])
            Issue.record("expected failure")
        } catch {
            #expect(error.message.contains("NUL"))
            #expect(error.message.contains("byte 1"))
        }
    }

    @Test func parsesFromUnsafeBuffer() throws {
        let bytes = Array(#"{"k":[true]}"#.utf8)
        let value = try bytes.withUnsafeBytes { raw throws(ProtocolError) in try JSONParser.parse(raw) }
        #expect(value == .object(["k": .array([.bool(true)])]))
        let empty = try? [UInt8]().withUnsafeBytes { raw throws(ProtocolError) in try JSONParser.parse(raw) }
        #expect(empty == nil)
    }
}

/// Expects `bytes` to fail to parse with `code` and a message naming a byte offset.
func expectFailure(_ bytes: [UInt8], code: ProtocolError.Code, sourceLocation: SourceLocation = #_sourceLocation) {
    do {
        let value = try JSONParser.parse(bytes)
        Issue.record("parsed \(value) from \(bytes)", sourceLocation: sourceLocation)
    } catch {
        #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
        #expect(error.message.contains("byte"), "\(error)", sourceLocation: sourceLocation)
    }
}
