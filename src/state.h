/* state.h - the explorer's session state: the transform list of the last
 * session on a set of input files, kept so that quitting never loses work
 * (`stackscope --resume FILE...` and `:resume` apply it again).
 *
 * One file per set of inputs, named by a hash of their absolute paths (in
 * the order given), under $XDG_STATE_HOME/stackscope/ (an unset, empty or
 * relative XDG_STATE_HOME means ~/.local/state, as the XDG base directory
 * specification says).  It is a transform script (--script reads it) whose
 * comment lines name the inputs (escaped: a name never adds a line).  It
 * is never written beside an input, it is replaced atomically, and it is
 * used only in a directory nobody else can change (state.c). */
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
 * creating the directories (mode 0700) as needed.  Returns 0, also when
 * the state directory is not safe (a link, another user's, or writable by
 * others: see state.c), then with nothing written and `warn` (wn bytes)
 * saying why ("" when saved); or an error code with err naming the file
 * (a write failed). */
int ss_state_save(char *const *files, int n, const struct ss_tf_list *l, char *warn, size_t wn,
                  struct ss_error *err);

/* Append the saved transform list of files[0..n) to l as one undo step.
 * Returns SS_EINPUT when there is no saved list ("no saved session for
 * ..."); else 0, also when the state directory is not safe or the state
 * file is not a regular file of at most 1 MiB or does not parse: then l
 * is left as it was and `warn` (wn bytes) says why ("" when appended). */
int ss_state_load(char *const *files, int n, struct ss_tf_list *l, char *warn, size_t wn,
                  struct ss_error *err);

#endif
