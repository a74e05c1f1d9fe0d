import SceneModel

extension SceneHost {
    /// With a memory limit, compares the workers' total resident memory (from /proc) with it
    /// every `memoryCheckInterval` and relieves the pressure (LIFECYCLE.md §4) when it is over.
    ///
    /// One of the host's tasks (`HostTasks`); it holds the host weakly and ends when the host
    /// quits or goes away.
    package func startMemoryMonitor() {
        guard let limit = configuration.memoryLimitBytes else { return }
        let interval = configuration.memoryCheckInterval
        tasks.run { [weak self] in
            while true {
                do { try await Task.sleep(for: interval) } catch { return }
                guard let self, !self.isQuitting else { return }
                let total = await self.totalResidentMemory()
                // One loop, awaiting each relief before the next check: checks never pile up.
                guard total > limit else { continue }
                self.trace.record(
                    TraceEvent(
                        kind: .host,
                        name: "memoryLimitExceeded",
                        message: "workers' resident memory \(total >> 10) KiB over the limit of \(limit >> 10) KiB"
                    )
                )
                await self.memoryPressure()
            }
        }
    }
}
