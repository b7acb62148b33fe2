// What Swift cannot say itself: a cache prefetch (for Rewind) and the processor's CRC-32C instruction (for
// RewindLog).
#ifndef CREWIND_H
#define CREWIND_H

#include <stddef.h>
#include <stdint.h>

/// Asks the processor to bring the cache line holding `address` in, without waiting for it: a hint, which
/// never faults, whatever the address.
static inline void rewind_prefetch(const void *address) { __builtin_prefetch(address, 0, 3); }

/// Whether `rewind_crc32c_update` can run here: the processor has a CRC-32C instruction (SSE 4.2 on
/// x86-64, the CRC extension on 64-bit ARM).
int rewind_crc32c_available(void);

/// The CRC-32C register after `count` bytes at `bytes`, from `crc` (no inversion before or after: the
/// caller does those), with the processor's instruction. Call only when `rewind_crc32c_available()`.
uint32_t rewind_crc32c_update(uint32_t crc, const void *bytes, size_t count);

#endif
