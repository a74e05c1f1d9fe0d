#define _GNU_SOURCE
#include "CSceneHostSys.h"
#include "RawSyscall.h"

#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The host's lock (Swift's `Locked`): a futex word with three states, Drepper's "mutex 2" in
   "Futexes Are Tricky": 0 free, 1 held, 2 held with (possibly) a waiter. Uncontended, taking
   and releasing it is one atomic instruction each and no system call; glibc's
   pthread_mutex_lock and unlock, which it replaces, took about 80 instructions together
   (callgrind), and the event loop takes a lock ten times per round trip.

   Under ThreadSanitizer it is a pthread mutex: TSan intercepts pthread_mutex_lock and sees
   the happens-before it gives, while a futex of one's own would look like no synchronization
   at all, and every access made under it like a race. */

#if CSH_THREAD_SANITIZER

void csh_lock_init(struct csh_lock *lock) { pthread_mutex_init(&lock->storage.mutex, NULL); }
void csh_lock_destroy(struct csh_lock *lock) { pthread_mutex_destroy(&lock->storage.mutex); }
void csh_lock_acquire(struct csh_lock *lock) { pthread_mutex_lock(&lock->storage.mutex); }
void csh_lock_release(struct csh_lock *lock) { pthread_mutex_unlock(&lock->storage.mutex); }

#else

void csh_lock_init(struct csh_lock *lock) { __atomic_store_n(&lock->storage.word, 0, __ATOMIC_RELAXED); }
void csh_lock_destroy(struct csh_lock *lock) { (void)lock; }

/* How many times a contended acquire looks again before it sleeps. Every critical section
   under this lock is a few dozen instructions, so a holder that is running lets go within a
   few of these; sleeping instead costs the holder a FUTEX_WAKE and the waiter a wake-up
   (15-20 us across CPUs on a VM), which is what the event loop's poll takes the lock about
   once a microsecond while avoiding. (glibc's adaptive mutex spins likewise.) */
enum { csh_lock_spins = 100 };

static inline void csh_cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

void csh_lock_acquire(struct csh_lock *lock) {
    uint32_t *word = &lock->storage.word;
    uint32_t state = 0;
    if (__atomic_compare_exchange_n(word, &state, 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) return;
    for (int spin = 0; spin < csh_lock_spins && state == 1; spin++) {
        csh_cpu_relax();
        state = __atomic_load_n(word, __ATOMIC_RELAXED);
        if (state == 0 && __atomic_compare_exchange_n(word, &state, 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) return;
    }
    /* Held: mark it contended (2) so that its holder wakes someone, and wait until it is free
       and taken by us, as contended: another waiter may still be asleep. */
    if (state != 2) state = __atomic_exchange_n(word, 2, __ATOMIC_ACQUIRE);
    while (state != 0) {
        /* Returns at once (EAGAIN) if the word is no longer 2; EINTR and spurious wake-ups are
           fine: the word is looked at again. */
        syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, 2, NULL, NULL, 0);
        state = __atomic_exchange_n(word, 2, __ATOMIC_ACQUIRE);
    }
}

void csh_lock_release(struct csh_lock *lock) {
    uint32_t *word = &lock->storage.word;
    if (__atomic_fetch_sub(word, 1, __ATOMIC_RELEASE) != 1) {
        /* It was 2: someone may be waiting. */
        __atomic_store_n(word, 0, __ATOMIC_RELEASE);
        syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
    }
}

#endif
