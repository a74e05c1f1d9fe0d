import SceneModel

extension HostConfiguration {
    /// How workers are scheduled: as the host is, unless it is tuned for throughput.
    package var workerScheduling: ChildProcess.Scheduling {
        tuning == .throughput ? .batch : .inherited
    }
}
