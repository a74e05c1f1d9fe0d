/// Why a value could not be encoded to or decoded from a `JSONValue`, and where.
///
/// `description` names the place: `at items[2].id: expected Int, found a string ("42")`.
public struct JSONValueCodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Problem: Sendable, Hashable {
        /// Decoding: the value has another JSON type than the Swift type needs.
        case typeMismatch(expected: String, found: String)
        /// Decoding: a required key is absent. `present`: the keys the object has, sorted.
        case keyNotFound(key: String, present: [String])
        /// Decoding: `null`, or the end of an array, where a value is required.
        case valueNotFound(expected: String, found: String)
        /// A number that does not fit: the Swift type (decoding), or `JSONValue` (encoding
        /// integers beyond `Int`, non-finite floating-point numbers).
        case numberOutOfRange(String)
        /// Encoding: the `encode(to:)` asked for a keyed and then an unkeyed container (or the
        /// reverse) at one place; the value encoded last was kept.
        case containerMismatch(String)
    }

    /// Where: `items[2].id`; empty for the top-level value.
    public var path: String
    public var problem: Problem

    public init(path: String, problem: Problem) {
        self.path = path
        self.problem = problem
    }

    init(codingPath: [any CodingKey], problem: Problem) {
        self.init(path: Self.render(codingPath), problem: problem)
    }

    public var description: String {
        let place = path.isEmpty ? "at the top level" : "at \(path)"
        switch problem {
        case .typeMismatch(let expected, let found):
            return "\(place): expected \(expected), found \(found)"
        case .keyNotFound(let key, let present):
            let keys = present.isEmpty ? "no keys" : "keys " + present.joined(separator: ", ")
            return "\(place): no key \"\(key)\" (the object has \(keys))"
        case .valueNotFound(let expected, let found):
            return "\(place): expected \(expected), found \(found)"
        case .numberOutOfRange(let detail):
            return "\(place): \(detail)"
        case .containerMismatch(let detail):
            return "\(place): \(detail)"
        }
    }

    /// `items[2].id`: array positions in brackets, keys joined by dots.
    static func render(_ codingPath: [any CodingKey]) -> String {
        var path = ""
        for key in codingPath {
            if let index = key as? JSONValueIndexKey {
                path += "[\(index.index)]"
            } else {
                if !path.isEmpty { path += "." }
                path += key.stringValue
            }
        }
        return path
    }
}

extension JSONValue {
    /// A short, readable account of the value for error messages: `a string ("42")`,
    /// `an array of 3`, `an object with keys a, b`.
    var kindDescription: String {
        switch self {
        case .null: return "null"
        case .bool(let flag): return "a boolean (\(flag))"
        case .int(let integer): return "an integer (\(integer))"
        case .double(let double): return "a number (\(double))"
        case .string(let string):
            let shown = string.count > 40 ? String(string.prefix(40)) + "…" : string
            return "a string (\"\(shown)\")"
        case .array(let elements): return "an array of \(elements.count)"
        case .object(let members):
            if members.isEmpty { return "an empty object" }
            let keys = members.keys.sorted()
            let shown = keys.prefix(5).joined(separator: ", ") + (keys.count > 5 ? ", …" : "")
            return "an object with keys \(shown)"
        }
    }
}
