#define _GNU_SOURCE
#include "CSceneHostSys.h"
#include "RawSyscall.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef SYS_close_range
#define SYS_close_range 436
#endif
#ifndef CLOSE_RANGE_UNSHARE
#define CLOSE_RANGE_UNSHARE (1U << 1)
#endif

/* Why not posix_spawn alone: its child gets a copy of the host's whole descriptor table, then
   closes every descriptor in it before exec. With 4,000 live scenes that is 16,000 references
   taken and dropped per spawn (dup_fd, filp_flush and close_range were 11 % of all CPU while
   4,000 scenes connected). This child shares the table instead (CLONE_FILES) and copies only
   its low end: close_range(limit, ~0, CLOSE_RANGE_UNSHARE) gives it a table of its own that
   holds descriptors 0 to limit - 1 alone. The three descriptors it keeps must be down there,
   so each spawn borrows a triple of low descriptors reserved once, when the host starts
   (placeholders on /dev/null), points them at the child's pipe ends for the duration of the
   spawn, then back at /dev/null. When no triple is free, or the kernel has no CLOSE_RANGE_UNSHARE (before
   5.9), or under ThreadSanitizer (which takes a clone for a fork), posix_spawn does it. */

enum { slot_count = 4, child_stack_size = 32 * 1024 };

struct spawn_slot {
    int fds[3];
    int busy;
    /* The child runs on it while the spawning thread is suspended (CLONE_VFORK). */
    _Alignas(16) char stack[child_stack_size];
};

static pthread_mutex_t slots_lock = PTHREAD_MUTEX_INITIALIZER;
/* 0: not reserved yet; 1: ready; -1: the fast path is unavailable. */
static int slots_state = 0;
static int placeholder_fd = -1;
static int unshare_limit = 0;
static struct spawn_slot slots[slot_count];
static _Atomic int posix_spawn_only = 0;

/* Called with slots_lock held. */
static void reserve_slots(void) {
    int null_fd = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (null_fd < 0) {
        slots_state = -1;
        return;
    }
    /* Above 2 as well: a host started with its stdio closed must not find the placeholder
       there once it opens something of its own as 0, 1 or 2. */
    placeholder_fd = null_fd < 3 ? fcntl(null_fd, F_DUPFD_CLOEXEC, 3) : null_fd;
    if (null_fd < 3) close(null_fd);
    if (placeholder_fd < 0) {
        slots_state = -1;
        return;
    }
    int highest = placeholder_fd;
    for (int slot = 0; slot < slot_count; slot++) {
        for (int index = 0; index < 3; index++) {
            /* Above 2: the child's dup3 onto 0, 1, 2 must never find its source there. */
            int fd = fcntl(placeholder_fd, F_DUPFD_CLOEXEC, 3);
            if (fd < 0) {
                slots_state = -1;
                return; /* the reserved ones stay: a few idle descriptors, never reused */
            }
            slots[slot].fds[index] = fd;
            if (fd > highest) highest = fd;
        }
    }
    unshare_limit = highest + 1;
    slots_state = 1;
}

static struct spawn_slot *acquire_slot(void) {
    struct spawn_slot *found = NULL;
    pthread_mutex_lock(&slots_lock);
    if (slots_state == 0) reserve_slots();
    if (slots_state == 1) {
        for (int slot = 0; slot < slot_count && !found; slot++) {
            if (!slots[slot].busy) {
                slots[slot].busy = 1;
                found = &slots[slot];
            }
        }
    }
    pthread_mutex_unlock(&slots_lock);
    return found;
}

static void release_slot(struct spawn_slot *slot, int fast_path_unsupported) {
    pthread_mutex_lock(&slots_lock);
    slot->busy = 0;
    if (fast_path_unsupported) slots_state = -1;
    pthread_mutex_unlock(&slots_lock);
}

/* Priority 0, the only one SCHED_BATCH takes; static for the same reason as below. */
static const struct sched_param batch_parameters = {0};

/* SIG_DFL, no flags, no restorer, an empty mask: the kernel's action layout. Static, so the
   child never builds it on its stack (at -O0 a zeroed local is a call to libc's memset). */
static const unsigned long default_action[4] = {(unsigned long)SIG_DFL, 0, 0, 0};

struct spawn_request {
    const char *path;
    char *const *argv;
    char *const *envp;
    const int *slot_fds;
    int unshare_limit;
    int batch_scheduling;
    int cgroup_procs_fd;
    /* Written by the child before it exits without exec; read by the parent after. */
    volatile int failed_stage; /* 0: none; 1: close_range unshare; 2: the rest */
    volatile int error;
};

