#define _GNU_SOURCE
#include "CSceneHostSys.h"
#include "RawSyscall.h"

#include <errno.h>
#include <malloc.h>
#include <sched.h>
#include <signal.h>
#include <fcntl.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>
#include <sys/ioctl.h>
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

int csh_pipe_cloexec(int fds[2]) {
    return pipe2(fds, O_CLOEXEC);
}

int csh_pipe_capacity(int fd) {
    return fcntl(fd, F_GETPIPE_SZ);
}

int csh_pipe_unread(int fd) {
    int unread = 0;
    if (ioctl(fd, FIONREAD, &unread) != 0) return -1;
    return unread;
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
    /* Gone: counts as stopped (its exit event follows). Out of descriptors or memory says
       nothing of the worker: not stopped yet, the next poll asks again. */
    if (fd < 0) return errno == ENOENT || errno == ESRCH;
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

int csh_timerfd(void) {
    return timerfd_create(CLOCK_BOOTTIME, TFD_CLOEXEC | TFD_NONBLOCK);
}

int csh_timerfd_arm(int fd, int64_t nanoseconds) {
    if (nanoseconds < 1) nanoseconds = 1; /* 0 would disarm it: the boot is long past anyway */
    struct itimerspec value = {
        .it_interval = {0, 0},
        .it_value = {(time_t)(nanoseconds / 1000000000), (long)(nanoseconds % 1000000000)},
    };
    return timerfd_settime(fd, TFD_TIMER_ABSTIME, &value, NULL) == 0 ? 0 : errno;
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

__attribute__((CSH_UNINSTRUMENTED, noinline))
static int sentinel_main(void *argument) {
    long parent = (long)argument;
    /* The kernel's signal set is 64 bits on the architectures above. */
    unsigned long all = ~0UL;
    csh_raw_syscall(SYS_rt_sigprocmask, SIG_SETMASK, (long)&all, 0, sizeof all);
    csh_raw_syscall(SYS_prctl, PR_SET_PDEATHSIG, SIGUSR1, 0, 0);
    /* None of the worker's pipes: the host must see its stdout close when the worker dies.
       The descriptor table is the sentinel's own copy (no CLONE_FILES). */
    if (csh_raw_syscall(SYS_close_range, 0, (long)~0U, 0, 0) != 0) {
        for (long fd = 0; fd < 1024; fd++) csh_raw_syscall(SYS_close, fd, 0, 0, 0);
    }
    static const char name[16] = "scenehost-guard";
    csh_raw_syscall(SYS_prctl, PR_SET_NAME, (long)name, 0, 0);
    /* Armed after the parent died: the signal will never come. */
    if (csh_raw_syscall(SYS_getppid, 0, 0, 0, 0) == parent) {
        unsigned long wake = (1UL << (SIGUSR1 - 1)) | (1UL << (SIGHUP - 1));
        siginfo_t info;
        while (csh_raw_syscall(SYS_rt_sigtimedwait, (long)&wake, (long)&info, 0, sizeof wake) == -EINTR) {}
    }
    csh_raw_syscall(SYS_kill, 0, SIGKILL, 0, 0);
    for (;;) csh_raw_syscall(SYS_exit, 0, 0, 0, 0);
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

int csh_stdout_flush_error(void) {
    if (fflush(stdout) != 0) return errno != 0 ? errno : EIO;
    return ferror(stdout) ? EIO : 0;
}

int csh_sched_getcpu(void) {
    return sched_getcpu();
}

int csh_gettid(void) {
    return (int)syscall(SYS_gettid);
}

int csh_line_buffer_stdout(void) {
    return setvbuf(stdout, NULL, _IOLBF, 0);
}
