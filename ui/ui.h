/* ui.h - the interactive explorer's entry point (stackscope(1), THE EXPLORER).
 *
 * cli/main.c hands this to the command line (ss_cli_main) so that the core
 * library never links curses.  The UI takes over a loaded, sealed model and
 * shows it in a terminal, or, when the environment variable
 * STACKSCOPE_SCRIPT names a script, runs headless on a virtual screen with
 * the keys and commands of the script (the tests and the benchmark).
 */
#ifndef UI_UI_H
#define UI_UI_H

#include "explore.h"

/* Explore in->model (stackscope(1), THE EXPLORER) with everything else the
 * command line gives (explore.h).  The UI takes over in->model, in->base
 * and in->start (it frees them, whatever it returns); the rest is borrowed.
 * On the way out the transform list is kept in the session state file
 * (state.h).  Returns the exit status: 0, 1 (a bad script or terminal), 2
 * (an error) or 128 + signal. */
int ss_ui_main(struct ss_explore *in);

/* Can the UI run here: a script in STACKSCOPE_SCRIPT, or a terminal on stdin
 * and stdout that can move the cursor?  Otherwise the command line prints a
 * report (for a terminal that cannot, TERM=dumb or Emacs' shell, after a
 * note on stderr). */
int ss_ui_available(void);

#endif
