import CSceneHostSys
import Glibc
import HostProcess

/// `throughput-floor.N`: the floor under `throughput.N`. The same number of `bench-echo`
/// children, each sent `echoLine` again as soon as its echo is back, by one thread with its
/// own epoll set: the pipe writes, wake-ups and reads a transition cannot avoid, with no host,
/// no protocol and no scene on top. On this kind of machine each write that wakes a sleeping
/// child costs about 4 µs, which is what bounds both rows. Like the host's loop, the driver
/// polls briefly before it sleeps.
package enum BenchThroughputFloor {
    /// Round trips per second over `rounds` rounds of `perChild` round trips by each of
    /// `children` children, or nil when a child cannot be spawned or driven.
    package static func rate(executable: String, children: Int, rounds: Int, perChild: Int) async -> Samples? {
        await BenchThread.run {
            rateOnCurrentThread(executable: executable, children: children, rounds: rounds, perChild: perChild)
        }
    }

    private static func rateOnCurrentThread(
        executable: String,
        children count: Int,
        rounds: Int,
        perChild: Int
    )
        -> Samples?
    {
        let epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard epoll >= 0 else { return nil }
        defer { close(epoll) }
        var children: [BenchEchoChild] = []
        defer { for index in children.indices { children[index].finish() } }
        for index in 0..<count {
            guard let child = BenchEchoChild.spawn(executable: executable) else { return nil }
            children.append(child)
            var event = epoll_event()
            event.events = EPOLLIN.rawValue
            event.data.u64 = UInt64(index)
            guard epoll_ctl(epoll, EPOLL_CTL_ADD, child.output, &event) == 0 else { return nil }
        }
        // One untimed round, as `throughput.N` warms its scenes up.
        guard drive(children, epoll: epoll, perChild: 2) else { return nil }
        var rates = Samples()
        for _ in 0..<rounds {
            let start = BenchClock.now()
            guard drive(children, epoll: epoll, perChild: perChild) else { return nil }
            let seconds = Double(BenchClock.now() - start) / 1e9
            rates.append(Double(count * perChild) / seconds)
        }
        return rates
    }

    /// Polls as the host's loop does (`LoopSpin`'s window, as a host tuned for throughput), then
    /// sleeps: a floor that slept at once would pay a wake-up per echo that the host does not.
    private static func wait(_ epoll: Int32, into events: UnsafeMutableBufferPointer<epoll_event>) -> Int32 {
        let deadline = BenchClock.now() + UInt64(window)
        repeat {
            let ready = epoll_wait(epoll, events.baseAddress, Int32(events.count), 0)
            if ready != 0 { return ready }
        } while BenchClock.now() < deadline
        return epoll_wait(epoll, events.baseAddress, Int32(events.count), -1)
    }

    /// The host loop's poll window, in nanoseconds.
    private static let window = LoopSpin.defaultWindow

    /// Every child echoes `perChild` lines, each sent when the previous one is back.
    private static func drive(_ children: [BenchEchoChild], epoll: Int32, perChild: Int) -> Bool {
        let line = BenchFloors.echoLine
        var received = [Int](repeating: 0, count: children.count)
        var remaining = [Int](repeating: perChild, count: children.count)
        var unfinished = children.count
        var events = [epoll_event](repeating: epoll_event(), count: 64)
        var buffer = [UInt8](repeating: 0, count: 4096)
        for child in children {
            guard line.withUnsafeBytes({ child.write($0) }) else { return false }
        }
        while unfinished > 0 {
            let ready = events.withUnsafeMutableBufferPointer { wait(epoll, into: $0) }
            if ready < 0 {
                if errno == EINTR { continue }
                return false
            }
            for event in events.prefix(Int(ready)) {
                let index = Int(event.data.u64)
                let child = children[index]
                let n = buffer.withUnsafeMutableBytes { read(child.output, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { return false }
                received[index] += n
                guard received[index] >= line.count else { continue }
                received[index] -= line.count
                remaining[index] -= 1
                if remaining[index] == 0 {
                    unfinished -= 1
                } else {
                    guard line.withUnsafeBytes({ child.write($0) }) else { return false }
                }
            }
        }
        return true
    }
}
