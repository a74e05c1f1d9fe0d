#include "CSceneHostSys.h"
#include "RawSyscall.h"

#if CSH_THREAD_SANITIZER

// The annotation ThreadSanitizer's runtime exports (sanitizer/tsan_interface.h).
void __tsan_acquire(void *addr);

void csh_tsan_acquire(const void *address) { __tsan_acquire((void *)address); }

const _Bool csh_tsan_enabled = 1;

#else

void csh_tsan_acquire(const void *address) { (void)address; }

const _Bool csh_tsan_enabled = 0;

#endif
