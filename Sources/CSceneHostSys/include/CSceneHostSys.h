#ifndef CSCENEHOSTSYS_H
#define CSCENEHOSTSYS_H

#include <sys/types.h>
#include <signal.h>

/// pidfd_open(2): a file descriptor that becomes readable when `pid` exits. -1 and errno on failure.
int csh_pidfd_open(pid_t pid, unsigned int flags);

/// pidfd_send_signal(2): signal the process behind `pidfd` (no pid-reuse race). -1 and errno on failure.
int csh_pidfd_send_signal(int pidfd, int sig);

/// prctl(PR_SET_PDEATHSIG, sig): deliver `sig` to this process when its parent thread dies.
int csh_set_parent_death_signal(int sig);

/// Spawns `path` with `argv`/`envp` in its own process group, with an empty signal mask and
/// default signal dispositions, `stdin_fd`/`stdout_fd`/`stderr_fd` as fds 0/1/2 and every
/// other descriptor closed. Returns 0 and sets `*pid`, or an errno value.
int csh_spawn(pid_t *pid, const char *path, char *const argv[], char *const envp[],
              int stdin_fd, int stdout_fd, int stderr_fd);

#endif
