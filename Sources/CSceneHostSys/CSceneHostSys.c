#define _GNU_SOURCE
#include "CSceneHostSys.h"

#include <errno.h>
#include <malloc.h>
#include <sched.h>
#include <signal.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef P_PIDFD
#define P_PIDFD 3
#endif
#ifndef SYS_pidfd_send_signal
#define SYS_pidfd_send_signal 424
#endif

int csh_pidfd_open(pid_t pid, unsigned int flags) {
    return (int)syscall(SYS_pidfd_open, pid, flags);
}

int csh_pidfd_send_signal(int pidfd, int sig) {
    return (int)syscall(SYS_pidfd_send_signal, pidfd, sig, NULL, 0);
}

int csh_set_parent_death_signal(int sig) {
    return prctl(PR_SET_PDEATHSIG, (unsigned long)sig, 0, 0, 0);
}

int csh_spawn(pid_t *pid, const char *path, char *const argv[], char *const envp[],
              int stdin_fd, int stdout_fd, int stderr_fd) {
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attributes;
    int rc = posix_spawn_file_actions_init(&actions);
    if (rc != 0) return rc;
    rc = posix_spawnattr_init(&attributes);
    if (rc != 0) {
        posix_spawn_file_actions_destroy(&actions);
        return rc;
    }

    // dup2 clears close-on-exec on the targets; the pipes themselves are O_CLOEXEC.
    if (rc == 0) rc = posix_spawn_file_actions_adddup2(&actions, stdin_fd, 0);
    if (rc == 0) rc = posix_spawn_file_actions_adddup2(&actions, stdout_fd, 1);
    if (rc == 0) rc = posix_spawn_file_actions_adddup2(&actions, stderr_fd, 2);
    // Belt and braces for descriptors opened without O_CLOEXEC by other code in the host.
    if (rc == 0) rc = posix_spawn_file_actions_addclosefrom_np(&actions, 3);

    sigset_t empty;
    sigemptyset(&empty);
    // Every signal, including glibc's internal SIGCANCEL/SIGSETXID (32, 33) which sigfillset
    // leaves out: posix_spawn would otherwise set those to SIG_IGN in the child (they have
    // handlers in the host), and an ignored disposition survives exec.
    sigset_t all;
    memset(&all, 0xff, sizeof all);
    if (rc == 0) rc = posix_spawnattr_setsigmask(&attributes, &empty);
    if (rc == 0) rc = posix_spawnattr_setsigdefault(&attributes, &all);
    if (rc == 0) rc = posix_spawnattr_setpgroup(&attributes, 0);
    if (rc == 0) {
        rc = posix_spawnattr_setflags(&attributes,
            POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_USEVFORK);
    }
    if (rc == 0) rc = posix_spawn(pid, path, &actions, &attributes, argv, envp);

    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    return rc;
}

int csh_pipe_cloexec(int fds[2]) {
    return pipe2(fds, O_CLOEXEC);
}

int csh_waitid_pidfd(int pidfd, int extra_options, int *kind, int *value) {
    siginfo_t info;
    // With WNOHANG, si_pid stays 0 when nothing was reaped; waitid does not promise to clear it.
    memset(&info, 0, sizeof info);
    int rc;
    do {
        rc = waitid((idtype_t)P_PIDFD, (id_t)pidfd, &info, WEXITED | extra_options);
    } while (rc != 0 && errno == EINTR);
    if (rc != 0) return errno;
    if (info.si_pid == 0) {
        *kind = CSH_WAIT_RUNNING;
        *value = 0;
    } else if (info.si_code == CLD_EXITED) {
        *kind = CSH_WAIT_EXITED;
        *value = info.si_status;
    } else {
        *kind = CSH_WAIT_SIGNALED;
        *value = info.si_status;
    }
    return 0;
}

extern char **environ;

char *const *csh_environ(void) {
    return environ;
}

int csh_block_async_signals(void) {
    sigset_t set;
    sigfillset(&set);
    sigdelset(&set, SIGSEGV);
    sigdelset(&set, SIGBUS);
    sigdelset(&set, SIGFPE);
    sigdelset(&set, SIGILL);
    sigdelset(&set, SIGTRAP);
    sigdelset(&set, SIGSYS);
    sigdelset(&set, SIGABRT);
    return pthread_sigmask(SIG_SETMASK, &set, NULL);
}

void csh_set_thread_name(const char *name) {
    (void)prctl(PR_SET_NAME, (unsigned long)name, 0, 0, 0);
}

int csh_is_stopped(int pidfd, int pid) {
    /* The kernel's stop notification can be gone (a SIGCONT from elsewhere clears it), so the
       state in /proc, the kernel's own word, is read as well. */
    siginfo_t info;
    memset(&info, 0, sizeof info);
    if (waitid((idtype_t)P_PIDFD, (id_t)pidfd, &info, WSTOPPED | WEXITED | WNOWAIT | WNOHANG) == 0 && info.si_pid != 0) {
        return 1;
    }
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 1; /* gone */
    char buffer[512];
    ssize_t count = read(fd, buffer, sizeof buffer - 1);
    close(fd);
    if (count <= 0) return 0;
    buffer[count] = 0;
    char *end = strrchr(buffer, ')');
    return end && end[1] == ' ' && (end[2] == 'T' || end[2] == 't' || end[2] == 'Z' || end[2] == 'X');
}

int csh_eventfd(void) {
    return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
}

