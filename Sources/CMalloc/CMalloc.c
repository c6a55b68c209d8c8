#include "CMalloc.h"

#include <stdlib.h>

#if defined(__GLIBC__)
#include <malloc.h>

// glibc gives each thread that allocates an arena of its own, up to eight per core, and each keeps what was
// freed in it. The daemon's threads (the cooperative pool, GRDB's queues, libcurl's transfers) mostly wait, so
// two arenas serve them as fast and keep over a megabyte less resident (the daemon benchmark). The cap only
// holds if set before a second thread allocates, hence a constructor, run before main.
static int limit = 0;

__attribute__((constructor)) static void tessera_limit_heap_arenas(void) {
    if (getenv("MALLOC_ARENA_MAX") == NULL && mallopt(M_ARENA_MAX, 2) == 1) limit = 2;
}

int tessera_heap_arena_limit(void) { return limit; }
#else
int tessera_heap_arena_limit(void) { return 0; }
#endif
