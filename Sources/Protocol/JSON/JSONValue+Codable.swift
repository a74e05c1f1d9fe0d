// The Codable bridge: any `Encodable` to a `JSONValue` and back, without Foundation (the
// Protocol module links nothing but the standard library, so workers stay small).
//
// ```swift
// struct Draft: Codable { var text: String; var cursor: Int? }
// let value = try JSONValue(encoding: Draft(text: "hi", cursor: nil))   // ["text": "hi"]
// let draft = try value.decode(Draft.self)
// ```

extension JSONValue {
    /// `value` as JSON. Keyed containers become objects, unkeyed ones arrays; `nil` optionals
    /// encoded with `encodeIfPresent` (what synthesized `Codable` uses) are left out.
    ///
    /// Throws `JSONValueCodingError` for an integer beyond `Int`, a non-finite `Float` or
    /// `Double`, or containers misused by a hand-written `encode(to:)`; errors thrown by
    /// `encode(to:)` itself pass through.
    public init(encoding value: some Encodable) throws {
        self = try JSONValueEncoder.encode(value)
    }

    /// The value as a `T`. Throws `JSONValueCodingError` naming the coding path
    /// (`at items[2].id: expected Int, found a string ("x")`); errors thrown by
    /// `init(from:)` itself pass through. Integers may come as integral doubles (`3.0`).
    public func decode<T: Decodable>(_ type: T.Type = T.self) throws -> T {
        try JSONValueDecoder.decode(type, from: self, codingPath: [])
    }
}

/// A `JSONValue` inside a `Codable` type stays as it is: with `JSONValue(encoding:)` and
/// `decode(_:)` it is copied verbatim; with other coders it is written as the JSON it holds.
extension JSONValue: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let flag = try? container.decode(Bool.self) {
            self = .bool(flag)
        } else if let integer = try? container.decode(Int.self) {
            self = .int(integer)
        } else if let double = try? container.decode(Double.self) {
            self = .double(double)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let elements = try? container.decode([JSONValue].self) {
            self = .array(elements)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let flag): try container.encode(flag)
        case .int(let integer): try container.encode(integer)
        case .double(let double): try container.encode(double)
        case .string(let string): try container.encode(string)
        case .array(let elements): try container.encode(elements)
        case .object(let members): try container.encode(members)
        }
    }
}
