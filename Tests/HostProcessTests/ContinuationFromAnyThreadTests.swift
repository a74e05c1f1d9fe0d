import HostTools
import SceneModel
import Testing

@testable import HostProcess

/// Only ThreadSanitizer can fail these (CI runs the suite under it): with the standard
/// library's functions in place of the `…FromAnyThread` ones, the first test is reported as a
/// race in every run (`use`'s writes against `resume`'s reads of the same task memory).
@Suite struct ContinuationFromAnyThreadTests {
    /// Writes to fresh task-allocator memory, where the awaited continuation lived.
    @inline(never) private func use(_ value: Int) async -> Int {
        var values = [Int](repeating: value, count: 4)
        values[1] = value &+ 1
        await Task.yield()
        return values[1]
    }

    @Test func aThreadMayResumeBeforeTheAwait() async {
        let thread = BlockingWorkThread(name: "resume-first")
        var sum = 0
        for round in 0..<20_000 {
            await withUnsafeContinuationFromAnyThread { (continuation: UnsafeContinuation<Void, Never>) in
                thread.submit { continuation.resume() }
            }
            sum &+= await use(round)
        }
        #expect(sum == (1...20_000).reduce(0, &+))
    }

    @Test func everyVariantHandsOverItsValueOrError() async throws {
        let thread = BlockingWorkThread(name: "resume-variants")
        struct Failure: Error {}
        let checked = await withCheckedContinuationFromAnyThread { (continuation: CheckedContinuation<Int, Never>) in
            thread.submit { continuation.resume(returning: 1) }
        }
        let unsafe = await withUnsafeContinuationFromAnyThread { (continuation: UnsafeContinuation<Int, Never>) in
            thread.submit { continuation.resume(returning: 2) }
        }
        #expect([checked, unsafe] == [1, 2])
        await #expect(throws: Failure.self) {
            try await withCheckedThrowingContinuationFromAnyThread {
                (continuation: CheckedContinuation<Int, any Error>) in
                thread.submit { continuation.resume(throwing: Failure()) }
            }
        }
        await #expect(throws: Failure.self) {
            try await withUnsafeThrowingContinuationFromAnyThread {
                (continuation: UnsafeContinuation<Int, any Error>) in
                thread.submit { continuation.resume(throwing: Failure()) }
            }
        }
    }
}
