#ifndef CSCENEHOSTSYS_H
#define CSCENEHOSTSYS_H

#include <sys/types.h>
#include <signal.h>
// Re-exported: Swift's Glibc module does not cover epoll.
#include <sys/epoll.h>
#include <pthread.h>
#include <stdint.h>

/// pidfd_open(2): a file descriptor that becomes readable when `pid` exits. -1 and errno on failure.
int csh_pidfd_open(pid_t pid, unsigned int flags);

/// pidfd_send_signal(2): signal the process behind `pidfd` (no pid-reuse race). -1 and errno on failure.
int csh_pidfd_send_signal(int pidfd, int sig);

/// prctl(PR_SET_PDEATHSIG, sig): deliver `sig` to this process when its parent thread dies.
int csh_set_parent_death_signal(int sig);

/// Spawns `path` with `argv`/`envp` in its own process group, with an empty signal mask and
/// default signal dispositions, `stdin_fd`/`stdout_fd`/`stderr_fd` as fds 0/1/2 and every
/// other descriptor closed. Returns 0 and sets `*pid`, or an errno value. With
/// `batch_scheduling` non-zero the child runs under SCHED_BATCH (a hint: a system that
/// refuses it leaves the host's policy, and the spawn still succeeds). With
/// `cgroup_procs_fd` not -1 (a cgroup's `cgroup.procs`, open for writing) the child moves
/// itself into that cgroup before it execs (posix_spawn's child is moved right after).
///
/// The child shares the host's descriptor table and unshares only its low end, so a spawn
/// costs the same with 16,000 descriptors open as with 16 (Spawn.c says how); posix_spawn,
/// which copies the whole table into the child, is the fallback.
int csh_spawn(pid_t *pid, const char *path, char *const argv[], char *const envp[],
              int stdin_fd, int stdout_fd, int stderr_fd, int batch_scheduling, int cgroup_procs_fd);

/// 1: every later `csh_spawn` uses posix_spawn (for comparisons); 0: the default.
void csh_spawn_use_posix_spawn_only(int only);

/// 1 when `csh_spawn` takes the path that shares the descriptor table (reserving its low
/// descriptors if it has not yet), 0 when it uses posix_spawn.
int csh_spawn_shares_descriptor_table(void);

/// pipe2(fds, O_CLOEXEC) (Swift's Glibc module lacks pipe2). 0, or -1 and errno.
int csh_pipe_cloexec(int fds[2]);

/// fcntl(fd, F_GETPIPE_SZ): how many bytes the pipe behind `fd` holds. -1 and errno.
int csh_pipe_capacity(int fd);

/// ioctl(fd, FIONREAD): the bytes in the pipe behind `fd` (either end) not read yet. -1 and errno.
int csh_pipe_unread(int fd);

/// What `csh_waitid_pidfd` found.
enum {
    CSH_WAIT_RUNNING = 0,  ///< WNOHANG and the child has not exited yet.
    CSH_WAIT_EXITED = 1,   ///< `*value` is the exit status.
    CSH_WAIT_SIGNALED = 2, ///< `*value` is the terminating signal (core dumped or not).
};

/// waitid(P_PIDFD, pidfd, WEXITED | extra_options): reaps the child behind `pidfd`.
/// Returns 0 and sets `*kind` (a CSH_WAIT_* value) and `*value`, or an errno value.
int csh_waitid_pidfd(int pidfd, int extra_options, int *kind, int *value);

/// The calling process's environment (`environ`), for inheriting it in a child.
char *const *csh_environ(void);

/// Blocks every asynchronous signal in the calling thread, leaving the synchronous ones
/// (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGSYS, SIGABRT) deliverable so crashes still report.
/// Returns 0 or an errno value.
int csh_block_async_signals(void);

/// Names the calling thread (prctl PR_SET_NAME; the kernel keeps the first 15 bytes).
void csh_set_thread_name(const char *name);

/// Whether the child behind `pidfd` (pid `pid`) is stopped or has exited, now (no waiting,
/// nothing reaped): 1 or 0.
int csh_is_stopped(int pidfd, int pid);

/// eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK): the event loop's wake-up. -1 and errno on failure.
int csh_eventfd(void);

/// timerfd_create(CLOCK_BOOTTIME, TFD_CLOEXEC | TFD_NONBLOCK): the event loop's timer, on the
/// clock of its deadlines. -1 and errno on failure.
int csh_timerfd(void);

/// Arms timer descriptor `fd` to expire once at `nanoseconds` of CLOCK_BOOTTIME (absolute:
/// no clock read; a moment already past expires at once). 0, or the errno of a failure.
int csh_timerfd_arm(int fd, int64_t nanoseconds);

