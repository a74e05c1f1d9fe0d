import HostTools
import SceneHostTesting
import SceneModel
import Testing

@testable import HostProcess

/// How the property tests run: each step list on a fresh host, each seed beside others.
extension PropertyTests {
    /// Runs `steps` on a fresh host, `check` carrying out and checking each (throwing the
    /// disagreement, the trace's verifier and how far it got passed along); the first
    /// disagreement, if any, the whole trace's after the quit included.
    static func runSteps(
        _ steps: [Step],
        _ check: (Step, SceneHost, inout TraceVerifier, inout Int) async throws -> Void
    ) async -> Failure? {
        let outcome: (host: SceneHost, failure: Failure?)
        do {
            // No check by the helper: a trace that breaks the model is this run's failure, below.
            outcome = try await withSceneHost(configuration: configuration, verifiesTrace: false) { host in
                var verifier = TraceVerifier()
                var verifiedCount = 0
                for (index, step) in steps.enumerated() {
                    do {
                        try await check(step, host, &verifier, &verifiedCount)
                    } catch let error as Failure {
                        return (host, Failure(step: index, message: error.message))
                    } catch {
                        return (host, Failure(step: index, message: "\(error)"))
                    }
                }
                return (host, nil)
            }
        } catch {
            return Failure(step: 0, message: "the host did not start: \(error)")
        }
        var failure = outcome.failure
        if failure == nil, let violation = outcome.host.verifyTrace() {
            failure = Failure(step: steps.count - 1, message: "the trace after quit breaks the model: \(violation)")
        }
        return failure
    }

    /// Runs `check` on each seed, `width` at a time (enough to overlap the waits, light on two
    /// cores); the failures' reports, sorted.
    static func failures(
        of seeds: [UInt64],
        width: Int,
        _ check: @escaping @Sendable (UInt64) async -> String?
    ) async
        -> [String]
    {
        await withTaskGroup(of: String?.self, returning: [String].self) { group in
            var pending = seeds[...]
            var failures: [String] = []
            for _ in 0..<width {
                guard let seed = pending.popFirst() else { break }
                group.addTask { await check(seed) }
            }
            for await failure in group {
                if let failure { failures.append(failure) }
                if let seed = pending.popFirst() { group.addTask { await check(seed) } }
            }
            return failures.sorted()
        }
    }

    /// Asks the host for `op` and checks that it accepted it exactly when the oracle calls it
    /// `legal` (`oracle` says in what state, when it disagrees).
    static func perform(_ op: SceneOperation, on handle: SceneHandle, legal: Bool, in oracle: SpecOracle) async throws {
        var refusal: String?
        do {
            try await handle.perform(op)
        } catch HostError.refused(_, _, let reason) {
            refusal = reason
        } catch {
            throw Failure(step: 0, message: "the host failed: \(error)")
        }
        guard legal == (refusal == nil) else {
            throw Failure(
                step: 0,
                message: "the oracle says \(op.name) is \(legal ? "legal" : "illegal") in \(oracle.summary), "
                    + "but the host \(refusal.map { "refused it: \($0)" } ?? "accepted it")"
            )
        }
    }
}
