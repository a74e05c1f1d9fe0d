import SceneModel

/// Which scenes requests are using right now, so that a scene a request named but that
/// never became anything is forgotten again (`SceneHost.forgetIfUnused`).
///
/// Without it every name a client sent created a scene for good: 300,000 refused `pop`s on
/// new names held 1.13 GiB and made the `ps` reply too large to send. A scene is forgotten
/// only when no request uses it, none has started using it since it was last checked,
/// and it holds nothing: no worker, no session, not discarded.
///
/// Lock order: this lock, then the host's scene table.
package final class SceneUsage: Sendable {
    private struct Usage {
        package var users = 0
        /// Counts every `acquire`: a check whose count moved on is stale.
        package var acquisitions = 0
        /// Handed out as a `SceneHandle` (the library API, scenarios): never forgotten.
        package var pinned = false
    }

    private let state = Locked<[String: Usage]>([:])

    /// Runs `lookUp` (which finds or creates the scene's controller) counted as one more
    /// user of `scene`, atomically with respect to `forget`.
    package func acquire<Result>(
        _ scene: String,
        pinned: Bool,
        _ lookUp: () throws(HostError) -> Result
    ) throws(HostError)
        -> Result
    {
        try state.withLock { (usages: inout [String: Usage]) throws(HostError) -> Result in
            let result = try lookUp()
            var usage = usages[scene] ?? Usage()
            if pinned {
                usage.pinned = true
            } else {
                usage.users += 1
            }
            usage.acquisitions += 1
            usages[scene] = usage
            return result
        }
    }

    /// One user of `scene` is done. When it was the last one (and the scene is not pinned),
    /// returns the acquisition count to hand to `forget` after checking the scene.
    package func release(_ scene: String) -> Int? {
        state.withLock { usages in
            guard var usage = usages[scene] else { return nil }
            usage.users -= 1
            usages[scene] = usage
            return usage.users == 0 && !usage.pinned ? usage.acquisitions : nil
        }
    }

    /// Forgets `scene`'s usage, pinned or not: the host dropped the scene on purpose
    /// (`SceneHost.forgetEndedScene`).
    package func drop(_ scene: String) {
        state.withLock { _ = $0.removeValue(forKey: scene) }
    }

    /// Runs `remove` (which takes the scene out of the host) if nobody has used `scene`
    /// since `release` returned `acquisitions`.
    @discardableResult
    package func forget(_ scene: String, ifUnusedSince acquisitions: Int, _ remove: () -> Void) -> Bool {
        state.withLock { usages in
            guard let usage = usages[scene], usage.users == 0, !usage.pinned, usage.acquisitions == acquisitions
            else { return false }
            usages[scene] = nil
            remove()
            return true
        }
    }
}
