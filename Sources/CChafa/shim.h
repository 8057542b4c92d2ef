#ifndef RICHPUSH_CCHAFA_H
#define RICHPUSH_CCHAFA_H
// libchafa and the glib types its API uses. Only CChafaShim includes it; Swift sees the shim's plain C API.
#include <chafa.h>
#endif
