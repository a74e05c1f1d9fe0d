/// Finds the processes workers leave behind and kills and reaps them.
///
/// A worker leads its own process group, which the event loop SIGKILLs when the worker dies;
/// that takes every descendant still in the group. Two kinds escape it: a descendant that
/// left the group (`setsid()`, `setpgid()`), and the group's members themselves once dead,
/// which as orphans would be zombies of whoever adopts them. The host is a child subreaper
/// (`PR_SET_CHILD_SUBREAPER`, set by `HostThreads.start()`), so orphaned descendants are
/// re-parented to the host instead of init, and after every worker's death a sweep on the
/// blocking-work thread kills and reaps the host's adopted children that came from it.
///
/// Adopted children are told from children other code of the process started on its own
/// (tests, benchmarks) by where they come from: in the dead worker's process group, in
/// another session than the host's (`setsid`), or carrying the worker environment's
/// `SCENEHOST_HOST_PID` of this host. Workers themselves are never touched: they are children
/// of the blocking-work thread, while orphans are re-parented to the main thread.
package enum DescendantReaper {
    /// Rounds per sweep: each round reaps one generation (the children of what the previous
    /// round killed are re-parented by the time it is reaped); the bound keeps a fork bomb
    /// from holding the blocking thread for ever (the next worker death sweeps again).
    static let maximumRounds = 64

    /// Kills and reaps the adopted descendants of the worker that led process group `group`
    /// (its pid), and any other escapee found. Runs on the blocking-work thread.
    package static func sweep(afterDeathOfGroup group: Int32) {
        for _ in 0..<maximumRounds {
            let liveGroups = EventLoop.shared.liveProcessGroups()
            let found = adoptedChildren().filter { child in
                if child.processGroup == group { return true }
                // Still in a live worker's group: that worker's business, swept at its death.
                if liveGroups.contains(child.processGroup) { return false }
                return child.session != hostSession || carriesHostMarker(child.pid)
            }
            guard !found.isEmpty else { return }
            for child in found {
                killAndReap(child.pid)
            }
        }
    }

    /// Kills and reaps every adopted descendant of any worker: for the end of the host, once
    /// the workers are gone.
    package static func sweepAll() {
        for _ in 0..<maximumRounds {
            let found = adoptedChildren().filter { child in
                child.session != hostSession || carriesHostMarker(child.pid) || child.isZombieOfOwnGroup
            }
            guard !found.isEmpty else { return }
            for child in found {
                killAndReap(child.pid)
            }
        }
    }
}
