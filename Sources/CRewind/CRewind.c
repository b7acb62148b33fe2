// The module's functions are inline in include/CRewind.h; a C target needs one source file.
#include "CRewind.h"
