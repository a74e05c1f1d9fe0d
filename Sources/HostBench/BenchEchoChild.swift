import CSceneHostSys
import Glibc
import HostProcess

/// A `hostctl bench-echo` child on two plain pipes, spawned without the host: what the floors
/// that bypass the event loop drive with their own system calls.
package struct BenchEchoChild {
    package let pid: pid_t
    /// The write end of the child's stdin.
    package private(set) var input: Int32
    /// The read end of the child's stdout.
    package let output: Int32

    /// Spawns `executable bench-echo`, or nil when a pipe or the spawn fails.
    package static func spawn(executable: String) -> BenchEchoChild? {
        // A child that died must fail a write (EPIPE), not kill the bench.
        HostSignals.ignoreWriteSignals()
        var toChild: [Int32] = [-1, -1]
        var fromChild: [Int32] = [-1, -1]
        guard csh_pipe_cloexec(&toChild) == 0 else { return nil }
        guard csh_pipe_cloexec(&fromChild) == 0 else {
            close(toChild[0])
            close(toChild[1])
            return nil
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toChild[0], 0)
        posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1)
        // Default dispositions and an empty mask, as the host spawns its workers: an ignored
        // SIGPIPE (ours) would otherwise be inherited across exec.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var all = sigset_t()
        sigfillset(&all)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        var pid: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup(executable), strdup("bench-echo"), nil]
        let environment: [UnsafeMutablePointer<CChar>?] = [nil]
        let rc = posix_spawn(&pid, executable, &actions, &attributes, argv, environment)
        for pointer in argv { free(pointer) }
        close(toChild[0])
        close(fromChild[1])
        guard rc == 0 else {
            close(toChild[1])
            close(fromChild[0])
            return nil
        }
        return BenchEchoChild(pid: pid, input: toChild[1], output: fromChild[0])
    }

    /// Writes all of `bytes` to the child's stdin; false on an error.
    package func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
        BlockingWrite.all(bytes, to: input) == nil
    }

    /// Closes stdin (the echo exits at EOF), reaps the child and closes its stdout.
    package mutating func finish() {
        if input >= 0 {
            close(input)
            input = -1
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        close(output)
    }
}
