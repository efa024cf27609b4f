/* load_tables.h - the v2 tables reader (the format: tables.h). */
#ifndef SS_LOAD_TABLES_H
#define SS_LOAD_TABLES_H

#include "model.h"

/* Read the tables in directory `dir` into m (sources appended after those
 * already there).  Returns 0, or an error code with err naming the file and
 * line (a missing file, a bad header, an id out of range, a bad number). */
int ss_load_tables(struct ss_model *m, const char *dir, struct ss_error *err);

#endif
