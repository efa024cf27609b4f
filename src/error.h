/* error.h - errors are values in the core (HACKING.md, Layers).
 *
 * A function that can fail takes a `struct ss_error *` and returns non-zero
 * after filling it.  Only main() and the UI decide to print and exit.  The
 * message always names the file and, where there is one, the line (1-based)
 * or byte offset, so the user can find the problem.  A message is safe text:
 * ss_fail escapes the control characters of what it quotes (textesc.h), so
 * it can be printed to a terminal as is.
 */
#ifndef SS_ERROR_H
#define SS_ERROR_H

#include <stdarg.h>
#include <stddef.h>

enum ss_errcode {
    SS_OK = 0,
    SS_EUSAGE = 1, /* bad command line (exit 1) */
    SS_EINPUT = 2, /* malformed or unreadable input (exit 2) */
    SS_ENOMEM = 3, /* out of memory or a limit exceeded (exit 2) */
    SS_EIO = 4,    /* write failure (exit 2) */
    SS_EBIG = 5,   /* an output over the size limit, refused (exit 1: --force; outlimit.h) */
};

struct ss_error {
    enum ss_errcode code;
    char msg[1024];
};

/* Set err (if not NULL) to code and a printf-style message, its control
 * characters escaped (textesc.h); returns code, so
 * `return ss_fail(err, SS_EINPUT, "...")` reads naturally. */
int ss_fail(struct ss_error *err, enum ss_errcode code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Set err to SS_ENOMEM with a message naming what was being allocated. */
int ss_nomem(struct ss_error *err, const char *what);

/* Clear err to SS_OK with an empty message. */
void ss_error_clear(struct ss_error *err);

/* The plural ending of a count in a message: "1 sample", "2 samples"
 * (printf("%zu sample%s", n, ss_s(n))). */
static inline const char *ss_s(unsigned long long n)
{
    return n == 1 ? "" : "s";
}

/* Exit status for an error code: 0, 1 (usage) or 2 (input, memory, I/O). */
int ss_exit_status(enum ss_errcode code);

#endif
