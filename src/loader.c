/* loader.c - what the loaders share with the front door (see loader.h):
 * saying how a file changed while it was read, and reporting progress.
 * It depends on no format, so that the loaders, which the format table
 * (format.c) names, and the front door (load.c), which reads that table,
 * form no circle. */
#include "loader.h"

#include <stdio.h>
#include <string.h>

#include "reader.h"

/* ---- a file that changed while it was read -------------------------------- */

/* Add to err's message (a loader's error) that the file changed. */
static void add_change(struct ss_error *err, const char *path, const char *what)
{
    size_t k = strlen(err->msg);
    if (k < sizeof err->msg)
        snprintf(err->msg + k, sizeof err->msg - k, " (%s %s while it was read)", path, what);
}

int ss_load_changed(struct ss_model *m, struct ss_reader *r, const char *path, uint64_t before,
                    int whole, int rc, struct ss_error *err)
{
    struct ss_change c;
    ss_reader_changed(r, &c);
    unsigned long long was = c.was, now = c.now;
    /* a file parsed whole may have been parsed after it shrank, through a
     * mapping that then read zeros past its new end without a fault (a cut
     * in its last page); a load that failed on a file that shrank most
     * likely failed because it did (the format's detection saw zeros) */
    whole |= r->read_whole;
    if (c.kind == SS_CHANGE_SHRANK && (whole || rc)) /* rc: the likely cause */
        c.kind = SS_CHANGE_CUT;
    switch (c.kind) {
    case SS_CHANGE_NONE:
        return rc;
    case SS_CHANGE_CUT: {
        /* what a whole-file format parsed was not the file; a failed line
         * format failed because its input ended early.  Bytes lost from a
         * file as long as before: cut and written again, or an I/O error
         * (a mapped page that cannot be read faults as a cut one does). */
        char what[160];
        snprintf(what, sizeof what, "%s (it had %llu bytes, now %llu)",
                 now < was ? "cut while being read" : "changed or unreadable while being read", was,
                 now);
        if (rc || whole)
            return ss_fail(err, SS_EINPUT, "%s: %s: load it again to read what it holds now", path,
                           what);
        ss_model_warn(m,
                      "%s: %s: kept the %llu sample%s of the whole lines before the cut (its "
                      "first %llu bytes); load it again to read what it holds now",
                      path, what, (unsigned long long)(m->count_total - before),
                      ss_s(m->count_total - before), (unsigned long long)c.kept);
        return 0;
    }
    case SS_CHANGE_SHRANK:
        ss_model_warn(m,
                      "%s: cut to %llu bytes just after it was read (it had %llu): the "
                      "profile is the whole file as it was",
                      path, now, was);
        return rc;
    case SS_CHANGE_REPLACED:
        if (rc)
            add_change(err, path, "was replaced");
        else
            ss_model_warn(m,
                          "%s: replaced or removed while being read: the profile is the file "
                          "that was there when it was opened",
                          path);
        return rc;
    case SS_CHANGE_GREW:
        if (rc)
            add_change(err, path, "grew");
        else
            ss_model_warn(m,
                          "%s: grew while being read (it had %llu bytes, now %llu): read what "
                          "it held when it was opened, its first %llu bytes (a last line it was "
                          "still writing left out); load it again for the rest",
                          path, was, now, was);
        return rc;
    case SS_CHANGE_MODIFIED:
        if (rc)
            add_change(err, path, "was modified");
        else
            ss_model_warn(m,
                          "%s: modified while being read (its size the same): the profile may "
                          "mix its old and new contents; load it again",
                          path);
        return rc;
    }
    return rc;
}

/* ---- progress ------------------------------------------------------------ */

void ss_load_progress(const struct ss_reader *r, const char *path, uint64_t done, uint64_t total,
                      uint64_t samples)
{
    const struct ss_load_opts *o = r ? r->opts : NULL;
    if (!o || !o->progress)
        return;
    struct ss_progress p = {path, done, total, samples, r->file, r->nfiles ? r->nfiles : 1};
    o->progress(o->progress_ctx, &p);
}
