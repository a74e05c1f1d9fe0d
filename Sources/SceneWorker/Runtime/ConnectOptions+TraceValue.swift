import Protocol

extension ConnectOptions {
    /// `connectionValue` as an app-based launch receives it: only the URL reaches its launch
    /// options.
    var launchValue: JSONValue? {
        url.map { .object(["url": .string($0)]) }
    }
}
