// The worker runtime.
