#ifndef TESSERA_CMALLOC_H
#define TESSERA_CMALLOC_H

/// The cap on glibc's heap arenas set when the process started (2), or 0 when it was left alone:
/// MALLOC_ARENA_MAX was set, or the C library is not glibc.
int tessera_heap_arena_limit(void);

#endif