/* The child: shares the parent's memory (the parent is suspended until it execs or exits),
   so raw system calls only, on its own stack. */
__attribute__((CSH_UNINSTRUMENTED, noinline, no_stack_protector))
static int spawn_child(void *argument) {
    struct spawn_request *request = argument;
    long rc;
    /* Into the worker's own cgroup first, before the table is unshared (the descriptor may
       lie above the limit) and before anything it runs could start a process. */
    if (request->cgroup_procs_fd >= 0) {
        static const char self[1] = {'0'};
        rc = csh_raw_syscall(SYS_write, request->cgroup_procs_fd, (long)self, 1, 0);
        if (rc < 0) goto fail;
    }
    rc = csh_raw_syscall(SYS_close_range, request->unshare_limit, (long)~0U, CLOSE_RANGE_UNSHARE, 0);
    if (rc != 0) {
        request->error = (int)-rc;
        request->failed_stage = 1;
        for (;;) csh_raw_syscall(SYS_exit_group, 127, 0, 0, 0);
    }
    /* The table is the child's own from here on. */
    for (long index = 0; index < 3; index++) {
        /* dup3 clears close-on-exec on the target (the slots have it set). */
        rc = csh_raw_syscall(SYS_dup3, request->slot_fds[index], index, 0, 0);
        if (rc < 0) goto fail;
    }
    rc = csh_raw_syscall(SYS_close_range, 3, (long)~0U, 0, 0);
    if (rc != 0) goto fail;
    /* Default dispositions for every signal, the ignored ones too (an ignored disposition
       survives exec; a handler would run the parent's code in this child). glibc's own
       SIGCANCEL and SIGSETXID (32, 33) included. The kernel's action layout: handler, flags,
       restorer, a 64-bit mask. */
    for (long sig = 1; sig <= 64; sig++) {
        if (sig == SIGKILL || sig == SIGSTOP) continue;
        csh_raw_syscall(SYS_rt_sigaction, sig, (long)default_action, 0, 8);
    }
    rc = csh_raw_syscall(SYS_setpgid, 0, 0, 0, 0);
    if (rc != 0) goto fail;
    unsigned long empty = 0;
    rc = csh_raw_syscall(SYS_rt_sigprocmask, SIG_SETMASK, (long)&empty, 0, 8);
    if (rc != 0) goto fail;
    /* A hint, not a requirement: a kernel or filter that refuses it leaves the policy as is. */
    if (request->batch_scheduling) {
        csh_raw_syscall(SYS_sched_setscheduler, 0, SCHED_BATCH, (long)&batch_parameters, 0);
    }
    rc = csh_raw_syscall(SYS_execve, (long)request->path, (long)request->argv, (long)request->envp, 0);
fail:
    request->error = (int)-rc;
    request->failed_stage = 2;
    for (;;) csh_raw_syscall(SYS_exit_group, 127, 0, 0, 0);
}

/* Returns 0 or an errno value, or -1 when the child could not unshare its table: posix_spawn
   then does this spawn, and every later one too when `*unsupported` says the kernel cannot. */
static int spawn_sharing_table(struct spawn_slot *slot, pid_t *pid, const char *path, char *const argv[],
                               char *const envp[], const int child_fds[3], int batch_scheduling,
                               int cgroup_procs_fd, int *unsupported) {
    *unsupported = 0;
    for (int index = 0; index < 3; index++) {
        if (dup3(child_fds[index], slot->fds[index], O_CLOEXEC) < 0) {
            int error = errno;
            for (int undo = 0; undo < index; undo++) dup3(placeholder_fd, slot->fds[undo], O_CLOEXEC);
            return error;
        }
    }
    struct spawn_request request = {
        .path = path,
        .argv = argv,
        .envp = envp,
        .slot_fds = slot->fds,
        .unshare_limit = unshare_limit,
        .batch_scheduling = batch_scheduling,
        .cgroup_procs_fd = cgroup_procs_fd,
        .failed_stage = 0,
        .error = 0,
    };
    /* Every signal blocked (glibc's internal ones too, which pthread_sigmask leaves out) while
       the child runs on this thread's memory: a handler must not run in it before it has reset
       the dispositions. */
    unsigned long all = ~0UL, previous = 0;
    csh_raw_syscall(SYS_rt_sigprocmask, SIG_SETMASK, (long)&all, (long)&previous, 8);
    pid_t child = clone(spawn_child, slot->stack + child_stack_size, CLONE_VM | CLONE_VFORK | CLONE_FILES | SIGCHLD,
                        &request);
    int clone_error = child < 0 ? errno : 0;
    csh_raw_syscall(SYS_rt_sigprocmask, SIG_SETMASK, (long)&previous, 0, 8);
    /* dup3 onto a descriptor that is open cannot fail but for EINTR, which it never returns:
       the host never keeps a child's pipe end (its EOF would never come). */
    for (int index = 0; index < 3; index++) dup3(placeholder_fd, slot->fds[index], O_CLOEXEC);

    if (child < 0) return clone_error;
    /* The child has exec'd or exited (CLONE_VFORK): its writes to `request` are visible. */
    if (request.failed_stage == 0) {
        *pid = child;
        return 0;
    }
    siginfo_t info;
    while (waitid(P_PID, (id_t)child, &info, WEXITED) != 0 && errno == EINTR) {}
    if (request.failed_stage == 1) {
        /* No CLOSE_RANGE_UNSHARE in this kernel (or a seccomp filter refusing it): posix_spawn
           from now on. ENOMEM or EMFILE while copying the table: posix_spawn this once. */
        int error = request.error;
        *unsupported = error == ENOSYS || error == EINVAL || error == EPERM;
        return -1;
    }
    return request.error;
}

