/* tables.c - the v2 tables format's shared facts (see tables.h). */
#include "tables.h"

#include <stdio.h>
#include <string.h>

#include "model.h"
#include "vec.h"

/* Every file ss_write_tables may write: write.c replaces a directory only
 * when it holds nothing else (and meta.tsv), and removes only these. */
static const char *const table_files[] = {
    "meta.tsv",          "sources.tsv",    "value_types.tsv",        "samples.tsv",
    "sample_values.tsv", "stacks.tsv",     "sample_locations.tsv",   "locations.tsv",
    "functions.tsv",     "aggregates.tsv", "call_edges.tsv",         "labels.tsv",
    "source_lines.tsv",  "mappings.tsv",   "location_addresses.tsv",
};

/* The names of the SS_MAP_* and SS_LOC_* bits, bit k at k. */
const char *const ss_tables_map_flags[SS_TABLES_MAP_FLAGS] = {"functions", "filenames",
                                                              "line_numbers", "inline_frames"};
const char *const ss_tables_loc_flags[SS_TABLES_LOC_FLAGS] = {"inline", "no_line", "unnamed"};

const char *ss_tables_file(size_t i)
{
    return i < ARRAY_SIZE(table_files) ? table_files[i] : NULL;
}

int ss_tables_is_file(const char *name)
{
    for (size_t i = 0; i < ARRAY_SIZE(table_files); i++)
        if (!strcmp(name, table_files[i]))
            return 1;
    return 0;
}

/* The source flags' names, in the order they are written. */
static const struct {
    uint32_t bit;
    const char *name;
} flag_names[] = {
    {SS_SRC_MEMORY, "memory"},       {SS_SRC_GC, "GC"},
    {SS_SRC_LINE, "line"},           {SS_SRC_AGGREGATE, "aggregate"},
    {SS_SRC_UNORDERED, "unordered"}, {SS_SRC_UNTIMED, "untimed"},
};

void ss_tables_flags_text(uint32_t flags, char *buf, size_t n)
{
    size_t k = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < ARRAY_SIZE(flag_names); i++)
        if (flags & flag_names[i].bit)
            k += (size_t)snprintf(buf + k, k < n ? n - k : 0, "%s%s", k ? "+" : "",
                                  flag_names[i].name);
    if (k == 0)
        snprintf(buf, n, "-");
}

int ss_tables_flags_parse(const char *s, size_t n, uint32_t *out, const char **bad, size_t *bad_len)
{
    *out = 0;
    if (n == 1 && s[0] == '-')
        return 0;
    for (size_t a = 0, b; a <= n; a = b + 1) {
        b = a;
        while (b < n && s[b] != '+')
            b++;
        size_t k = 0, nk = ARRAY_SIZE(flag_names);
        while (k < nk &&
               !(strlen(flag_names[k].name) == b - a && !memcmp(flag_names[k].name, s + a, b - a)))
            k++;
        if (k == nk) {
            *bad = s + a;
            *bad_len = b - a;
            return -1;
        }
        *out |= flag_names[k].bit;
    }
    return 0;
}
