// What Swift cannot say itself: one C builtin for the Rewind module, and the processor's SHA-256
// instructions for RewindLog.
#ifndef CREWIND_H
#define CREWIND_H

#include <stddef.h>
#include <stdint.h>

/// Asks the processor to bring the cache line holding `address` in, without waiting for it: a hint, which
/// never faults, whatever the address.
static inline void rewind_prefetch(const void *address) { __builtin_prefetch(address, 0, 3); }

/// 1 when this processor has the x86 SHA extensions (with SSSE3 and SSE4.1), so that
/// `rewind_sha256_compress_hardware` may be called; 0 otherwise, and always 0 on other architectures.
int rewind_sha256_hardware_available(void);

/// Compresses `count` whole 64-byte blocks at `blocks` into the SHA-256 hash value `state` (H0…H7) with
/// the x86 SHA instructions. Call only when `rewind_sha256_hardware_available()` returned 1.
void rewind_sha256_compress_hardware(uint32_t state[8], const void *blocks, size_t count);

#endif
