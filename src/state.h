/* state.h - the explorer's session state: the transform list of the last
 * session on a set of input files, kept so that quitting never loses work
 * (`stackscope --resume FILE...` and `:resume` apply it again).
 *
 * One file per set of inputs, named by a hash of their absolute paths (in
 * the order given), under $XDG_STATE_HOME/stackscope/ (an unset, empty or
 * relative XDG_STATE_HOME means ~/.local/state, as the XDG base directory
 * specification says).  It is a transform script (--script reads it) whose
 * comment lines name the inputs.  It is never written beside an input, and
 * it is replaced atomically (write.h's ss_write_with). */
#ifndef SS_STATE_H
#define SS_STATE_H

#include <stddef.h>

#include "error.h"
#include "transform.h"

/* The state file of inputs files[0..n) into buf (n bytes).  Returns 0, or
 * SS_EUSAGE when neither XDG_STATE_HOME nor HOME gives a directory, or the
 * path does not fit. */
int ss_state_path(char *const *files, int n, char *buf, size_t len, struct ss_error *err);

/* Save the script of list l (ss_tf_script) as the state of files[0..n),
 * creating the directories (mode 0700) as needed.  Returns 0 or an error
 * code with err naming the file. */
int ss_state_save(char *const *files, int n, const struct ss_tf_list *l, struct ss_error *err);

/* Append the saved transform list of files[0..n) to l as one undo step.
 * Returns 0; SS_EINPUT when there is no saved list ("no saved session for
 * ...") or it cannot be read or parsed. */
int ss_state_load(char *const *files, int n, struct ss_tf_list *l, struct ss_error *err);

#endif
