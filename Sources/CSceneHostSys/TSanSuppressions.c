// ThreadSanitizer suppressions compiled into every binary that links this target (hostctl,
// its workers, the test bundles). The TSan runtime asks for them at startup through this
// weak hook; without TSan nothing ever calls it.
//
// Why: on Linux, Swift's Synchronization.Mutex (Swift 6.3) locks with futexes and atomics
// that TSan does not see, so every access made inside `Mutex.withLock` looks unsynchronized
// to it and is reported as a race (a two-task program appending to a Mutex<[Int]> is enough
// to show it). The pattern below is the mangling of the closure `withLock` takes
// (`(inout sending Value) throws(E) -> sending Result`): a report is suppressed when one of
// its two accesses happened inside such a closure. Races between accesses outside any lock
// (actors, unsafe pointers, @unchecked Sendable state) are still reported.
//
// Remove this when Mutex is visible to TSan (or the host's locks are, e.g. pthread-based).
const char *__tsan_default_suppressions(void) {
    return "race:zYuYTXE\n";
}
