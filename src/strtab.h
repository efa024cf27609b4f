/* strtab.h - the string table: every string in a model is interned once.
 *
 * Tables hold 32-bit ids, never pointers (HACKING.md, Data model).  Ids are
 * dense, start at 0 and follow insertion order.  Strings may hold any bytes
 * except NUL (profile names are arbitrary UTF-8 or not); each is stored
 * NUL-terminated so it can be printed directly.
 */
#ifndef SS_STRTAB_H
#define SS_STRTAB_H

#include <stddef.h>
#include <stdint.h>

#include "hashtab.h"

#define SS_NONE UINT32_MAX /* "no id" in every table */

struct ss_strtab {
    char *buf; /* all strings, each followed by a NUL */
    size_t buf_n, buf_cap;
    uint64_t *off;         /* off[id]: start of string id in buf */
    uint32_t *len;         /* len[id]: its length in bytes */
    size_t n, cap;         /* number of strings, capacity of off/len */
    struct ss_idset index; /* the ids, by the strings' ss_hash */
};

/* Initialise an empty table (no allocation until the first intern). */
void ss_strtab_init(struct ss_strtab *t);

/* Free everything the table owns; the table is empty again afterwards. */
void ss_strtab_free(struct ss_strtab *t);

/* Make dst an independent copy of src (same ids).  dst is overwritten, not
 * freed first.  Returns 0, or -1 when out of memory (dst is then empty). */
int ss_strtab_copy(struct ss_strtab *dst, const struct ss_strtab *src);

/* Intern the `len` bytes at `s`: return the id of an equal string if there
 * is one, else copy the bytes and return a new id.  Returns SS_NONE when
 * memory runs out or the string is longer than 1 GiB. */
uint32_t ss_strtab_intern(struct ss_strtab *t, const char *s, size_t len);

/* The id of the string equal to `len` bytes at `s`, or SS_NONE. */
uint32_t ss_strtab_find(const struct ss_strtab *t, const char *s, size_t len);

/* The NUL-terminated string with this id (borrowed; valid until the next
 * intern, which may move the buffer). */
static inline const char *ss_strtab_get(const struct ss_strtab *t, uint32_t id)
{
    return t->buf + t->off[id];
}

/* The length in bytes of string id. */
static inline size_t ss_strtab_len(const struct ss_strtab *t, uint32_t id)
{
    return t->len[id];
}

#endif
