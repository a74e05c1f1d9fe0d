import CSceneHostSys
import Glibc
import Testing

/// The signal a single-threaded worker takes from its main queue's eventfd before it reads a
/// request (docs/ARCHITECTURE.md, "The worker's main queue between requests"): once taken,
/// the eventfd is empty, and libdispatch does not signal it again while its queue holds
/// work, so the worker's next wait must report that work itself, without waiting, until the
/// work runs. Here with an eventfd and a pipe of the test's own standing in for libdispatch's
/// and for stdin: the race of a real worker (a request arriving between the look and the
/// wait) cannot be timed from outside.
@Suite(.serialized) struct MainQueueSignalTests {
    /// An eventfd and a pipe, given to the wait for the test's length; the wait's own state
    /// is put back after it.
    private struct Fixture: ~Copyable {
        let eventFD: Int32
        let pipeRead: Int32
        let pipeWrite: Int32
        let previousPort: Int32

        init() throws {
            // Non-blocking, as libdispatch's is.
            let eventFD = csh_eventfd()
            var ends: [Int32] = [-1, -1]
            let piped = csh_pipe_cloexec(&ends)
            guard eventFD >= 0, piped == 0 else {
                for fd in [eventFD] + ends where fd >= 0 { close(fd) }
                throw Failure(errno: errno)
            }
            self.eventFD = eventFD
            pipeRead = ends[0]
            pipeWrite = ends[1]
            previousPort = csh_main_queue_test_use_port(eventFD)
        }

        struct Failure: Error {
            let errno: Int32
        }

        deinit {
            _ = csh_main_queue_test_use_port(previousPort)
            close(eventFD)
            close(pipeRead)
            close(pipeWrite)
        }

        /// Work queued on the main queue, as libdispatch signals it.
        func queueWork() {
            var one: UInt64 = 1
            #expect(write(eventFD, &one, 8) == 8)
        }

        /// A request arrives on "stdin".
        func sendRequest() {
            #expect(write(pipeWrite, "x", 1) == 1)
        }

        func readRequest() {
            var byte: UInt8 = 0
            #expect(read(pipeRead, &byte, 1) == 1)
        }
    }

    /// What `csh_main_queue_wait` reports: bit 1, a request; bit 2, main-queue work.
    private static let request: Int32 = 1
    private static let work: Int32 = 2
    /// A wait that would block: long enough to fail the test plainly, short enough that it
    /// fails in seconds.
    private static let blockingWaitMilliseconds: Int32 = 5000

    @Test func aTakenSignalIsReportedByEveryWaitUntilItsWorkRuns() throws {
        let fixture = try Fixture()
        #expect(csh_main_queue_take_signal() == 0, "nothing is queued yet")

        // The worker looks before it reads, and takes the signal of work queued meanwhile.
        fixture.queueWork()
        #expect(csh_main_queue_take_signal() == 1)
        #expect(csh_main_queue_take_signal() == 1, "taken, and not run: still reported")

        // A request already in the pipe is read first; the next wait, in poll, finds the
        // eventfd empty. It must still report the work, beside the request.
        fixture.sendRequest()
        #expect(csh_main_queue_wait(fixture.pipeRead, Self.blockingWaitMilliseconds) == Self.request | Self.work)
        fixture.readRequest()
        // Nothing to read, nothing signalled: the work is reported at once, not waited for.
        #expect(csh_main_queue_wait(fixture.pipeRead, Self.blockingWaitMilliseconds) == Self.work)
    }

    @Test func aWaitWithNoSignalTakenWaitsForTheEventfdOrARequest() throws {
        let fixture = try Fixture()
        // Nothing queued, nothing taken: nothing is ready (a wait of no length: nothing comes).
        #expect(csh_main_queue_wait(fixture.pipeRead, 0) == 0)
        fixture.sendRequest()
        #expect(csh_main_queue_wait(fixture.pipeRead, Self.blockingWaitMilliseconds) == Self.request)
        fixture.readRequest()
        fixture.queueWork()
        #expect(csh_main_queue_wait(fixture.pipeRead, Self.blockingWaitMilliseconds) == Self.work)
    }
}
