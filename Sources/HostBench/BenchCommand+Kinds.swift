import HostProcess

/// `kinds`: the report rows of the view-controller transitions (`BenchHost.navigationKinds`).
extension BenchCommand {
    /// The `kinds` rows in one placement (nil: unpinned), named with the placement as a suffix
    /// (`kinds.swipe-back.same-cpu`); each is compared with the push pair of the same placement.
    static func kinds(placement: BenchPlacement?, counts: Counts, into report: inout BenchReport) async throws {
        let (results, unpinnedNote, comparable) = try await BenchHost.navigationKinds(
            placement: placement,
            warmup: counts.kindsWarmup,
            count: counts.kinds
        )
        guard let push = results.first else { return }
        let suffix = placement.map { ".\($0.rawValue)" } ?? ""
        let where_ = placement.map { "; host pinned to CPU 0, worker to CPU \($0.childCPU)" } ?? unpinnedNote
        for result in results {
            let kind = result.kind
            let floor = kind.floor.flatMap { name in results.first { $0.kind.name == name } } ?? push
            let isPush = result.kind.name == push.kind.name
            var row =
                isPush
                ? BenchRow(kind.name + suffix, result.samples, note: kind.note + " (two requests)" + where_)
                : BenchRow(
                    kind.name + suffix,
                    result.samples,
                    floor: floor.samples.median,
                    floorName: floor.kind.name + suffix,
                    // Not slower than a push, within the run's noise (a floor on the other
                    // worker, when the two can be compared).
                    target: comparable || kind.floor == nil ? .ratioAtMost(1.1) : nil,
                    note: kind.note + " (two requests), against "
                        + (kind.floor == nil ? "a push and its pop" : floor.kind.note) + where_
                )
            // CPU per pair, host and worker: whose work a kind adds.
            if let hostCPU = result.hostCPU, let workerCPU = result.workerCPU {
                addCPU(
                    [("hostCPUUs", "host", hostCPU), ("workerCPUUs", "worker", workerCPU)],
                    to: &row,
                    lead: "; CPU per pair: "
                )
            }
            report.add(row)
        }
    }
}
