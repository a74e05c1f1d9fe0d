import Glibc
import HostBench
import Testing

/// Unpinned round trips are compared within one draw of the kernel's (host and child on one
/// CPU, or on two): the draw every series met most.
@Suite struct BenchPlacementTests {
    private func samples(_ count: Int) -> Samples { Samples(Array(repeating: 1, count: count)) }

    @Test func theDrawEverySeriesMetMostIsCompared() {
        // One CPU: the echo met it in 100 round trips, the transition in 50; two CPUs: 400 and
        // 150. Two CPUs is the draw both met most.
        let echo: [BenchPlacement: Samples] = [.sameCPU: samples(100), .splitCPUs: samples(400)]
        let transition: [BenchPlacement: Samples] = [.sameCPU: samples(50), .splitCPUs: samples(150)]
        #expect(BenchPlacement.mostMet(by: [echo, transition]) == .splitCPUs)
        // The fewest any series has decides, not the most one has.
        let lopsided: [BenchPlacement: Samples] = [.sameCPU: samples(60), .splitCPUs: samples(10)]
        #expect(BenchPlacement.mostMet(by: [echo, lopsided]) == .sameCPU)
    }

    @Test func aDrawMetTooLittleIsNotComparedOn() {
        let echo: [BenchPlacement: Samples] = [.sameCPU: samples(300), .splitCPUs: samples(20)]
        let transition: [BenchPlacement: Samples] = [.sameCPU: samples(20), .splitCPUs: samples(300)]
        #expect(BenchPlacement.mostMet(by: [echo, transition], atLeast: 21) == nil)
        #expect(BenchPlacement.mostMet(by: [echo, transition], atLeast: 20) != nil)
    }

    /// The CPU is field 39, counted after the command name's last `)`: a name may hold spaces
    /// and parentheses.
    @Test func theLastCPUIsReadPastTheCommandName() {
        let fields = (3...52).map { $0 == 39 ? "1" : "0" }.joined(separator: " ")
        #expect(BenchPlacement.lastCPU(inStat: "42 (a) b (c) d) R " + fields.dropFirst(2)) == 1)
        #expect(BenchPlacement.lastCPU(inStat: "42 (hostctl) S 1 2 3") == nil)
        #expect(BenchPlacement.lastCPU(inStat: "no command name") == nil)
    }

    @Test func noDrawIsComparedWhenOneSeriesNeverMetEither() {
        let echo: [BenchPlacement: Samples] = [.sameCPU: samples(300)]
        let transition: [BenchPlacement: Samples] = [.splitCPUs: samples(300)]
        #expect(BenchPlacement.mostMet(by: [echo, transition]) == nil)
        #expect(BenchPlacement.mostMet(by: [echo, [:]]) == nil)
        #expect(BenchPlacement.mostMet(by: [echo]) == .sameCPU)
    }

    @Test func aRoundKeepsOnlyTheLatenciesOfTheDraw() throws {
        let round = RoundTripCost(
            latencies: Samples([1, 2, 30, 40]),
            hostCPU: 5,
            childCPU: 4,
            draws: [.sameCPU: Samples([1, 2]), .splitCPUs: Samples([30, 40])]
        )
        let kept = try #require(round.keeping(.splitCPUs))
        #expect(kept.latencies.values == [30, 40])
        #expect(kept.hostCPU == 5 && kept.childCPU == 4)
        #expect(RoundTripCost(latencies: Samples([1]), hostCPU: nil, childCPU: nil).keeping(.sameCPU) == nil)
    }

    @Test func aPinnedLogFilesNothing() {
        var log = DrawLog(child: getpid(), placement: .sameCPU)
        log.add(samples(DrawLog.batch))
        #expect(log.draws.isEmpty)
    }

    @Test func aBatchIsFiledOnlyWhenTheDrawHeldThroughout() {
        var log = DrawLog(drawBefore: .sameCPU)
        log.add(Samples([1, 2]), drawAfter: .sameCPU)  // one CPU before and after: filed
        log.add(Samples([3, 4]), drawAfter: .splitCPUs)  // moved to two CPUs meanwhile: left out
        log.add(Samples([5, 6]), drawAfter: .splitCPUs)  // two CPUs throughout: filed
        log.add(Samples([7, 8]), drawAfter: nil)  // no reading: left out
        log.add(Samples([9]), drawAfter: .splitCPUs)  // nothing known before it: left out
        #expect(log.draws[.sameCPU]?.values == [1, 2])
        #expect(log.draws[.splitCPUs]?.values == [5, 6])
    }
}
