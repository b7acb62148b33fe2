// Most of the module's functions are inline in include/CRewind.h; defined here are its one variable and
// the CRC-32C instruction behind a check of the processor, so the module builds for any x86-64 or ARM
// processor and uses the instruction only where it exists (the Swift tables in RewindLog do the rest).
// SHA-256 with the processor's instructions is in SHA256Hardware.c.
#include "CRewind.h"

#include <string.h>

_Thread_local void *rewind_current_draw_session __attribute__((tls_model("initial-exec"))) = 0;

#if defined(__x86_64__)

int rewind_crc32c_available(void) { return __builtin_cpu_supports("sse4.2"); }

__attribute__((target("sse4.2"))) uint32_t rewind_crc32c_update(uint32_t crc, const void *bytes, size_t count) {
  const unsigned char *next = bytes;
  uint64_t value = crc;
  while (count >= 8) {
    uint64_t word;
    memcpy(&word, next, 8);
    value = __builtin_ia32_crc32di(value, word);
    next += 8;
    count -= 8;
  }
  uint32_t result = (uint32_t)value;
  while (count > 0) {
    result = __builtin_ia32_crc32qi(result, *next);
    next += 1;
    count -= 1;
  }
  return result;
}

#elif defined(__aarch64__) && defined(__ARM_FEATURE_CRC32)

int rewind_crc32c_available(void) { return 1; }

uint32_t rewind_crc32c_update(uint32_t crc, const void *bytes, size_t count) {
  const unsigned char *next = bytes;
  while (count >= 8) {
    uint64_t word;
    memcpy(&word, next, 8);
    crc = __builtin_arm_crc32cd(crc, word);
    next += 8;
    count -= 8;
  }
  while (count > 0) {
    crc = __builtin_arm_crc32cb(crc, *next);
    next += 1;
    count -= 1;
  }
  return crc;
}

#else

int rewind_crc32c_available(void) { return 0; }

uint32_t rewind_crc32c_update(uint32_t crc, const void *bytes, size_t count) {
  (void)bytes;
  (void)count;
  return crc;
}

#endif
