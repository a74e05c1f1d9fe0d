import Protocol

/// The lifecycle notifications the last callback may still post, for the trace checker: an
/// app on the UIKit module posts them right after the callback returns, in the order
/// `CallbackName.postedNotifications` gives, any other app none. It remembers the callback,
/// not its list: a list would cost an allocation per callback on the host's hot path.
struct OwedNotifications: Sendable, Equatable {
    private var callback: CallbackName?
    private var seen = 0

    /// `callback` was accepted: its notifications may follow.
    mutating func owe(after callback: CallbackName) {
        self.callback = callback
        seen = 0
    }

    /// Accepts the notification `name`, or returns what was expected instead (nothing
    /// changes then). Each is accepted at most once, in order; one may be left out.
    mutating func accept(_ name: CallbackName) -> String? {
        let owed = (callback?.postedNotifications ?? []).dropFirst(seen)
        guard let index = owed.firstIndex(of: name) else {
            let names = owed.map(\.rawValue).joined(separator: " or ")
            return names.isEmpty
                ? "no \(name.rawValue) here (it follows the callback that posts it)" : "\(names) (or the next callback)"
        }
        seen = index + 1
        return nil
    }
}
