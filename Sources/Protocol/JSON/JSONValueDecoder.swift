/// Decodes `Decodable` values from a `JSONValue` without Foundation. Every error names its
/// coding path (`JSONValueCodingError`).
struct JSONValueDecoder {
    static func decode<T: Decodable>(_ type: T.Type, from value: JSONValue, codingPath: [any CodingKey]) throws -> T {
        if T.self == JSONValue.self, let value = value as? T { return value }
        if let scalar = T.self as? any JSONValueScalar.Type {
            return try decodeScalar(scalar, from: value, codingPath: codingPath)
        }
        return try T(from: Decoder(value: value, codingPath: codingPath))
    }

    private static func decodeScalar<S: JSONValueScalar, T>(
        _ scalar: S.Type,
        from value: JSONValue,
        codingPath: [any CodingKey]
    ) throws -> T {
        // `T` is `S`: the caller found `T.self as? any JSONValueScalar.Type`.
        guard let result = try S(jsonValue: value, codingPath: codingPath) as? T else {
            throw JSONValueCodingError(
                codingPath: codingPath,
                problem: .typeMismatch(expected: "\(T.self)", found: value.kindDescription)
            )
        }
        return result
    }

    static func mismatch(_ expected: String, _ value: JSONValue, _ codingPath: [any CodingKey]) -> JSONValueCodingError
    {
        if value == .null {
            return JSONValueCodingError(
                codingPath: codingPath,
                problem: .valueNotFound(expected: expected, found: "null")
            )
        }
        return JSONValueCodingError(
            codingPath: codingPath,
            problem: .typeMismatch(expected: expected, found: value.kindDescription)
        )
    }

    struct Decoder: Swift.Decoder {
        let value: JSONValue
        let codingPath: [any CodingKey]
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
            guard case .object(let members) = value else {
                throw JSONValueDecoder.mismatch("an object", value, codingPath)
            }
            return KeyedDecodingContainer(KeyedContainer<Key>(members: members, codingPath: codingPath))
        }

        func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
            guard case .array(let elements) = value else {
                throw JSONValueDecoder.mismatch("an array", value, codingPath)
            }
            return UnkeyedContainer(elements: elements, codingPath: codingPath)
        }

        func singleValueContainer() throws -> any SingleValueDecodingContainer {
            SingleValueContainer(value: value, codingPath: codingPath)
        }
    }

    struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let members: [String: JSONValue]
        let codingPath: [any CodingKey]

        var allKeys: [Key] { members.keys.compactMap { Key(stringValue: $0) } }

        func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

        private func member(_ key: Key) throws(JSONValueCodingError) -> JSONValue {
            guard let value = members[key.stringValue] else {
                throw JSONValueCodingError(
                    codingPath: codingPath + [key],
                    problem: .keyNotFound(key: key.stringValue, present: members.keys.sorted())
                )
            }
            return value
        }

        func decodeNil(forKey key: Key) throws -> Bool {
            try member(key) == .null
        }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            try JSONValueDecoder.decode(type, from: member(key), codingPath: codingPath + [key])
        }

        func nestedContainer<NestedKey: CodingKey>(
            keyedBy type: NestedKey.Type,
            forKey key: Key
        ) throws -> KeyedDecodingContainer<NestedKey> {
            try Decoder(value: member(key), codingPath: codingPath + [key]).container(keyedBy: type)
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            try Decoder(value: member(key), codingPath: codingPath + [key]).unkeyedContainer()
        }

        func superDecoder() throws -> any Swift.Decoder {
            Decoder(value: members["super"] ?? .null, codingPath: codingPath + [JSONValueSuperKey()])
        }

        func superDecoder(forKey key: Key) throws -> any Swift.Decoder {
            Decoder(value: members[key.stringValue] ?? .null, codingPath: codingPath + [key])
        }
    }

    struct UnkeyedContainer: UnkeyedDecodingContainer {
        let elements: [JSONValue]
        let codingPath: [any CodingKey]
        private(set) var currentIndex = 0

        init(elements: [JSONValue], codingPath: [any CodingKey]) {
            self.elements = elements
            self.codingPath = codingPath
        }

        var count: Int? { elements.count }
        var isAtEnd: Bool { currentIndex >= elements.count }

        private func next(_ expected: String) throws(JSONValueCodingError) -> JSONValue {
            guard !isAtEnd else {
                throw JSONValueCodingError(
                    codingPath: codingPath + [JSONValueIndexKey(currentIndex)],
                    problem: .valueNotFound(expected: expected, found: "the end of an array of \(elements.count)")
                )
            }
            return elements[currentIndex]
        }

        mutating func decodeNil() throws -> Bool {
            guard try next("a value or null") == .null else { return false }
            currentIndex += 1
            return true
        }

        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
            let key = JSONValueIndexKey(currentIndex)
            let result = try JSONValueDecoder.decode(type, from: next("\(T.self)"), codingPath: codingPath + [key])
            currentIndex += 1
            return result
        }

        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy type: NestedKey.Type
        ) throws -> KeyedDecodingContainer<NestedKey> {
            let container = try nestedDecoder("an object").container(keyedBy: type)
            currentIndex += 1
            return container
        }

        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            let container = try nestedDecoder("an array").unkeyedContainer()
            currentIndex += 1
            return container
        }

        mutating func superDecoder() throws -> any Swift.Decoder {
            let decoder = try nestedDecoder("a value")
            currentIndex += 1
            return decoder
        }

        private func nestedDecoder(_ expected: String) throws -> Decoder {
            Decoder(value: try next(expected), codingPath: codingPath + [JSONValueIndexKey(currentIndex)])
        }
    }

    struct SingleValueContainer: SingleValueDecodingContainer {
        let value: JSONValue
        let codingPath: [any CodingKey]

        func decodeNil() -> Bool { value == .null }

        func decode<T: Decodable>(_ type: T.Type) throws -> T {
            try JSONValueDecoder.decode(type, from: value, codingPath: codingPath)
        }
    }
}
