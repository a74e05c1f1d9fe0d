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
/* The main queue itself (`dispatch_get_main_queue()` is its address), and queueing on it. */
extern char _dispatch_main_q[];
extern void dispatch_async_f(void *queue, void *context, void (*work)(void *));

/* The main queue's eventfd, polled beside the requests' descriptor; -1 without one (none
   given, or closed under us by app code that closed every descriptor): the main thread then
   runs the main queue's work before every read instead. Touched by the main thread only. */
static int port = -1;

/* The main queue's tail, NULL while it is empty: what libdispatch's callback looks at first
   (and returns at once when it is NULL). A single-threaded worker reads it instead of the
   eventfd after each request: one system call less per request, which on one CPU is a tenth
   of what the worker adds to a round trip. Where it lies in the queue is libdispatch's
   private layout, so `probe_tail` finds it by watching it, and leaves it NULL (the eventfd is
   read as before) unless the word there is NULL with the queue empty, set once a block is
   queued, and NULL again once the block ran. */
static void *const volatile *tail = NULL;

static void probe_noop(void *context) { (void)context; }

static void probe_tail(void) {
    /* Offset of `dq_items_tail` in swift-corelibs-libdispatch's queue header (x86_64 and
       aarch64 alike: three pointers' worth of object header, then the queue's own). */
    void *const volatile *candidate = (void *const volatile *)(_dispatch_main_q + 0x30);
    if (*candidate != NULL) return;
    dispatch_async_f(_dispatch_main_q, NULL, probe_noop);
    int queued = *candidate != NULL;
    _dispatch_main_queue_callback_4CF(NULL);
    /* The queueing wrote the eventfd: taken back, as its work ran. */
    uint64_t count;
    (void)read(port, &count, sizeof count);
    if (queued && *candidate == NULL) tail = candidate;
}

int csh_main_queue_wake_start(void) {
    port = _dispatch_get_main_queue_port_4CF();
    if (port < 0) return EINVAL;
    if (csh_only_thread()) probe_tail();
    return 0;
}

int csh_main_queue_is_watched(void) { return port >= 0; }

/* The eventfd's count was taken (`csh_main_queue_take_signal`) and its work has not run yet. */
static int taken = 0;

int csh_main_queue_run_pending(void) {
    if (taken) {
        taken = 0;
    } else if (port >= 0) {
        uint64_t count;
        /* Non-blocking (libdispatch makes it so): EAGAIN says nothing is queued, unless the
           tail says otherwise (`csh_main_queue_take_signal` looked there, not here). */
        if (read(port, &count, sizeof count) != (ssize_t)sizeof count && !(tail != NULL && *tail != NULL)) return 0;
    }
    _dispatch_main_queue_callback_4CF(NULL);
    return 1;
}

int csh_main_queue_take_signal(void) {
    if (taken || port < 0) return 1;
    /* Only this thread can queue: the tail says it without a system call. The eventfd keeps
       its count for `csh_main_queue_run_pending` to take when the work runs. */
    if (tail != NULL && csh_only_thread()) return *tail != NULL;
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
