#ifndef TESSERA_CZLIB_SHIM_H
#define TESSERA_CZLIB_SHIM_H

// The system zlib (zlib1g, which libcurl already needs on Debian): the pictures' PNG compression and checksums.
#include <zlib.h>

#endif
