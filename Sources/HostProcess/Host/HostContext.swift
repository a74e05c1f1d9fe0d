import SceneModel
import Synchronization

/// What every scene of one host shares.
package struct HostContext: Sendable {
    package let configuration: HostConfiguration
    package let trace: TraceRecorder
    package let sessions: SessionStore
    package let flags: HostFlags
    /// Workers started ahead of the launches that will take them.
    package let prewarmed: PrewarmedWorkers
    /// Sessions discarded while no host ran, reported at this host's launch: their scenes
    /// start discarded, as if the discard had happened here.
    package var discardedAtLaunch: Set<String> = []
    /// Discarded sessions the app has not heard of yet.
    package var discards = DiscardMailbox()
    /// The host's background work: what `sceneRequests` carries out, the memory monitor.
    package let tasks: HostTasks
    /// Scene requests apps make from their own code.
    package let sceneRequests: AppSceneRequests
    /// The processes of apps whose scenes share one (`connect`'s `app`).
    package let apps = AppProcesses()
}

/// Host-wide switches the scenes read.
package final class HostFlags: Sendable {
    /// Set once the host quits: no restarts from then on.
    package let isQuitting = Atomic<Bool>(false)
}