static int spawn_with_posix_spawn(pid_t *pid, const char *path, char *const argv[], char *const envp[],
                                  int stdin_fd, int stdout_fd, int stderr_fd, int batch_scheduling) {
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
    /* The child inherits the spawning thread's policy: this thread takes SCHED_BATCH for the
       spawn and its own back after. (POSIX_SPAWN_SETSCHEDULER would fail the whole spawn where
       the fast path only skips the hint; setting it on the child afterwards would miss the
       threads it started meanwhile.) */
    /* Only from SCHED_OTHER, which any thread may return to, keeping SCHED_RESET_ON_FORK if the
       thread has it (asking without it would be refused); a real-time host spawns under its
       own policy rather than risk a spawn thread it cannot give it back to. */
    int policy = batch_scheduling && rc == 0 ? sched_getscheduler(0) : -1;
    int switched = policy >= 0 && (policy & ~SCHED_RESET_ON_FORK) == SCHED_OTHER &&
                   sched_setscheduler(0, SCHED_BATCH | (policy & SCHED_RESET_ON_FORK), &batch_parameters) == 0;
    if (rc == 0) rc = posix_spawn(pid, path, &actions, &attributes, argv, envp);
    if (switched) {
        static const struct sched_param other_parameters = {0};
        sched_setscheduler(0, policy, &other_parameters); /* back to SCHED_OTHER: never refused */
    }

    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    return rc;
}

int csh_spawn(pid_t *pid, const char *path, char *const argv[], char *const envp[],
              int stdin_fd, int stdout_fd, int stderr_fd, int batch_scheduling, int cgroup_procs_fd) {
#if !CSH_THREAD_SANITIZER
    if (!atomic_load(&posix_spawn_only)) {
        struct spawn_slot *slot = acquire_slot();
        if (slot) {
            const int child_fds[3] = {stdin_fd, stdout_fd, stderr_fd};
            int unsupported = 0;
            int rc = spawn_sharing_table(slot, pid, path, argv, envp, child_fds, batch_scheduling, cgroup_procs_fd,
                                         &unsupported);
            release_slot(slot, unsupported);
            if (rc != -1) return rc;
        }
    }
#endif
    int rc = spawn_with_posix_spawn(pid, path, argv, envp, stdin_fd, stdout_fd, stderr_fd, batch_scheduling);
    /* posix_spawn has no way in before exec (glibc 2.36): moved right after, as it starts. */
    if (rc == 0 && cgroup_procs_fd >= 0) {
        char text[16];
        int length = snprintf(text, sizeof text, "%d", (int)*pid);
        if (write(cgroup_procs_fd, text, (size_t)length) != length) {
            /* Contained by its process group only; the spawn itself succeeded. */
        }
    }
    return rc;
}

void csh_spawn_use_posix_spawn_only(int only) {
    atomic_store(&posix_spawn_only, only);
}

int csh_spawn_shares_descriptor_table(void) {
#if CSH_THREAD_SANITIZER
    return 0;
#else
    if (atomic_load(&posix_spawn_only)) return 0;
    pthread_mutex_lock(&slots_lock);
    if (slots_state == 0) reserve_slots();
    int ready = slots_state == 1;
    pthread_mutex_unlock(&slots_lock);
    return ready;
#endif
}
