import Dispatch
import Glibc
import HostTools
import SceneHostTesting
import SceneModel
import Testing

@testable import HostProcess

/// When the event loop keeps a CPU to itself (`LoopCPUReservation`: pure, no loop, no clock),
/// and what a reservation does to the loop and to real workers. Serialized: the loop is
/// shared, and one test's reservation would move the other's workers.
@Suite(.serialized) struct LoopCPUReservationTests {
    @Test func twoSaturatedWindowsInARowReserveTheCPUTheLoopIsOn() {
        var reservation = LoopCPUReservation()
        #expect(reservation.windowEnded(busy: 0.9, cpu: 1, mayReserve: true) == nil, "one window is a burst")
        #expect(reservation.windowEnded(busy: 0.5, cpu: 1, mayReserve: true) == nil)
        #expect(reservation.windowEnded(busy: 0.9, cpu: 1, mayReserve: true) == nil, "a quiet window counts again")
        #expect(reservation.windowEnded(busy: 0.95, cpu: 0, mayReserve: true) == .reserve(cpu: 0))
        #expect(reservation.state == .reserved(cpu: 0, quietWindows: 0))
    }

    @Test func nothingIsReservedWhenTheLoopMayNot() {
        var reservation = LoopCPUReservation()
        for _ in 0..<10 {
            #expect(reservation.windowEnded(busy: 1, cpu: 0, mayReserve: false) == nil)
        }
        #expect(reservation.state == .shared(busyWindows: 0))
    }

    @Test func aSecondOfQuietWindowsGivesTheCPUBack() {
        var reservation = LoopCPUReservation()
        _ = reservation.windowEnded(busy: 1, cpu: 1, mayReserve: true)
        #expect(reservation.windowEnded(busy: 1, cpu: 1, mayReserve: true) == .reserve(cpu: 1))
        for _ in 1..<LoopCPUReservation.windowsToRelease {
            #expect(reservation.windowEnded(busy: 0.1, cpu: 0, mayReserve: false) == nil)
        }
        #expect(reservation.windowEnded(busy: 0.7, cpu: 1, mayReserve: true) == nil, "not quiet: counts again")
        for _ in 1..<LoopCPUReservation.windowsToRelease {
            #expect(reservation.windowEnded(busy: 0, cpu: 1, mayReserve: true) == nil)
        }
        #expect(reservation.windowEnded(busy: 0, cpu: 1, mayReserve: true) == .release)
        #expect(reservation.state == .shared(busyWindows: 0))
    }

    @Test func aMaskHoldsTheCPUsPutInIt() {
        var mask = CPUMask()
        #expect(mask.count == 0)
        for cpu: Int32 in [0, 65, -1, 5000] { mask.insert(cpu) }
        #expect(mask.count == 2)
        #expect(mask.contains(0) && mask.contains(65) && !mask.contains(1) && !mask.contains(-1))
        #expect(mask.removing(65) == CPUMask.only(0))
        #expect(CPUMask.ofThread(0).map(\.count) ?? 0 >= 1)
    }

    /// Reserved while allowed, the CPU is given back by the loop itself once it idles (a
    /// second of quiet windows), no `setCPUReservation(allowed: false)` asked: its windows go
    /// on while it sleeps, and the loop and the workers get their CPUs back.
    @Test(.enabled(if: (CPUMask.ofThread(0)?.count ?? 0) >= 2, "needs two CPUs"))
    func anIdleLoopGivesItsReservedCPUBack() async throws {
        let loop = EventLoop.shared
        await loop.setCPUReservation(allowed: true)
        try await withSceneHost(configuration: Self.tunedForThroughput()) { host in
            let scene = try host.scene("A")
            try await scene.connect()
            let pid = try #require(await scene.status().pid)
            // What the masks are whenever no reservation is held: read from the loop thread, it
            // could be a reservation's, which the suite's other hosts may hold right now.
            let hostMask = try #require(loop.hostCPUMask)
            let cpu = try #require((Int32(0)..<1024).first { hostMask.contains($0) })
            // Allowed, an idle loop may let go as soon as a second passes, which a loaded
            // sanitized run can take before this returns: that it reserved is what counts.
            #expect(await loop.reserveCPUForTesting(cpu))

            // The host is left idle: 20 quiet windows of 50 ms give the CPU back, in a second.
            // The loop is shared with the suite's other tests, whose hosts keep it busy: the
            // limit of an event allows for that (a sanitized suite runs many times as long).
            // Those hosts can also saturate the loop again, and it reserves anew: the masks count
            // only when read between two reservations.
            let deadline = ContinuousClock.now + TestLimit.event
            while true {
                try await lookedAt(
                    "an idle loop to give its CPU back",
                    within: TestLimit.event,
                    every: .milliseconds(20)
                ) {
                    loop.reservedLoopCPU == nil
                }
                let taken = loop.reservationsTaken.load(ordering: .sequentiallyConsistent)
                // A reservation taken since the look above, and maybe released already, would
                // not change `taken` later: looked at again, after it was read.
                guard loop.reservedLoopCPU == nil || ContinuousClock.now > deadline else { continue }
                await loop.cpuReservationSettled()
                let loopMask = CPUMask.ofThread(loop.loopThreadID)
                let workerMasks = CPUMask.threads(ofProcess: pid).map { ($0, CPUMask.ofThread($0)) }
                let undisturbed =
                    loop.reservedLoopCPU == nil
                    && loop.reservationsTaken.load(ordering: .sequentiallyConsistent) == taken
                guard undisturbed || ContinuousClock.now > deadline else { continue }
                #expect(undisturbed, "the loop kept reserving a CPU again")
                #expect(loopMask == hostMask)
                for (thread, mask) in workerMasks {
                    #expect(mask == hostMask, "thread \(thread)")
                }
                break
            }
        }
    }

