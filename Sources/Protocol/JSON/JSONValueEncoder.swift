/// Encodes `Encodable` values to `JSONValue` without Foundation: the containers write into a
/// tree of nodes, which becomes the value once `encode(to:)` returns.
struct JSONValueEncoder {
    static func encode(_ value: some Encodable) throws -> JSONValue {
        let root = Node()
        let context = Context()
        try encode(value, into: root, context: context, codingPath: [])
        if let error = context.firstError { throw error }
        return root.value
    }

    static func encode(
        _ value: some Encodable,
        into node: Node,
        context: Context,
        codingPath: [any CodingKey]
    ) throws {
        if let json = value as? JSONValue {
            node.storage = .value(json)
        } else if let scalar = value as? any JSONValueScalar {
            node.storage = .value(try scalar.jsonValue(codingPath: codingPath))
        } else {
            try value.encode(to: Encoder(node: node, context: context, codingPath: codingPath))
        }
    }

    /// One place in the tree being built.
    final class Node {
        enum Storage {
            case empty
            case value(JSONValue)
            case object([String: Node])
            case array([Node])
        }

        var storage = Storage.empty

        /// A place nothing was encoded into becomes `{}`, as an empty keyed container does.
        var value: JSONValue {
            switch storage {
            case .empty: .object([:])
            case .value(let value): value
            case .object(let members): .object(members.mapValues(\.value))
            case .array(let elements): .array(elements.map(\.value))
            }
        }

        func becomeObject(_ context: Context, _ codingPath: [any CodingKey]) {
            switch storage {
            case .object: return
            case .empty: break
            case .value, .array:
                context.fail(codingPath, "a keyed container asked for where another value was encoded")
            }
            storage = .object([:])
        }

        func becomeArray(_ context: Context, _ codingPath: [any CodingKey]) {
            switch storage {
            case .array: return
            case .empty: break
            case .value, .object:
                context.fail(codingPath, "an unkeyed container asked for where another value was encoded")
            }
            storage = .array([])
        }

        /// A new node under `key` (replacing any there).
        func child(_ key: String) -> Node {
            let child = Node()
            guard case .object(var members) = storage else { return child }
            storage = .empty  // keeps `members` uniquely referenced: no copy on write
            members[key] = child
            storage = .object(members)
            return child
        }

        /// A new node at the end of the array.
        func appended() -> Node {
            let child = Node()
            guard case .array(var elements) = storage else { return child }
            storage = .empty
            elements.append(child)
            storage = .array(elements)
            return child
        }

        var count: Int {
            if case .array(let elements) = storage { return elements.count }
            return 0
        }
    }

    /// The first misuse of containers, reported when encoding ends (containers cannot throw).
    final class Context {
        var firstError: JSONValueCodingError?

        func fail(_ codingPath: [any CodingKey], _ detail: String) {
            if firstError == nil {
                firstError = JSONValueCodingError(codingPath: codingPath, problem: .containerMismatch(detail))
            }
        }
    }

    struct Encoder: Swift.Encoder {
        let node: Node
        let context: Context
        let codingPath: [any CodingKey]
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            node.becomeObject(context, codingPath)
            return KeyedEncodingContainer(KeyedContainer<Key>(node: node, context: context, codingPath: codingPath))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            node.becomeArray(context, codingPath)
            return UnkeyedContainer(node: node, context: context, codingPath: codingPath)
        }

        func singleValueContainer() -> any SingleValueEncodingContainer {
            SingleValueContainer(node: node, context: context, codingPath: codingPath)
        }
    }

    struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let node: Node
        let context: Context
        let codingPath: [any CodingKey]

        mutating func encodeNil(forKey key: Key) throws {
            node.child(key.stringValue).storage = .value(.null)
        }

        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            try JSONValueEncoder.encode(
                value,
                into: node.child(key.stringValue),
                context: context,
                codingPath: codingPath + [key]
            )
        }

        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type,
            forKey key: Key
        ) -> KeyedEncodingContainer<NestedKey> {
            nestedEncoder(key.stringValue, key).container(keyedBy: keyType)
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            nestedEncoder(key.stringValue, key).unkeyedContainer()
        }

        mutating func superEncoder() -> any Swift.Encoder {
            nestedEncoder("super", JSONValueSuperKey())
        }

        mutating func superEncoder(forKey key: Key) -> any Swift.Encoder {
            nestedEncoder(key.stringValue, key)
        }

        private func nestedEncoder(_ name: String, _ key: any CodingKey) -> Encoder {
            Encoder(node: node.child(name), context: context, codingPath: codingPath + [key])
        }
    }

    struct UnkeyedContainer: UnkeyedEncodingContainer {
        let node: Node
        let context: Context
        let codingPath: [any CodingKey]
        var count: Int { node.count }

        mutating func encodeNil() throws {
            node.appended().storage = .value(.null)
        }

        mutating func encode<T: Encodable>(_ value: T) throws {
            let key = JSONValueIndexKey(count)
            try JSONValueEncoder.encode(value, into: node.appended(), context: context, codingPath: codingPath + [key])
        }

        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type
        ) -> KeyedEncodingContainer<NestedKey> {
            nestedEncoder().container(keyedBy: keyType)
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            nestedEncoder().unkeyedContainer()
        }

        mutating func superEncoder() -> any Swift.Encoder {
            nestedEncoder()
        }

        private func nestedEncoder() -> Encoder {
            let key = JSONValueIndexKey(count)
            return Encoder(node: node.appended(), context: context, codingPath: codingPath + [key])
        }
    }

    struct SingleValueContainer: SingleValueEncodingContainer {
        let node: Node
        let context: Context
        let codingPath: [any CodingKey]

        mutating func encodeNil() throws {
            node.storage = .value(.null)
        }

        mutating func encode<T: Encodable>(_ value: T) throws {
            try JSONValueEncoder.encode(value, into: node, context: context, codingPath: codingPath)
        }
    }
}
