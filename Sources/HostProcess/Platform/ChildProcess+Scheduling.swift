extension ChildProcess {
    /// The scheduling policy a child is spawned with.
    package enum Scheduling: Sendable {
        /// The host's own (normally SCHED_OTHER).
        case inherited
        /// SCHED_BATCH, as every worker runs: waking it never preempts the thread that woke
        /// it. The host's event loop is the one thread every transition passes through, and a
        /// worker woken onto the loop's CPU used to take it over at once (the pipe's wake-up
        /// is a "sync" one, which places the woken task next to its waker), tens of thousands
        /// of times a second with 64 busy scenes. A batch worker runs instead on a CPU that
        /// is free, or on the loop's own CPU as soon as the loop runs out of work: the loop
        /// yields before it polls (`EventLoop.yieldBeforeNextPoll`), so a worker sharing its
        /// CPU answers as soon as it would have when preempting.
        ///
        /// A hint only: where the system refuses it the child keeps the host's policy and the
        /// spawn still succeeds. What the child starts inherits it. (The fast spawn sets it in
        /// the child before `exec`; posix_spawn's child inherits it from the spawning thread,
        /// which takes it for the spawn.)
        case batch
    }
}