/// Starts a sentinel for the calling process (a worker that leads its own process group):
/// a child in the same group that holds no descriptor, blocks every signal and waits for
/// its parent's death (PR_SET_PDEATHSIG) or the SIGHUP the kernel sends an orphaned group with
/// stopped members; then it SIGKILLs the whole group, itself included. So a worker killed
/// because its host was SIGKILLed does not leave its children running.
/// The child shares the caller's memory (CLONE_VM, on its own stack, raw system calls only):
/// starting it copies no page tables, and the worker's memory is freed by the sentinel's
/// exit, after the host has seen the worker's death.
/// Returns 0, or an errno value: EPERM when the caller does not lead its process group (then
/// nothing is started), or the clone's error.
int csh_start_group_sentinel(void);

/// sched_setaffinity(tid, size, mask) and sched_getaffinity, which glibc declares only under
/// _GNU_SOURCE (Swift's Glibc module does not see them, and a static executable has no
/// dlsym). 0, or -1 and errno.
int csh_sched_setaffinity(int tid, size_t size, const void *mask);
int csh_sched_getaffinity(int tid, size_t size, void *mask);
/// sched_getcpu(): the CPU the caller runs on, or -1; gettid(): the caller's thread id. Both
/// declared by glibc only under _GNU_SOURCE.
int csh_sched_getcpu(void);
int csh_gettid(void);

/// Lets a worker's main thread, which waits for requests, run the work queued on its main
/// queue (`Task { @MainActor in … }`, `DispatchQueue.main.async`) between requests, as a run
/// loop would, with no thread or signal of its own: the main queue's wake-up is an eventfd
/// polled beside the requests' descriptor. `csh_main_queue_wake_start` (main thread, once,
/// before anything is queued): turns the main queue into a run-loop queue; 0, or an errno
/// value (then the work runs before each read, and work queued while the thread waits waits
/// for the next request). `csh_main_queue_run_pending`: runs the waiting work (1), or returns
/// 0 when none waits. `csh_main_queue_wait(fd, timeout_ms)`: blocks until `fd` is readable (bit 1)
/// or work is queued (bit 2), at most `timeout_ms` (-1: no limit; the run loop's next timer);
/// 0 after a signal or the timeout, -1 on an error.
int csh_main_queue_wake_start(void);
int csh_main_queue_run_pending(void);
/// Whether the main queue's eventfd is polled (1): without it, work may always be waiting.
int csh_main_queue_is_watched(void);
int csh_main_queue_wait(int fd, int timeout_ms);
/// Looks whether work waits on the main queue, without waiting: 0 when none does; 1 when
/// some may, or when there is no eventfd to look at. In a process that has only ever had its
/// one thread, and where `csh_main_queue_wake_start` found libdispatch's queue laid out as
/// expected, it reads the queue's tail (no system call) and leaves the eventfd's count for
/// `csh_main_queue_run_pending`. Otherwise it reads the eventfd, and a signal found is taken:
/// `csh_main_queue_wait` reports the work, without waiting, until
/// `csh_main_queue_run_pending` runs it.
int csh_main_queue_take_signal(void);
/// For tests of the taken signal: makes `fd` the main queue's eventfd (-1: none), with no
/// signal taken, and returns the one it replaces. libdispatch is not involved: a test
/// must not call `csh_main_queue_run_pending` after it.
int csh_main_queue_test_use_port(int fd);
/// Whether the calling process has only ever had its one thread (glibc's
/// `__libc_single_threaded`): nothing but that thread can queue work on its main queue. 0
/// when unknown.
int csh_only_thread(void);

/// Makes stdout line-buffered (a worker's `print` goes to stderr, a pipe, where it would be
/// block-buffered and lost when the worker is killed). 0, or setvbuf's error.
int csh_line_buffer_stdout(void);

/// malloc_trim(pad), from malloc.h, which the Glibc module does not include.
int csh_malloc_trim(size_t pad);

/// The host's lock, for Swift's `Locked`: a futex word (one atomic instruction to take and one
/// to release when uncontended), or under ThreadSanitizer a pthread mutex, which TSan sees.
/// It must not move once initialized.
struct csh_lock {
    union {
        pthread_mutex_t mutex;
        uint32_t word;
    } storage;
};
void csh_lock_init(struct csh_lock *lock);
void csh_lock_destroy(struct csh_lock *lock);
/// Blocks until the lock is free, then takes it. Not reentrant.
void csh_lock_acquire(struct csh_lock *lock);
void csh_lock_release(struct csh_lock *lock);

/// Flushes stdout: 0 when everything written to it arrived, else an errno (EIO when an
/// earlier write failed and stdio kept only its error flag). Swift cannot name C's `stdout`
/// under strict concurrency.
int csh_stdout_flush_error(void);

/// Under ThreadSanitizer, `__tsan_acquire(address)`: what follows happens after every
/// `__tsan_release(address)` before it. Nothing in a build without it.
void csh_tsan_acquire(const void *address);

/// Whether this build runs under ThreadSanitizer: the callers of `csh_tsan_acquire` skip
/// what they do only for it (finding the current task) in a build without it.
extern const _Bool csh_tsan_enabled;

#endif
