/* error.c - error values (see error.h). */
#include "error.h"

#include <stdio.h>
#include <string.h>

int ss_fail(struct ss_error *err, enum ss_errcode code, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
        err->code = code;
    }
    return code;
}

int ss_nomem(struct ss_error *err, const char *what)
{
    return ss_fail(err, SS_ENOMEM, "out of memory (%s)", what);
}

void ss_error_clear(struct ss_error *err)
{
    if (err) {
        err->code = SS_OK;
        err->msg[0] = '\0';
    }
}

int ss_exit_status(enum ss_errcode code)
{
    switch (code) {
    case SS_OK:
        return 0;
    case SS_EUSAGE:
        return 1;
    default:
        return 2;
    }
}
