import Protocol

/// The scene requests apps made and the host has not carried out yet, one first-in-first-out
/// line per asking scene (docs/LIFECYCLE.md §3c): an app's requests are carried out in the
/// order it made them, one after another, and never wait behind another scene's.
///
/// A plain value: the owner keeps it under a lock, starts a drainer when `enqueue` says so,
/// and the drainer takes requests with `next(from:)` until it gets nil.
package struct AppRequestQueue: Sendable {
    /// How many requests of one scene may wait behind the one being carried out.
    package static let maximumWaitingPerScene = 32

    /// What `enqueue` did with a request.
    package enum Enqueued: Sendable, Equatable {
        /// The scene had none in progress: the caller starts draining its line.
        case startDrain
        /// It waits behind the scene's earlier requests; their drainer will take it.
        case queued
        /// The scene already has `maximumWaitingPerScene` waiting: refused, nothing changed.
        case full
    }

    /// A scene has a line while a drainer works on it, empty while its last request runs.
    private var lines: [String: [AppChange]] = [:]

    /// How many requests wait, all scenes together (not counting those in progress).
    package var waitingCount: Int { lines.values.reduce(0) { $0 + $1.count } }

    /// Whether a drainer is at work on `opener`'s requests.
    package func isDraining(_ opener: String) -> Bool { lines[opener] != nil }

    package mutating func enqueue(_ change: AppChange, from opener: String) -> Enqueued {
        guard let waiting = lines[opener]?.count else {
            lines[opener] = [change]
            return .startDrain
        }
        guard waiting < Self.maximumWaitingPerScene else { return .full }
        lines[opener]!.append(change)
        return .queued
    }

    /// The next request of `opener` to carry out, or nil when there is none: the drainer
    /// stops, and the next `enqueue` starts another.
    package mutating func next(from opener: String) -> AppChange? {
        guard let waiting = lines[opener]?.count, waiting > 0 else {
            lines[opener] = nil
            return nil
        }
        return lines[opener]!.removeFirst()
    }

    /// Forgets `opener`'s line, whose drainer could not start: the next `enqueue` starts one.
    package mutating func abandon(_ opener: String) {
        lines[opener] = nil
    }
}
