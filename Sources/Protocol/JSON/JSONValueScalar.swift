/// The Swift types `JSONValue`'s coders convert themselves instead of through `Codable`:
/// every standard integer, `Float`, `Double`, `Bool` and `String`.
protocol JSONValueScalar {
    /// The value as JSON; throws for what `JSONValue` cannot hold exactly.
    func jsonValue(codingPath: [any CodingKey]) throws(JSONValueCodingError) -> JSONValue
    /// `value` as this type; throws for another JSON type or a number out of range.
    init(jsonValue value: JSONValue, codingPath: [any CodingKey]) throws(JSONValueCodingError)
}

extension JSONValueScalar {
    static func mismatch(_ value: JSONValue, _ codingPath: [any CodingKey]) -> JSONValueCodingError {
        let expected = "\(Self.self)"
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
}

extension JSONValueScalar where Self: FixedWidthInteger {
    func jsonValue(codingPath: [any CodingKey]) throws(JSONValueCodingError) -> JSONValue {
        guard let integer = Int(exactly: self) else {
            throw JSONValueCodingError(
                codingPath: codingPath,
                problem: .numberOutOfRange("\(self) is beyond Int, the largest integer JSONValue holds exactly")
            )
        }
        return .int(integer)
    }

    init(jsonValue value: JSONValue, codingPath: [any CodingKey]) throws(JSONValueCodingError) {
        switch value {
        case .int(let integer):
            guard let exact = Self(exactly: integer) else {
                throw JSONValueCodingError(
                    codingPath: codingPath,
                    problem: .numberOutOfRange("\(integer) does not fit \(Self.self)")
                )
            }
            self = exact
        case .double(let double) where double.rounded(.towardZero) == double:
            guard let exact = Self(exactly: double) else {
                throw JSONValueCodingError(
                    codingPath: codingPath,
                    problem: .numberOutOfRange("\(double) does not fit \(Self.self)")
                )
            }
            self = exact
        default:
            throw Self.mismatch(value, codingPath)
        }
    }
}

extension Int: JSONValueScalar {}
extension Int8: JSONValueScalar {}
extension Int16: JSONValueScalar {}
extension Int32: JSONValueScalar {}
extension Int64: JSONValueScalar {}
extension UInt: JSONValueScalar {}
extension UInt8: JSONValueScalar {}
extension UInt16: JSONValueScalar {}
extension UInt32: JSONValueScalar {}
extension UInt64: JSONValueScalar {}

extension Double: JSONValueScalar {
    func jsonValue(codingPath: [any CodingKey]) throws(JSONValueCodingError) -> JSONValue {
        guard isFinite else {
            throw JSONValueCodingError(
                codingPath: codingPath,
                problem: .numberOutOfRange("\(self) is not finite, and JSON has no NaN or infinity")
            )
        }
        return .double(self)
    }

    init(jsonValue value: JSONValue, codingPath: [any CodingKey]) throws(JSONValueCodingError) {
        switch value {
        case .int(let integer): self = Double(integer)
        case .double(let double): self = double
        default: throw Self.mismatch(value, codingPath)
        }
    }
}

extension Float: JSONValueScalar {
    func jsonValue(codingPath: [any CodingKey]) throws(JSONValueCodingError) -> JSONValue {
        try Double(self).jsonValue(codingPath: codingPath)
    }

    init(jsonValue value: JSONValue, codingPath: [any CodingKey]) throws(JSONValueCodingError) {
        let double = try Double(jsonValue: value, codingPath: codingPath)
        guard Float(double).isFinite else {
            throw JSONValueCodingError(
                codingPath: codingPath,
                problem: .numberOutOfRange("\(double) does not fit Float")
            )
        }
        self = Float(double)
    }
}

extension Bool: JSONValueScalar {
    func jsonValue(codingPath: [any CodingKey]) throws(JSONValueCodingError) -> JSONValue { .bool(self) }

    init(jsonValue value: JSONValue, codingPath: [any CodingKey]) throws(JSONValueCodingError) {
        guard case .bool(let flag) = value else { throw Self.mismatch(value, codingPath) }
        self = flag
    }
}

extension String: JSONValueScalar {
    func jsonValue(codingPath: [any CodingKey]) throws(JSONValueCodingError) -> JSONValue { .string(self) }

    init(jsonValue value: JSONValue, codingPath: [any CodingKey]) throws(JSONValueCodingError) {
        guard case .string(let string) = value else { throw Self.mismatch(value, codingPath) }
        self = string
    }
}
