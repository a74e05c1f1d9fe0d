import Synchronization

/// What every scene of one host shares.
struct HostContext: Sendable {
    let configuration: HostConfiguration
    let trace: TraceRecorder
    let sessions: SessionStore
    let flags: HostFlags
    /// Workers started ahead of the launches that will take them.
    let prewarmed: PrewarmedWorkers
    /// Sessions discarded while no host ran, reported at this host's launch: their scenes
    /// start discarded, as if the discard had happened here.
    var discardedAtLaunch: Set<String> = []
    /// Discarded sessions the app has not heard of yet.
    var discards = DiscardMailbox()
    /// The host's background work: what `sceneRequests` carries out, the memory monitor.
    let tasks: HostTasks
    /// Scene requests apps make from their own code.
    let sceneRequests: AppSceneRequests
}

/// Host-wide switches the scenes read.
final class HostFlags: Sendable {
    /// Set once the host quits: no restarts from then on.
    let isQuitting = Atomic<Bool>(false)
}
