/// What every scene of one host shares.
struct HostContext: Sendable {
    let configuration: HostConfiguration
    let trace: TraceRecorder
    let sessions: SessionStore
}
