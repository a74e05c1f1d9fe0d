import Protocol

/// A keyed coder, as `NSCoder`: what `application(_:shouldSaveSecureApplicationState:)`
/// encodes into, `application(_:shouldRestoreSecureApplicationState:)` reads back, and what
/// `init?(coder:)` receives (an empty one: there are no nibs). Values are property-list
/// values (strings, numbers, booleans, arrays and dictionaries of them) kept as JSON: what an
/// app encodes is what the host stores, and what the next launch's coder holds.
///
/// A file that imports Foundation without `UIKit` sees Foundation's `NSCoder` too: write
/// `SceneWorker.NSCoder`, or import `UIKit`, whose `NSCoder` is this one.
@MainActor
public final class NSCoder {
    /// The encoded values by key.
    public private(set) var values: [String: JSONValue]

    /// A coder holding `values` (empty to encode).
    public init(values: [String: JSONValue] = [:]) {
        self.values = values
    }

    /// Whether the coder is keyed: always.
    public var allowsKeyedCoding: Bool { true }

    /// Encodes `value` under `key`, replacing what was there.
    public func encode(_ value: JSONValue, forKey key: String) {
        values[key] = value
    }

    /// Encodes a property-list value (a string, number, boolean, or an array or dictionary
    /// of them) under `key`; nil removes the key. Anything else is encoded as its description.
    public func encode(_ object: Any?, forKey key: String) {
        guard let object else {
            values[key] = nil
            return
        }
        values[key] = PropertyListJSON.json(from: object, at: key) ?? .string(String(describing: object))
    }

    /// Encodes `value` under `key`.
    public func encode(_ value: Int, forKey key: String) { values[key] = .int(value) }
    /// Encodes `value` under `key`.
    public func encode(_ value: Bool, forKey key: String) { values[key] = .bool(value) }
    /// Encodes `value` under `key`.
    public func encode(_ value: Double, forKey key: String) { values[key] = .double(value) }

    /// The value encoded under `key`, or nil.
    public func decodeValue(forKey key: String) -> JSONValue? {
        values[key]
    }

    /// The value encoded under `key` as a property-list value (`as? String`, `as? [String: Any]`).
    public func decodeObject(forKey key: String) -> Any? {
        values[key].map(PropertyListJSON.value(of:))
    }

    /// The integer under `key`, or 0.
    public func decodeInteger(forKey key: String) -> Int {
        switch values[key] {
        case .int(let value)?: value
        case .double(let value)?: Int(exactly: value.rounded(.towardZero)) ?? 0
        default: 0
        }
    }

    /// The boolean under `key`, or false.
    public func decodeBool(forKey key: String) -> Bool {
        if case .bool(let value)? = values[key] { return value }
        return false
    }

    /// The number under `key`, or 0.
    public func decodeDouble(forKey key: String) -> Double {
        switch values[key] {
        case .double(let value)?: value
        case .int(let value)?: Double(value)
        default: 0
        }
    }

    /// Whether something is encoded under `key`.
    public func containsValue(forKey key: String) -> Bool {
        values[key] != nil
    }

    /// Every value, as one JSON object.
    var jsonValue: JSONValue { .object(values) }
}

/// The coder's name before it took UIKit's.
@available(*, deprecated, renamed: "NSCoder")
public typealias StateCoder = NSCoder
