import HostProcess
import Protocol

/// Feeds the stress audit as the run goes, so that neither the host nor the run holds the
/// whole trace: after each round (every request of it answered) the round's requests, then
/// the events recorded since the last round, read from the host's history in batches. The
/// host keeps only its newest events (`traceHistoryLimitBytes`): events it dropped before
/// the audit read them are a violation, never a silent gap.
package final class AuditFeed: Sendable {
    private let audit: Locked<StressAudit>
    private let trace: TraceRecorder
    private let limit: Int?

    /// How much of the history one read copies out.
    package static let batchBytes = 1 << 20

    package init(_ audit: sending StressAudit, trace: TraceRecorder, limit: Int?) {
        self.audit = Locked(audit)
        self.trace = trace
        self.limit = limit
    }

    /// Adds the requests with ids below `end` not added yet (all answered, or never to be),
    /// feeds every event recorded so far, then checks the status changes the clients saw.
    package func catchUp(requestsBefore end: Int, table: RequestTable, action: (Int) -> StressAction) {
        audit.withLock { audit in
            let first = audit.requestCount
            if end > first {
                let entries = table.entries(first..<end)
                audit.add(
                    requests: entries.indices.map { index in
                        guard case .request(_, let scene, let op) = action(first + index) else { return nil }
                        let entry = entries[index]
                        return StressAudit.Request(
                            scene: StressPlan.sceneName(scene),
                            op: op,
                            outcome: entry.outcome,
                            sent: entry.sent,
                            completed: entry.completed
                        )
                    }
                )
            }
            while true {
                let batch = trace.heldEvents(fromSeq: audit.nextSeq, maximumBytes: Self.batchBytes)
                guard let head = batch.first, let last = batch.last, last.seq >= audit.nextSeq else { break }
                if head.seq > audit.nextSeq {
                    audit.log.record(
                        "the host's trace history (limit \(limit.map { "\($0) bytes" } ?? "none")) dropped events"
                            + " \(audit.nextSeq)...\(head.seq - 1) before the audit read them"
                    )
                    audit.skipLostEvents(before: head.seq)
                }
                for event in batch where event.seq >= audit.nextSeq { audit.feed(event) }
            }
            // Every event up to the last status read is fed now.
            audit.check(statusChanges: table.takeStatusChanges())
        }
    }

    /// The end of the run: the checks over all of it; the audit with its figures.
    package func finish(statusChanges: [StressAudit.StatusChange]) -> StressAudit {
        audit.withLock { audit in
            audit.finish(statusChanges: statusChanges)
            return audit
        }
    }
}
