/* error.c - error values (see error.h). */
#include "error.h"

#include <stdio.h>
#include <string.h>

#include "textesc.h"

int ss_fail(struct ss_error *err, enum ss_errcode code, const char *fmt, ...)
{
    if (err) {
        /* Messages quote names and paths read from files: escape their
         * control characters once, here, so every printer of an error can
         * print it as is (textesc.h). */
        char raw[sizeof err->msg];
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(raw, sizeof raw, fmt, ap);
        va_end(ap);
        size_t len = n < 0 ? 0 : strlen(raw);
        if (n >= 0 && (size_t)n >= sizeof raw) {
            /* cut: drop a character left incomplete at the end */
            size_t k = len;
            while (k > 0 && len - k < 4 && ((unsigned char)raw[k - 1] & 0xc0) == 0x80)
                k--;
            if (k > 0 && (unsigned char)raw[k - 1] >= 0xc0) {
                uint32_t cp;
                if (ss_utf8_decode(raw + k - 1, len - (k - 1), &cp) == 1)
                    len = k - 1;
            }
        }
        ss_esc_copy(err->msg, sizeof err->msg, raw, len, SS_ESC_TEXT);
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
    case SS_EBIG:
        return 1;
    default:
        return 2;
    }
}
