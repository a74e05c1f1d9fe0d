import Protocol
import Testing

/// Literals and the Codable bridge, through the public API only (as an app uses them).
@Suite struct JSONValueCodableTests {
    struct Item: Codable, Equatable {
        enum Kind: String, Codable { case note, task }
        var id: Int
        var title: String
        var kind: Kind
        var tags: [String]
        var due: Double?
    }

    struct Inbox: Codable, Equatable {
        var selected: Int?
        var items: [Item]
        var counts: [String: Int]
        var extra: JSONValue
        var flags: [Bool?]
    }

    static let inbox = Inbox(
        selected: nil,
        items: [
            Item(id: 1, title: "Milk", kind: .task, tags: [], due: 2.5),
            Item(id: 2, title: "Ideas", kind: .note, tags: ["a", "b"], due: nil),
        ],
        counts: ["open": 2],
        extra: ["nested": [1, "two", nil]],
        flags: [true, nil, false]
    )

    @Test func literalsBuildTheSameValuesAsTheCases() {
        let literal: JSONValue = ["draft": "hi", "n": 3, "x": 0.5, "ok": true, "none": nil, "list": [1, "a"]]
        let cases = JSONValue.object([
            "draft": .string("hi"), "n": .int(3), "x": .double(0.5), "ok": .bool(true), "none": .null,
            "list": .array([.int(1), .string("a")]),
        ])
        #expect(literal == cases)
        let duplicate: JSONValue = ["k": 1, "k": 2]
        #expect(duplicate == ["k": 2])
    }

    @Test func nestedTypesEncodeToTheExpectedJSONAndRoundTrip() throws {
        let value = try JSONValue(encoding: Self.inbox)
        // A nil optional is left out (`selected`, the second item's `due`); nil in an array is null.
        let expected: JSONValue = [
            "items": [
                ["id": 1, "title": "Milk", "kind": "task", "tags": [], "due": 2.5],
                ["id": 2, "title": "Ideas", "kind": "note", "tags": ["a", "b"]],
            ],
            "counts": ["open": 2],
            "extra": ["nested": [1, "two", nil]],
            "flags": [true, nil, false],
        ]
        #expect(value == expected)
        #expect(try value.decode(Inbox.self) == Self.inbox)
        let selected = Inbox(selected: 7, items: [], counts: [:], extra: nil, flags: [])
        #expect(try JSONValue(encoding: selected).decode(Inbox.self) == selected)
    }

    @Test func scalarsAndOptionalsAtTheTopLevel() throws {
        #expect(try JSONValue(encoding: 42) == 42)
        #expect(try JSONValue(encoding: "s") == "s")
        #expect(try JSONValue(encoding: Int?.none) == nil)
        #expect(try JSONValue(encoding: [UInt8(1), 2]) == [1, 2])
        #expect(try JSONValue.null.decode(Int?.self) == nil)
        #expect(try JSONValue.int(3).decode(Int?.self) == 3)
        #expect(try JSONValue.double(3.0).decode(Int.self) == 3)
        #expect(try JSONValue.int(3).decode(Double.self) == 3.0)
        #expect(try JSONValue.int(3).decode(Float.self) == 3.0)
        #expect(try JSONValue.null.decode(JSONValue.self) == .null)
    }

    /// The description of the error `body` throws, or nil if it throws none (or another kind).
    func failure(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch let error as JSONValueCodingError {
            return error.description
        } catch {
            return "unexpected \(error)"
        }
    }

    @Test func decodingErrorsNameTheCodingPath() throws {
        var value = try JSONValue(encoding: Self.inbox)
        guard case .object(var object) = value, case .array(var items)? = object["items"],
            case .object(var second) = items[1]
        else {
            Issue.record("unexpected shape \(value)")
            return
        }
        second["id"] = "2"
        items[1] = .object(second)
        object["items"] = .array(items)
        value = .object(object)
        #expect(
            failure { _ = try value.decode(Inbox.self) } == #"at items[1].id: expected Int, found a string ("2")"#
        )

