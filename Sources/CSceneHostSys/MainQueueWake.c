#include "CSceneHostSys.h"
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <unistd.h>
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 32))
#include <sys/single_threaded.h>
#endif

/* libdispatch's hooks for a run loop that drains the main queue itself (CoreFoundation's
   CFRunLoop uses them): the first call turns the main queue into a run-loop queue and returns
   an eventfd that becomes readable when work is queued on it; the second runs that work, on
   the main thread. Exported by libdispatch, declared in its private headers only. */
extern int _dispatch_get_main_queue_port_4CF(void);
extern void _dispatch_main_queue_callback_4CF(void *message);

/* The main queue's eventfd, polled beside the requests' descriptor; -1 without one (none
   given, or closed under us by app code that closed every descriptor): the main thread then
   runs the main queue's work before every read instead. Touched by the main thread only. */
static int port = -1;

int csh_main_queue_wake_start(void) {
    port = _dispatch_get_main_queue_port_4CF();
    return port < 0 ? EINVAL : 0;
}

int csh_main_queue_is_watched(void) { return port >= 0; }

/* The eventfd's count was taken (`csh_main_queue_take_signal`) and its work has not run yet. */
static int taken = 0;

int csh_main_queue_run_pending(void) {
    if (taken) {
        taken = 0;
    } else if (port >= 0) {
        uint64_t count;
        /* Non-blocking (libdispatch makes it so): EAGAIN says nothing is queued. */
        if (read(port, &count, sizeof count) != (ssize_t)sizeof count) return 0;
    }
    _dispatch_main_queue_callback_4CF(NULL);
    return 1;
}

int csh_main_queue_take_signal(void) {
    if (taken || port < 0) return 1;
    uint64_t count;
    ssize_t result = read(port, &count, sizeof count);
    if (result == (ssize_t)sizeof count) {
        taken = 1;
        return 1;
    }
    if (result < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return 0;
    /* Interrupted: may have work (the caller polls). Closed under us by app code, or anything
       else: there is no eventfd any more, and work may always be waiting. */
    if (!(result < 0 && errno == EINTR)) port = -1;
    return 1;
}

int csh_main_queue_test_use_port(int fd) {
    int previous = port;
    port = fd;
    taken = 0;
    return previous;
}

int csh_only_thread(void) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 32))
    return __libc_single_threaded ? 1 : 0;
#else
    return 0;
#endif
}

int csh_main_queue_wait(int fd, int timeout_ms) {
    struct pollfd descriptors[2] = {{fd, POLLIN, 0}, {port, POLLIN, 0}};
    int count = port >= 0 ? 2 : 1;
    /* A signal taken and not run yet: the eventfd, emptied, says nothing of it (and stays
       quiet while the queue is not empty), so the work is reported here, and not waited for. */
    int ready = poll(descriptors, (nfds_t)count, taken ? 0 : timeout_ms);
    if (ready < 0) return errno == EINTR ? (taken ? 2 : 0) : -1;
    int result = descriptors[0].revents ? 1 : 0;
    if (taken) result |= 2;
    /* Without the eventfd nothing says when work is queued: it may always be. */
    if (count == 1) result |= 2;
    if (count == 2) {
        if (descriptors[1].revents & (POLLNVAL | POLLERR)) {
            port = -1;
            result |= 2;
        } else if (descriptors[1].revents & POLLIN) {
            result |= 2;
        }
    }
    return result;
}
