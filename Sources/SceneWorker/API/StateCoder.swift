import Protocol

/// The coder of UIKit's app-level state restoration (as `NSCoder` in
/// `application(_:shouldSaveSecureApplicationState:)`): keyed JSON values. What an app
/// encodes is what the host stores, and what the next launch's coder holds.
@MainActor
public final class StateCoder {
    /// The encoded values by key.
    public private(set) var values: [String: JSONValue]

    /// A coder holding `values` (empty to encode).
    public init(values: [String: JSONValue] = [:]) {
        self.values = values
    }

    /// Encodes `value` under `key`, replacing what was there.
    public func encode(_ value: JSONValue, forKey key: String) {
        values[key] = value
    }

    /// The value encoded under `key`, or nil.
    public func decodeValue(forKey key: String) -> JSONValue? {
        values[key]
    }

    /// Every value, as one JSON object.
    var jsonValue: JSONValue { .object(values) }
}
