extension HostConfiguration {
    /// How workers are scheduled: as the host is, unless it is tuned for throughput.
    var workerScheduling: ChildProcess.Scheduling {
        tuning == .throughput ? .batch : .inherited
    }
}
