//go:build cgo && linux

package main

/*
#define _GNU_SOURCE
#include <malloc.h>
#include <pthread.h>

// A constructor runs when the C library loads the program, before the Go
// runtime starts its first thread (an init function would be too late:
// every thread started by then had its arena and stack already).
__attribute__((constructor)) static void seg_thrifty_threads(void) {
#ifdef __GLIBC__
	mallopt(M_ARENA_MAX, 1);
	pthread_attr_t a;
	size_t size;
	if (pthread_getattr_default_np(&a) == 0) {
		if (pthread_attr_getstacksize(&a, &size) == 0 && size > (1 << 20)) {
			pthread_attr_setstacksize(&a, 1 << 20);
			pthread_setattr_default_np(&a);
		}
		pthread_attr_destroy(&a);
	}
#endif
}
*/
import "C"

// The language server's JSON-RPC library imports net, and net links a
// cgo build of seg against the C library. The runtime then starts its
// threads with pthread_create, and glibc gives each a stack the size of
// the stack limit (8 MB as a rule) and, once it calls malloc (the
// runtime does, to start another thread), a malloc arena reserving 64 MB
// of address space. Under an address-space limit of 0.8 to 1.5 GB
// (ulimit -v, prlimit --as) those reservations, not seg's heap, ran the
// process out of memory (TestMemoryLimits). Go allocates its own memory
// and runs its goroutines on its own stacks: one arena and 1 MB thread
// stacks are plenty for what runs on them (the runtime, and C code seg
// never calls). A build without cgo has neither.
