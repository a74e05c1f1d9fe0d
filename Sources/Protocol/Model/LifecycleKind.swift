/// Which lifecycle a worker's app follows (docs/LIFECYCLE.md §3d): UIKit decides it from the
/// app's manifest; here the worker declares it in its handshake (`ready`).
public enum LifecycleKind: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Scene-based (iOS 13+): scene delegate callbacks, the app delegate for the process only.
    case scene
    /// App-based (no scene support, the iOS 12 kind): the app delegate gets the app's
    /// activation and background callbacks, and no scene callback ever runs.
    case app

    public var description: String { rawValue }
}
