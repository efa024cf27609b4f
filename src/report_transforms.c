/* report_transforms.c - the transform list and each step's effect (see
 * report_transforms.h).  Columns: the step number, whether it is enabled,
 * samples entering and leaving it, samples it left with no frames, frames it
 * removed (summed over samples), distinct stacks it changed, functions its
 * names matched, levels trim-base removed, and the command's canonical
 * text. */
#include "report_transforms.h"

#include "stats.h"
#include "textesc.h"
#include "transform.h"

int ss_report_transforms(FILE *out, const struct ss_model *m, const struct ss_report_opts *o,
                         struct ss_error *err)
{
    const struct ss_tf_list *l = o->transforms;
    size_t n = l ? ss_tf_count(l) : 0;
    int tsv = o->format == SS_FORMAT_TSV;
    struct ss_esc esc = SS_ESC_INIT(tsv ? SS_ESC_TSV : SS_ESC_TEXT); /* commands quote names */
    if (tsv) {
        fputs("step\tenabled\tsamples_in\tsamples_out\tsamples_emptied\tframes_removed\t"
              "stacks_changed\tfunctions_matched\tlevels_removed\tcommand\n",
              out);
    } else {
        ss_report_header(out, m);
        fprintf(out, "%4s %3s %11s %11s %8s %14s %7s %9s %6s  %s\n", "step", "on", "samples.in",
                "samples.out", "emptied", "frames.removed", "stacks", "functions", "levels",
                "command");
    }
    for (size_t i = 0; i < n; i++) {
        const struct ss_tf_effect *e = ss_tf_effect(l, i);
        int on = ss_tf_enabled(l, i);
        if (tsv)
            fprintf(out, "%zu\t%d\t%zu\t%zu\t%zu\t%llu\t%zu\t%zu\t%zu\t%s\n", i + 1, on,
                    e->samples_in, e->samples_out, e->samples_emptied,
                    (unsigned long long)e->frames_removed, e->stacks_changed, e->functions_matched,
                    e->levels_removed, ss_esc(&esc, ss_tf_text(l, i)));
        else
            fprintf(out, "%4zu %3s %11zu %11zu %8zu %14llu %7zu %9zu %6zu  %s\n", i + 1,
                    on ? "yes" : "off", e->samples_in, e->samples_out, e->samples_emptied,
                    (unsigned long long)e->frames_removed, e->stacks_changed, e->functions_matched,
                    e->levels_removed, ss_esc(&esc, ss_tf_text(l, i)));
    }
    ss_esc_free(&esc);
    int simplify = 0;
    for (size_t i = 0; i < n; i++)
        simplify |= ss_tf_kind(l, i) == SS_TF_R_SIMPLIFY;
    if (!tsv && simplify) {
        /* what r-simplify merges: the list is part of its meaning */
        fputs("\nr-simplify merges the frames of:", out);
        for (size_t k = 0; ss_tf_r_machinery[k]; k++)
            fprintf(out, "%s %s", k ? "," : "", ss_tf_r_machinery[k]);
        fputs("\n(except an innermost frame, whose self time stays its own, and a frame with a "
              "source position)\n",
              out);
    }
    if (!tsv && n == 0)
        fputs("(no transforms: add them with -e COMMAND or --script FILE)\n", out);
    return 0;
}
