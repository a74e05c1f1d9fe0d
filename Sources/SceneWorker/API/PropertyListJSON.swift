import Protocol

/// Converts between `userInfo`'s property-list values (`Any`) and `JSONValue`.
enum PropertyListJSON {
    /// `dictionary` as a JSON object; keys are their string form, values that are no
    /// property-list kind are left out and logged (`path` names them).
    static func object(from dictionary: [AnyHashable: Any], at path: String) -> JSONValue {
        .object(
            entries(dictionary.lazy.map { (key, value) in (key.base as? String ?? "\(key.base)", value) }, at: path)
        )
    }

    /// `dictionary`'s entries as JSON values, those of no property-list kind left out (logged).
    static func entries(of dictionary: [String: Any]) -> [String: JSONValue] {
        entries(dictionary.lazy.map { ($0.key, $0.value) }, at: "userInfo")
    }

    private static func entries(_ pairs: some Sequence<(String, Any)>, at path: String) -> [String: JSONValue] {
        var entries: [String: JSONValue] = [:]
        for (name, value) in pairs {
            if let json = json(from: value, at: "\(path)[\(name)]") { entries[name] = json }
        }
        return entries
    }

    /// A JSON object's entries as a `userInfo` dictionary of property-list values (`value(of:)`).
    static func dictionary(of object: [String: JSONValue]) -> [AnyHashable: Any] {
        Dictionary(uniqueKeysWithValues: object.map { (AnyHashable($0.key), value(of: $0.value)) })
    }

    /// `value` as JSON, or nil (logged) when it is no property-list kind.
    static func json(from value: Any, at path: String) -> JSONValue? {
        switch value {
        case let json as JSONValue: return json
        case let string as String: return .string(string)
        case let bool as Bool: return .bool(bool)
        case let int as Int: return .int(int)
        case let int as any BinaryInteger:
            guard let exact = Int(exactly: int) else { return .double(Double(int)) }
            return .int(exact)
        case let double as Double: return .double(double)
        case let float as Float: return .double(Double(float))
        case let array as [Any]:
            return .array(array.enumerated().compactMap { json(from: $0.element, at: "\(path)[\($0.offset)]") })
        case let dictionary as [AnyHashable: Any]:
            return object(from: dictionary, at: path)
        case let dictionary as [String: Any]:
            return .object(entries(dictionary.lazy.map { ($0.key, $0.value) }, at: path))
        default:
            writeError("scenehost worker: \(path) not saved: a \(type(of: value)) is not a property-list value")
            return nil
        }
    }

    /// `json` as a property-list value: `Int`, `Double`, `String`, `Bool`, `[Any]`,
    /// `[String: Any]`; `null` becomes the `JSONValue.null` itself (property lists have none).
    static func value(of json: JSONValue) -> Any {
        switch json {
        case .null: return JSONValue.null
        case .bool(let bool): return bool
        case .int(let int): return int
        case .double(let double): return double
        case .string(let string): return string
        case .array(let array): return array.map(value(of:))
        case .object(let object): return object.mapValues(value(of:))
        }
    }
}