        second["id"] = 2
        second["title"] = nil  // removes the key, as for any dictionary: `nil` is Optional's here
        items[1] = .object(second)
        object["items"] = .array(items)
        #expect(
            failure { _ = try JSONValue.object(object).decode(Inbox.self) }
                == #"at items[1].title: no key "title" (the object has keys id, kind, tags)"#
        )

        #expect(
            failure { _ = try JSONValue.null.decode(Item.self) } == "at the top level: expected an object, found null"
        )
        #expect(
            failure { _ = try (["flags": [1]] as JSONValue).decode([String: [Bool]].self) }
                == "at flags[0]: expected Bool, found an integer (1)"
        )
        #expect(failure { _ = try JSONValue.int(300).decode(Int8.self) } == "at the top level: 300 does not fit Int8")
        #expect(failure { _ = try JSONValue.int(-1).decode(UInt.self) } == "at the top level: -1 does not fit UInt")
        #expect(
            failure { _ = try JSONValue.double(1.5).decode(Int.self) }
                == "at the top level: expected Int, found a number (1.5)"
        )
        #expect(
            failure { _ = try JSONValue.double(1e300).decode(Float.self) }
                == "at the top level: 1e+300 does not fit Float"
        )
        #expect(
            failure { _ = try (["kind": "task"] as JSONValue).decode([String: Item.Kind].self) } == nil
        )
    }

    struct Pair: Decodable {
        var first: Int
        var second: Int
        init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            first = try container.decode(Int.self)
            second = try container.decode(Int.self)
        }
    }

    @Test func anArrayThatEndsEarlyNamesThePosition() throws {
        #expect(try JSONValue.array([1, 2]).decode(Pair.self).second == 2)
        #expect(
            failure { _ = try (["p": [1]] as JSONValue).decode([String: Pair].self) }
                == "at p[1]: expected Int, found the end of an array of 1"
        )
    }

    struct Huge: Encodable {
        var values: [UInt64]
        var ratio: Double
    }

    struct Confused: Encodable {
        func encode(to encoder: any Encoder) throws {
            var single = encoder.singleValueContainer()
            try single.encode(1)
            var keyed = encoder.container(keyedBy: JSONValueCodableTests.Key.self)
            try keyed.encode(2, forKey: .a)
        }
    }

    enum Key: String, CodingKey { case a }

    @Test func encodingErrorsNameTheCodingPath() {
        #expect(
            failure { _ = try JSONValue(encoding: Huge(values: [1, .max], ratio: 0)) }
                == "at values[1]: 18446744073709551615 is beyond Int, the largest integer JSONValue holds exactly"
        )
        #expect(
            failure { _ = try JSONValue(encoding: Huge(values: [], ratio: .nan)) }
                == "at ratio: nan is not finite, and JSON has no NaN or infinity"
        )
        #expect(
            failure { _ = try JSONValue(encoding: ["x": Confused()]) }
                == "at x: a keyed container asked for where another value was encoded"
        )
    }

    /// A random JSON value from `seed` (SplitMix64): every case, nested up to `depth`.
    static func randomValue(_ state: inout UInt64, depth: Int) -> JSONValue {
        func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        let pick = next() % (depth > 0 ? 8 : 6)
        switch pick {
        case 0: return .null
        case 1: return .bool(next() & 1 == 0)
        case 2: return .int(Int(truncatingIfNeeded: next()) >> Int(next() % 64))
        case 3: return .double(Double(Int(truncatingIfNeeded: next() % 2001) - 1000) / 8)
        case 4: return .string(["", "id", "title", "2", "kind", "task"][Int(next() % 6)])
        case 5: return .int(Int(next() % 5))
        case 6: return .array((0..<Int(next() % 4)).map { _ in randomValue(&state, depth: depth - 1) })
        default:
            let keys = ["id", "title", "kind", "tags", "due", "items", "counts", "extra", "flags", "selected"]
            var object: [String: JSONValue] = [:]
            for _ in 0..<Int(next() % 6) { object[keys[Int(next() % 10)]] = randomValue(&state, depth: depth - 1) }
            return .object(object)
        }
    }

    /// Whatever the value, decoding either succeeds or throws the bridge's own error (never
    /// a trap, never another error), and any value round-trips through the bridge unchanged.
    @Test func randomValuesDecodeOrFailCleanlyAndRoundTrip() throws {
        var state: UInt64 = 16
        for _ in 0..<2000 {
            let value = Self.randomValue(&state, depth: 4)
            #expect(try JSONValue(encoding: value) == value)
            #expect(try value.decode(JSONValue.self) == value)
            for decode in [
                { _ = try value.decode(Inbox.self) }, { _ = try value.decode(Item.self) },
                { _ = try value.decode([Int8].self) }, { _ = try value.decode([String: [Item]].self) },
                { _ = try value.decode(Float.self) }, { _ = try value.decode(UInt16?.self) },
            ] as [() throws -> Void] {
                let outcome = failure(decode)
                #expect(outcome == nil || !outcome!.hasPrefix("unexpected"), "\(value): \(outcome ?? "")")
            }
        }
    }
}
