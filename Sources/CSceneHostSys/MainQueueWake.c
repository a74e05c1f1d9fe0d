#include "CSceneHostSys.h"
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>

/* libdispatch's hooks for a run loop that drains the main queue itself (CoreFoundation's
   CFRunLoop uses them): the first call turns the main queue into a run-loop queue and returns
   an eventfd that becomes readable when work is queued on it; the second runs that work, on
   the main thread. Exported by libdispatch, declared in its private headers only. */
extern int _dispatch_get_main_queue_port_4CF(void);
extern void _dispatch_main_queue_callback_4CF(void *message);

/* Main-queue work is waiting (set by the watcher, taken by the main thread). */
static atomic_int pending;
/* No watcher runs (it could not start, or its eventfd went away): the main thread runs the
   main queue's work before every read instead, so work queued while it reads waits for the
   next request. */
static atomic_int without_watcher;
/* The main thread is in (or about to enter) its read of the host's requests. */
static atomic_int waiting;
static int wake_signal;
static pthread_t main_thread;
static int port = -1;

static void interrupt_read(int signal_number) {
    (void)signal_number;
}

/* Waits for the port, then tells the main thread: a flag it checks before every read, and a
   signal when it sits in that read. A signal sent just before the main thread enters read(2)
   is lost, so while the work is not taken and the thread still reads, it is sent again, after
   1 ms, then less and less often. */
static void *watch(void *argument) {
    (void)argument;
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, NULL);
    for (;;) {
        struct pollfd descriptor = {port, POLLIN, 0};
        int ready = poll(&descriptor, 1, -1);
        if (ready < 0 && errno == EINTR) continue;
        /* An eventfd closed under us (app code that closed every descriptor) would report
           POLLNVAL for ever: stop watching rather than spin. */
        if (ready < 0 || (descriptor.revents & (POLLNVAL | POLLERR))) break;
        uint64_t count;
        if (read(port, &count, sizeof count) < 0 && errno != EAGAIN && errno != EINTR) break;
        atomic_store(&pending, 1);
        long delay = 1000000;
        while (atomic_load(&pending)) {
            if (atomic_load(&waiting)) pthread_kill(main_thread, wake_signal);
            struct timespec pause = {delay / 1000000000, delay % 1000000000};
            nanosleep(&pause, NULL);
            if (delay < 64000000) delay *= 2;
        }
    }
    atomic_store(&without_watcher, 1);
    return NULL;
}

int csh_main_queue_wake_signal(void) {
    return SIGRTMIN + 3;
}

int csh_main_queue_wake_start(void) {
    port = _dispatch_get_main_queue_port_4CF();
    if (port < 0) return EINVAL;
    int signal_number = csh_main_queue_wake_signal();
    wake_signal = signal_number;
    main_thread = pthread_self();
    struct sigaction action = {0};
    action.sa_handler = interrupt_read;
    sigemptyset(&action.sa_mask);
    action.sa_flags = 0; /* no SA_RESTART: the read returns EINTR */
    if (sigaction(signal_number, &action, NULL) != 0) {
        atomic_store(&without_watcher, 1);
        return errno;
    }
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setstacksize(&attributes, 64 * 1024);
    pthread_t thread;
    int error = pthread_create(&thread, &attributes, watch, NULL);
    pthread_attr_destroy(&attributes);
    if (error != 0) {
        atomic_store(&without_watcher, 1);
        return error;
    }
    pthread_detach(thread);
    return 0;
}

int csh_main_queue_will_read(void) {
    atomic_store(&waiting, 1);
    if (!atomic_load(&pending)) return 1;
    atomic_store(&waiting, 0);
    return 0;
}

void csh_main_queue_did_read(void) {
    atomic_store(&waiting, 0);
}

int csh_main_queue_run_pending(void) {
    /* The relaxed load first: the common answer, nothing waits, costs no atomic write. */
    int signalled = atomic_load_explicit(&pending, memory_order_relaxed) && atomic_exchange(&pending, 0);
    if (!signalled && !atomic_load_explicit(&without_watcher, memory_order_relaxed)) return 0;
    _dispatch_main_queue_callback_4CF(NULL);
    return 1;
}
