#ifndef CSH_RAW_SYSCALL_H
#define CSH_RAW_SYSCALL_H

/* A system call with no libc in between, for code that runs in a child sharing its parent's
   memory (CLONE_VM): such code must not touch anything of libc's (errno, locks, TLS) nor be
   instrumented by a sanitizer. Returns the kernel's result: -errno on failure. */

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

#define CSH_UNINSTRUMENTED no_sanitize("address", "thread", "undefined"), disable_sanitizer_instrumentation

__attribute__((always_inline, CSH_UNINSTRUMENTED))
static inline long csh_raw_syscall(long number, long a1, long a2, long a3, long a4) {
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
#error "CSceneHostSys needs a raw system call for this architecture"
#endif
}

#endif
