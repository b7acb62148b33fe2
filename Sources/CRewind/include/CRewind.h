// What Swift cannot say itself, for the Rewind module: one C builtin.
#ifndef CREWIND_H
#define CREWIND_H

/// Asks the processor to bring the cache line holding `address` in, without waiting for it: a hint, which
/// never faults, whatever the address.
static inline void rewind_prefetch(const void *address) { __builtin_prefetch(address, 0, 3); }

#endif
