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

    /// Dead workers' groups not swept yet, and whether a sweep is queued for them.
    private static let pending = Locked<(groups: Set<Int32>, queued: Bool)>(([], false))

    /// Sweeps after the death of the worker that led `group`, on the sweep thread. Deaths that
    /// come while a sweep is queued join it: one scan of the host's children serves them all
    /// (a scan per death made a thousand deaths cost a million /proc reads, and the backlog
    /// of zombies grew faster than it was reaped).
    package static func scheduleSweep(afterDeathOfGroup group: Int32) {
        let mustQueue = pending.withLock { pending in
            pending.groups.insert(group)
            defer { pending.queued = true }
            return !pending.queued
        }
        guard mustQueue else { return }
        BlockingWorkThread.sweeps.submit {
            let groups = pending.withLock { pending in
                defer {
                    pending.groups = []
                    pending.queued = false
                }
                return pending.groups
            }
            sweep(afterDeathOfGroups: groups)
        }
    }

    /// Kills and reaps the adopted descendants of the worker that led process group `group`
    /// (its pid), and any other escapee found. Blocks (waitid): never on the loop or the pool.
    package static func sweep(afterDeathOfGroup group: Int32) {
        sweep(afterDeathOfGroups: [group])
    }

    static func sweep(afterDeathOfGroups groups: Set<Int32>) {
        for _ in 0..<maximumRounds {
            let liveGroups = EventLoop.shared.liveProcessGroups()
            let found = adoptedChildren().filter { child in
                if groups.contains(child.processGroup) { return true }
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
