/// A JSON value as the protocol's own parser produces it.
///
/// Integers that fit `Int` stay exact (`.int`); every other number is `.double`.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])
}