    /// A mask a worker set itself (as `taskset` does) is its own: a reservation takes the
    /// loop's CPU only from threads that had it and another, and gives it back to those alone.
    @Test(.enabled(if: (CPUMask.ofThread(0)?.count ?? 0) >= 2, "needs two CPUs"))
    func aWorkersOwnMaskOutlivesAReservation() async throws {
        let loop = EventLoop.shared
        await loop.setCPUReservation(allowed: false)
        try await withSceneHost(configuration: Self.tunedForThroughput()) { host in
            let hostMask = try #require(loop.hostCPUMask)
            let cpus = (Int32(0)..<1024).filter { hostMask.contains($0) }
            let (cpu, other) = (cpus[0], cpus[1])
            // Pinned by itself away from the CPU to be reserved, pinned to it alone, and free.
            var pinned: [(pid: pid_t, mask: CPUMask)] = []
            for (name, own) in [("Elsewhere", CPUMask.only(other)), ("There", CPUMask.only(cpu))] {
                let scene = try host.scene(name)
                try await scene.connect()
                let pid = try #require(await scene.status().pid)
                for thread in CPUMask.threads(ofProcess: pid) { #expect(own.apply(toThread: thread)) }
                pinned.append((pid, own))
            }
            let free = try host.scene("Free")
            try await free.connect()
            let freePID = try #require(await free.status().pid)

            await loop.reserveCPUForTesting(cpu)
            for (pid, own) in pinned {
                for thread in CPUMask.threads(ofProcess: pid) { #expect(CPUMask.ofThread(thread) == own) }
            }
            for thread in CPUMask.threads(ofProcess: freePID) {
                #expect(CPUMask.ofThread(thread) == hostMask.removing(cpu))
            }

            await loop.setCPUReservation(allowed: false)
            for (pid, own) in pinned {
                for thread in CPUMask.threads(ofProcess: pid) {
                    #expect(CPUMask.ofThread(thread) == own, "a worker's own mask is given back as it was")
                }
            }
            for thread in CPUMask.threads(ofProcess: freePID) { #expect(CPUMask.ofThread(thread) == hostMask) }
        }
    }

    /// The loop pins itself to the reserved CPU; every thread of every worker keeps off it,
    /// a worker that connects meanwhile too; forbidding the reservation gives all of them
    /// their CPUs back before it returns.
    @Test(.enabled(if: (CPUMask.ofThread(0)?.count ?? 0) >= 2, "needs two CPUs"))
    func aReservedCPUIsTheLoopsAloneUntilItIsGivenBack() async throws {
        let loop = EventLoop.shared
        // No reservation of the loop's own may come and go meanwhile.
        await loop.setCPUReservation(allowed: false)
        try await withSceneHost(configuration: Self.tunedForThroughput()) { host in
            let before = try host.scene("A")
            try await before.connect()
            let hostMask = try #require(loop.hostCPUMask)
            let cpu = try #require((Int32(0)..<1024).first { hostMask.contains($0) })

            await loop.reserveCPUForTesting(cpu)
            #expect(loop.reservedLoopCPU == cpu)
            #expect(CPUMask.ofThread(loop.loopThreadID) == CPUMask.only(cpu))
            let during = try host.scene("B")
            try await during.connect()
            await loop.cpuReservationSettled()
            for scene in [before, during] {
                let pid = try #require(await scene.status().pid)
                let threads = CPUMask.threads(ofProcess: pid)
                #expect(!threads.isEmpty, "the worker's threads are listed")
                for thread in threads {
                    #expect(
                        CPUMask.ofThread(thread) == hostMask.removing(cpu),
                        "thread \(thread) of \(scene.identifier)"
                    )
                }
            }

            // A launcher that does not exec holds the real worker as its child: the whole tree
            // keeps off the CPU, and gets it back.
            let launched = try host.scene("C")
            try await launched.connect(worker: ["/bin/sh", "-c", "\"$0\" worker; true", TestWorker.hostctl])
            let launcher = try #require(await launched.status().pid)
            await loop.reserveCPUForTesting(cpu)
            let tree = try #require(ProcessTable.snapshot().members(ofTreeAt: launcher))
            #expect(tree.count >= 2, "the launcher and the worker it runs")
            for member in tree {
                for thread in CPUMask.threads(ofProcess: member) {
                    #expect(CPUMask.ofThread(thread) == hostMask.removing(cpu), "thread \(thread) of \(member)")
                }
            }

            await loop.setCPUReservation(allowed: false)
            #expect(loop.reservedLoopCPU == nil)
            for member in tree {
                for thread in CPUMask.threads(ofProcess: member) {
                    #expect(CPUMask.ofThread(thread) == hostMask, "thread \(thread) of \(member)")
                }
            }
            #expect(CPUMask.ofThread(loop.loopThreadID) == hostMask)
            for scene in [before, during] {
                let pid = try #require(await scene.status().pid)
                for thread in CPUMask.threads(ofProcess: pid) {
                    #expect(CPUMask.ofThread(thread) == hostMask)
                }
            }
        }
        await loop.setCPUReservation(allowed: true)
    }

    /// A new worker's pass, queued on the sweep thread while a CPU was reserved and run after
    /// the reservation ended, takes nothing back for itself: every worker gets the CPU back.
    /// (It gave the CPU back to the new worker's threads alone and forgot the reservation, and
    /// the other workers kept its mask for good: a flake under load, forced here by holding
    /// the sweep thread.)
    @Test(.enabled(if: (CPUMask.ofThread(0)?.count ?? 0) >= 2, "needs two CPUs"))
    func aNewWorkersLatePassLeavesTheGiveBackToEveryWorker() async throws {
        let loop = EventLoop.shared
        await loop.setCPUReservation(allowed: false)
        try await withSceneHost(configuration: Self.tunedForThroughput()) { host in
            let first = try host.scene("A")
            try await first.connect()
            let second = try host.scene("B")
            try await second.connect()
            let pids = [try #require(await first.status().pid), try #require(await second.status().pid)]
            let hostMask = try #require(loop.hostCPUMask)
            let cpu = try #require((Int32(0)..<1024).first { hostMask.contains($0) })
            #expect(await loop.reserveCPUForTesting(cpu))
            await loop.cpuReservationSettled()
            #expect(
                pids.flatMap(CPUMask.threads(ofProcess:)).allSatisfy { CPUMask.ofThread($0) == hostMask.removing(cpu) }
            )

            // B's pass waits behind a held sweep thread while the reservation ends.
            let gate = DispatchSemaphore(value: 0)
            var opened = false
            defer { if !opened { gate.signal() } }
            BlockingWorkThread.sweeps.submit { gate.wait() }
            let child = try #require(
                loop.watches.withLock { table in table.values.first { $0.child.pid == pids[1] }?.child }
            )
            loop.applyCPUReservation(toNewChild: child)
            let release = Task { await loop.setCPUReservation(allowed: false) }
            try await lookedAt("the reservation to end", within: TestLimit.event) { loop.reservedLoopCPU == nil }
            gate.signal()
            opened = true
            await release.value
            for pid in pids {
                for thread in CPUMask.threads(ofProcess: pid) {
                    #expect(CPUMask.ofThread(thread) == hostMask, "thread \(thread) of \(pid)")
                }
            }
        }
        await loop.setCPUReservation(allowed: true)
    }

    /// The tests' configuration tuned for throughput: workers follow a reservation only then.
    private static func tunedForThroughput() -> HostConfiguration {
        var configuration = TestWorker.configuration()
        configuration.tuning = .throughput
        return configuration
    }
}
