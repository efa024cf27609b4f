/* speedscope.h - what speedscope's reader (load_speedscope.c) and writer
 * (write_speedscope.c) share: the file format's "$schema" value, which the
 * reader looks for and the writer writes.  Its own header, so that neither
 * needs the format table (format.h) for it. */
#ifndef SS_SPEEDSCOPE_H
#define SS_SPEEDSCOPE_H

#define SS_SPEEDSCOPE_SCHEMA "https://www.speedscope.app/file-format-schema.json"

#endif
