import CSceneHostSys

// The `with…Continuation` functions, for a continuation that a thread of the host's (the
// event loop, a blocking-work thread) resumes, possibly before the task has reached its
// `await`. They differ from the standard library's only under ThreadSanitizer.
//
// Why: the Swift runtime tells ThreadSanitizer that a `resume` happens before the task runs
// again (a release on the task in `resume`, an acquire when the task's job runs), except when
// the `resume` came first. Then `swift_continuation_await` goes on at once, with no acquire
// (Swift 6.3), and TSan took the resuming thread's last reads of the continuation and the
// task's next use of the same task-allocator memory for a race (PrewarmedWorkerTests, once in
// about twenty runs of the suite). After the await, these make the acquire the runtime left
// out, on the address it released.
//
// Limits: the acquire comes after the await has taken the value out of the continuation. In
// the debug builds CI sanitizes, a generic value moves through the runtime's value witnesses,
// which TSan does not see; an optimized TSan build could still report a non-Void value's
// handover. And it relies on `resume` releasing on the task whatever the task was doing (as
// Swift 6.3's runtime does).

/// `withCheckedContinuation`, for a continuation any thread may resume, even before the await.
/// It runs where its caller runs (`nonisolated(nonsending)`), as the standard library's
/// `isolation: #isolation` does, with one executor switch fewer per await.
@inline(__always)
package nonisolated(nonsending) func withCheckedContinuationFromAnyThread<T>(
    function: String = #function,
    _ body: (CheckedContinuation<T, Never>) -> Void
) async -> sending T {
    defer { acquireResumption() }
    return await withCheckedContinuation(function: function, body)
}

/// `withCheckedThrowingContinuation`, for a continuation any thread may resume, even before
/// the await.
@inline(__always)
package nonisolated(nonsending) func withCheckedThrowingContinuationFromAnyThread<T>(
    function: String = #function,
    _ body: (CheckedContinuation<T, any Error>) -> Void
) async throws -> sending T {
    defer { acquireResumption() }
    return try await withCheckedThrowingContinuation(function: function, body)
}

/// `withUnsafeContinuation`, for a continuation any thread may resume, even before the await.
@inline(__always)
package nonisolated(nonsending) func withUnsafeContinuationFromAnyThread<T>(
    _ body: (UnsafeContinuation<T, Never>) -> Void
) async -> sending T {
    defer { acquireResumption() }
    return await withUnsafeContinuation(body)
}

/// `withUnsafeThrowingContinuation`, for a continuation any thread may resume, even before
/// the await.
@inline(__always)
package nonisolated(nonsending) func withUnsafeThrowingContinuationFromAnyThread<T>(
    _ body: (UnsafeContinuation<T, any Error>) -> Void
) async throws -> sending T {
    defer { acquireResumption() }
    return try await withUnsafeThrowingContinuation(body)
}

/// The acquire `swift_continuation_await` leaves out when the continuation was resumed
/// already: on the current task, the address `resume` released.
@inline(__always)
private func acquireResumption() {
    // Finding the current task costs a retain and a release on every await: only for TSan.
    guard csh_tsan_enabled else { return }
    withUnsafeCurrentTask { task in
        guard let task else { return }
        csh_tsan_acquire(unsafeBitCast(task, to: UnsafeRawPointer.self))
    }
}
