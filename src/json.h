/* json.h - a small strict JSON reader (RFC 8259) for the JSON profile
 * formats (Chrome/Node .cpuprofile, speedscope).
 *
 * The whole text is parsed into a tree of nodes held in one array and
 * addressed by index (ids, not pointers: HACKING.md, Data model); strings are
 * decoded (escapes, \u surrogate pairs) into one arena.  Strict: one value and
 * nothing but white space after it, no comments, no trailing commas, no
 * NaN or Infinity, no control characters inside strings, valid UTF-8, no
 * leading zeros; nesting deeper than SS_JSON_MAX_DEPTH is refused.  Every
 * error names the file and the byte offset where the text went wrong.
 * Duplicate object keys are kept as written (ss_json_member finds the
 * first).
 */
#ifndef SS_JSON_H
#define SS_JSON_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "reader.h"
#include "vec.h"

/* Deepest nesting of arrays and objects accepted. */
#define SS_JSON_MAX_DEPTH 512

/* SS_JSON_MAX_BYTES, the largest JSON text accepted, is in limits.h: the
 * speedscope writer refuses to write more. */
#include "limits.h"

/* "No node": a missing member, the end of a list of children. */
#define SS_JSON_NONE UINT32_MAX

enum ss_json_type {
    SS_JSON_NULL,
    SS_JSON_FALSE,
    SS_JSON_TRUE,
    SS_JSON_NUMBER,
    SS_JSON_STRING,
    SS_JSON_ARRAY,
    SS_JSON_OBJECT,
};

struct ss_json_node {
    uint8_t type;          /* enum ss_json_type */
    uint32_t off;          /* byte offset of the value in the text */
    uint32_t next;         /* next element or member of the parent, or SS_JSON_NONE */
    uint32_t key, key_len; /* an object member's key: offset and length in strs */
    union {
        double num; /* SS_JSON_NUMBER */
        struct {    /* SS_JSON_STRING: offset and length in strs */
            uint32_t off, len;
        } str;
        struct {               /* SS_JSON_ARRAY, SS_JSON_OBJECT */
            uint32_t first, n; /* first child (SS_JSON_NONE when empty), count */
        } kids;
    } u;
};

/* A parsed document: node 0 is the top-level value. */
struct ss_json {
    VEC(struct ss_json_node) nodes;
    VEC(char) strs; /* decoded strings, each followed by a NUL */
};

/* Parse p[0..n) into j (zeroed or freed before).  `path` names the file in
 * messages.  Returns 0, or SS_EINPUT ("PATH: byte N: ...") / SS_ENOMEM. */
int ss_json_parse(struct ss_json *j, const char *p, size_t n, const char *path,
                  struct ss_error *err);

/* Read the rest of the file behind r (whole: it must be at its start, as a
 * loader gets it) and parse it.  Files above SS_JSON_MAX_BYTES are refused. */
int ss_json_load(struct ss_json *j, struct ss_reader *r, const char *path, struct ss_error *err);

void ss_json_free(struct ss_json *j);

/* The one way a JSON format's loader reads its document: parse the file
 * behind r (ss_json_load), or p[0..n) when r is NULL (ss_json_parse), hand
 * the document to doc(ctx, j, path, err), free it and return doc's result
 * or the parse error. */
typedef int (*ss_json_doc_fn)(void *ctx, const struct ss_json *j, const char *path,
                              struct ss_error *err);
int ss_json_with(struct ss_reader *r, const char *p, size_t n, const char *path, ss_json_doc_fn doc,
                 void *ctx, struct ss_error *err);

static inline const struct ss_json_node *ss_json_at(const struct ss_json *j, uint32_t id)
{
    return &j->nodes.v[id];
}

/* The first member of object `obj` named `key`, or SS_JSON_NONE (also when
 * obj is not an object). */
uint32_t ss_json_member(const struct ss_json *j, uint32_t obj, const char *key);

/* The decoded string of a string node (NUL-terminated, borrowed; \u0000
 * is decoded as the four characters \x00, so it holds no NUL). */
const char *ss_json_string(const struct ss_json *j, uint32_t id, size_t *len);

/* The key of an object member (borrowed). */
const char *ss_json_key(const struct ss_json *j, uint32_t id, size_t *len);

/* Is node id a number that is a whole number in [lo, hi]?  Then *v is it. */
int ss_json_int(const struct ss_json *j, uint32_t id, int64_t lo, int64_t hi, int64_t *v);

/* The name of a node type, for messages ("a string", "an array"). */
const char *ss_json_type_name(int type);

/* ---- detection on a prefix of a file --------------------------------- */

/* Visit the members of the object that starts at p[pos] (after white
 * space), in order: fn gets the key's raw bytes (escapes not decoded) and
 * the position of its value, and returns 1 or 0 (decided: that is the
 * answer) or 2 (go on).  Returns the decision, 0 when the text there is not
 * a well-formed object as far as it goes or the object ends undecided, or
 * -1 when p[0..n) ends first and the file goes on (not `whole`). */
typedef int (*ss_json_member_fn)(void *ctx, const char *key, size_t klen, const unsigned char *p,
                                 size_t n, size_t vpos, int whole);
int ss_json_sniff_object(const unsigned char *p, size_t n, size_t pos, int whole,
                         ss_json_member_fn fn, void *ctx);

/* Skip the JSON value at p[*pos] (after white space): 1 and *pos past it,
 * 0 when malformed, -1 when p[0..n) ends inside it. */
int ss_json_skip(const unsigned char *p, size_t n, size_t *pos);

/* *pos past white space; 1 when a byte follows within n, else 0. */
int ss_json_ws(const unsigned char *p, size_t n, size_t *pos);

#endif
