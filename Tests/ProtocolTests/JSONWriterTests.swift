import Testing

@testable import Protocol

@Suite struct JSONWriterTests {
    @Test func writesCompactSortedJSON() {
        let value = JSONValue.object([
            "zeta": .int(1),
            "alpha": .array([.null, .bool(true), .bool(false), .string("x")]),
            "mid": .object(["b": .int(-2), "a": .double(0.5)]),
        ])
        #expect(value.jsonText == #"{"alpha":[null,true,false,"x"],"mid":{"a":0.5,"b":-2},"zeta":1}"#)
        #expect(JSONValue.array([]).jsonText == "[]")
        #expect(JSONValue.object([:]).jsonText == "{}")
    }

    @Test func writesIntegers() {
        #expect(JSONValue.int(0).jsonText == "0")
        #expect(JSONValue.int(7).jsonText == "7")
        #expect(JSONValue.int(-7).jsonText == "-7")
        #expect(JSONValue.int(1_234_567_890).jsonText == "1234567890")
        #expect(JSONValue.int(Int.max).jsonText == "9223372036854775807")
        #expect(JSONValue.int(Int.min).jsonText == "-9223372036854775808")
    }

    @Test func writesDoubles() throws {
        #expect(JSONValue.double(3).jsonText == "3.0")
        #expect(JSONValue.double(-0.5).jsonText == "-0.5")
        #expect(JSONValue.double(.infinity).jsonText == "null")
        #expect(JSONValue.double(-.infinity).jsonText == "null")
        #expect(JSONValue.double(.nan).jsonText == "null")
        for double in [
            0.1, 1e16, 1e300, -1e-300, Double.leastNonzeroMagnitude, Double.greatestFiniteMagnitude, 123_456.789, -0.0,
            2.5e-7, 1e21,
        ] {
            let text = JSONValue.double(double).jsonText
            let parsed = try JSONParser.parse(Array(text.utf8))
            #expect(parsed == .double(double), "\(text)")
        }
    }

    @Test func escapesStrings() {
        func written(_ string: String) -> String {
            var buffer: [UInt8] = []
            JSONWriter.writeString(string, into: &buffer)
            return String(decoding: buffer, as: UTF8.self)
        }
        #expect(written("plain") == #""plain""#)
        #expect(written("") == #""""#)
        #expect(written("a\"b\\c") == #""a\"b\\c""#)
        #expect(written("\n\r\t\u{8}\u{C}") == #""\n\r\t\b\f""#)
        #expect(written("\u{0}\u{1}\u{1F}") == #""\u0000\u0001\u001f""#)
        #expect(written("é😀/\u{7F}") == "\"é😀/\u{7F}\"")
        #expect(written("\"") == #""\"""#)
        #expect(written("x\n") == #""x\n""#)
    }

    @Test func roundTripsThroughParser() throws {
        let value = JSONValue.object([
            "s": .string("quote \" backslash \\ nl \n ctl \u{1} é 😀"),
            "n": .array([.int(-1), .int(Int.max), .double(1.25), .double(1e100), .null]),
            "nested": .object(["deeper": .object(["k": .array([.object([:])])])]),
            "": .bool(false),
        ])
        var buffer: [UInt8] = []
        JSONWriter.write(value, into: &buffer)
        #expect(try JSONParser.parse(buffer) == value)
    }
}