int csh_set_child_subreaper(int on) {
    return prctl(PR_SET_CHILD_SUBREAPER, (unsigned long)on, 0, 0, 0);
}

int csh_reap_pid(pid_t pid) {
    siginfo_t info;
    int rc;
    do {
        rc = waitid(P_PID, (id_t)pid, &info, WEXITED);
    } while (rc != 0 && errno == EINTR);
    return rc == 0 ? 0 : errno;
}

#ifndef SYS_close_range
#define SYS_close_range 436
#endif

/* The sentinel shares the worker's memory (CLONE_VM): no page tables to copy and no
   copy-on-write faults in the worker afterwards, as a fork had (4,000 workers connected
   about 25 % faster without them); and when the worker dies, its memory is torn down by the
   sentinel's exit, after the host has seen the death, instead of before it. The price: the
   child runs in the worker's address space with the worker's thread pointer, so it must not
   touch anything of libc's (errno, locks, TLS) nor be instrumented by a sanitizer. It
   makes raw system calls on its own stack, and nothing else. */

#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define CSH_THREAD_SANITIZER 1
#endif
#endif
#if defined(__SANITIZE_THREAD__)
#define CSH_THREAD_SANITIZER 1
#endif
#ifndef CSH_THREAD_SANITIZER
#define CSH_THREAD_SANITIZER 0
#endif

__attribute__((always_inline, no_sanitize("address", "thread", "undefined"), disable_sanitizer_instrumentation))
static inline long sentinel_syscall(long number, long a1, long a2, long a3, long a4) {
#if defined(__x86_64__)
    long result;
    register long r10 __asm__("r10") = a4;
    __asm__ volatile("syscall"
                     : "=a"(result)
                     : "a"(number), "D"(a1), "S"(a2), "d"(a3), "r"(r10)
                     : "rcx", "r11", "memory");
    return result;
#elif defined(__aarch64__)
    register long x8 __asm__("x8") = number;
    register long x0 __asm__("x0") = a1;
    register long x1 __asm__("x1") = a2;
    register long x2 __asm__("x2") = a3;
    register long x3 __asm__("x3") = a4;
    __asm__ volatile("svc 0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2), "r"(x3) : "memory");
    return x0;
#else
#error "the group sentinel needs a raw system call for this architecture"
#endif
}

__attribute__((no_sanitize("address", "thread", "undefined"), disable_sanitizer_instrumentation, noinline))
static int sentinel_main(void *argument) {
    long parent = (long)argument;
    /* The kernel's signal set is 64 bits on the architectures above. */
    unsigned long all = ~0UL;
    sentinel_syscall(SYS_rt_sigprocmask, SIG_SETMASK, (long)&all, 0, sizeof all);
    sentinel_syscall(SYS_prctl, PR_SET_PDEATHSIG, SIGUSR1, 0, 0);
    /* None of the worker's pipes: the host must see its stdout close when the worker dies.
       The descriptor table is the sentinel's own copy (no CLONE_FILES). */
    if (sentinel_syscall(SYS_close_range, 0, (long)~0U, 0, 0) != 0) {
        for (long fd = 0; fd < 1024; fd++) sentinel_syscall(SYS_close, fd, 0, 0, 0);
    }
    static const char name[16] = "scenehost-guard";
    sentinel_syscall(SYS_prctl, PR_SET_NAME, (long)name, 0, 0);
    /* Armed after the parent died: the signal will never come. */
    if (sentinel_syscall(SYS_getppid, 0, 0, 0, 0) == parent) {
        unsigned long wake = (1UL << (SIGUSR1 - 1)) | (1UL << (SIGHUP - 1));
        siginfo_t info;
        while (sentinel_syscall(SYS_rt_sigtimedwait, (long)&wake, (long)&info, 0, sizeof wake) == -EINTR) {}
    }
    sentinel_syscall(SYS_kill, 0, SIGKILL, 0, 0);
    for (;;) sentinel_syscall(SYS_exit, 0, 0, 0, 0);
}

int csh_start_group_sentinel(void) {
    pid_t parent = getpid();
    // Only for a process that leads its group, as the host spawns workers: in a shell's job
    // (`hostctl worker | cat`) the group is the user's, not ours to kill.
    if (getpgrp() != parent) return EPERM;
#if CSH_THREAD_SANITIZER
    // ThreadSanitizer intercepts clone as if it were fork and breaks in a child that shares
    // the parent's memory: under it, a plain fork runs the same code.
    pid_t pid = fork();
    if (pid < 0) return errno;
    if (pid == 0) sentinel_main((void *)(long)parent);
    return 0;
#else
    // Its stack is never unmapped: the sentinel lives as long as the worker's memory does.
    const size_t stack_size = 64 * 1024;
    void *stack = mmap(NULL, stack_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
    if (stack == MAP_FAILED) return errno;
    pid_t pid = clone(sentinel_main, (char *)stack + stack_size, CLONE_VM | SIGCHLD, (void *)(long)parent);
    if (pid < 0) {
        int error = errno;
        munmap(stack, stack_size);
        return error;
    }
    return 0;
#endif
}

int csh_sched_setaffinity(int tid, size_t size, const void *mask) {
    return sched_setaffinity((pid_t)tid, size, (const cpu_set_t *)mask);
}

int csh_sched_getaffinity(int tid, size_t size, void *mask) {
    return sched_getaffinity((pid_t)tid, size, (cpu_set_t *)mask);
}

int csh_malloc_trim(size_t pad) {
    return malloc_trim(pad);
}
