// The module's functions are inline in include/CRewind.h; its one variable is defined here.
#include "CRewind.h"

_Thread_local void *rewind_current_draw_session __attribute__((tls_model("initial-exec"))) = 0;
