// The prefetch hint is inline in include/CRewind.h; SHA-256 with the processor's instructions is in
// SHA256Hardware.c.
#include "CRewind.h"
