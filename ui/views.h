/* views.h - the list of views: one line per view (tig's VIEW_INFO).
 *
 * Everything the rest of the UI knows about a view comes from this table:
 * the enum (keys.h), the request that shows it and its help line (keys.h),
 * its key (keys.c), its ':' command and that command's help (command.c),
 * what argument it takes, and the registration of its vtable (app.h,
 * ui.c).  Adding a view is one line here plus its own file (and its line
 * in Makefile.am's UI_SOURCES); the view's name, flags and behaviour live
 * in its `struct ui_view_ops`.
 *
 * Columns:
 *   id     the enum suffix: UI_V_<id>, UI_REQ_VIEW_<id>
 *   ops    the view's `struct ui_view_ops` (defined in its own file)
 *   key    the key that shows it from anywhere
 *   cmd    the ':' command that shows it
 *   arg    what the view shows besides the profile, and so what `:cmd F`
 *          takes: NONE (`:cmd` ignores an argument), FOCUS (a function to
 *          focus on, none by default) or FUNCTION (one function: the
 *          argument, else the current function)
 *   help   the key's help line
 *   chelp  the command's help line
 * The order is the Tab order (a view with UI_VF_NO_CYCLE is skipped). */
#ifndef UI_VIEWS_H
#define UI_VIEWS_H

/* What a view takes as its argument (the `arg` column). */
enum ui_view_arg { UI_VA_NONE, UI_VA_FOCUS, UI_VA_FUNCTION };
#define UI_VA_ARGS_NONE ""
#define UI_VA_ARGS_FOCUS "[F]"
#define UI_VA_ARGS_FUNCTION "[F]"

/* The table reads best as a table. */
/* clang-format off */
/*  id          ops                 key  cmd           arg        help, chelp */
#define UI_VIEWS(_)                                                                                \
    _(FUNCTIONS,  ui_view_functions,  '1', "functions",  NONE,                                    \
      "functions: self and total time, runs", "show the functions view")                           \
    _(STACKS,     ui_view_stacks,     '2', "stacks",     NONE,                                    \
      "distinct stacks", "show the distinct stacks")                                               \
    _(TOPDOWN,    ui_view_topdown,    '3', "tree",       FOCUS,                                   \
      "top-down call tree", "the top-down tree (of F: what F calls)")                              \
    _(BOTTOMUP,   ui_view_bottomup,   '4', "bottom-up",  FOCUS,                                   \
      "bottom-up call tree", "the bottom-up tree (of F: what calls F)")                            \
    _(CALLS,      ui_view_calls,      '5', "calls",      FUNCTION,                                \
      "callers and callees of the current function",                                               \
      "callers and callees of F (default: the current function)")                                  \
    _(TIMELINE,   ui_view_timeline,   '6', "timeline",   NONE,                                    \
      "timeline", "show the timeline")                                                             \
    _(PHASES,     ui_view_phases,     'O', "phases",     NONE,                                    \
      "phases: burn-in, main work, fade-out, found for you",                                       \
      "show the phases the detector found")                                                        \
    _(LEVELS,     ui_view_levels,     '7', "levels",     NONE,                                    \
      "levels, the scaffold marked", "show the levels")                                            \
    _(RUNS,       ui_view_runs,       '8', "runs",       FUNCTION,                                \
      "run lengths of the current function",                                                       \
      "run lengths of F (default: the current function)")                                          \
    _(LINES,      ui_view_lines,      '9', "lines",      NONE,                                    \
      "source lines", "show the source lines")                                                     \
    _(SOURCES,    ui_view_sources,    '0', "sources",    NONE,                                    \
      "sources (files and Rprof sessions)", "show the sources")                                    \
    _(FLAME,      ui_view_flame,      'F', "flame",      NONE,                                    \
      "flame graph (icicle) of the stacks", "show the flame graph")                                \
    _(SANDWICH,   ui_view_sandwich,   'W', "sandwich",   FUNCTION,                                \
      "sandwich: the current function's callers above it, its callees below",                     \
      "callers above and callees below F (default: the current function)")                         \
    _(LABELS,     ui_view_labels,     '#', "labels",     NONE,                                    \
      "labels (pprof, perf): samples per key and value", "show the labels")                        \
    _(TRANSFORMS, ui_view_transforms, 'T', "transforms", NONE,                                    \
      "the transform list", "show the transform list")                                             \
    _(HELP,       ui_view_help,       '?', "help",       NONE,                                    \
      "this help", "show the help")
/* clang-format on */

#endif
