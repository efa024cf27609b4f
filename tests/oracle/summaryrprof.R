# R's own answers for one Rprof file, as TSV, for tests/oracle.sh.
#
#   LC_ALL=C Rscript tests/oracle/summaryrprof.R FILE OUTDIR
#
# Runs utils::summaryRprof(FILE) in these modes and writes to OUTDIR:
#   default  summaryRprof(FILE)                  -> self.tsv, total.tsv
#   line     lines = "show"   (line profiling)   -> line.tsv (by.line)
#   mem      memory = "both"  (memory profiling) -> mem_self.tsv, mem_total.tsv
# and info.tsv: one row per mode that ran: mode status sample.interval
# sampling.time. The header line decides the modes exactly as summaryRprof
# does: memory if it starts with "memory", line if it contains "line profiling".
#
# Every table has the columns  name self.time self.pct total.time total.pct
# [mem.total]  in that order, rows in R's order; name is R's row name with one
# pair of surrounding double quotes removed ("lm" -> lm); numbers are
# sprintf("%.15g") of what R returned (R has already rounded them).
#
# mem runs with a single chunk (chunksize = -1): with the default 5000-line
# chunks R restarts the memory differencing at every chunk, which stackscope
# deliberately does not do (stackscope(1), DIFFERENCES FROM summaryRprof).
# Counts do not depend on the chunk size, so the other modes keep R's default.
#
# A mode where summaryRprof fails writes <mode>.error (R's message) instead of
# its tables; warnings go to <mode>.warnings. Exit status 0 unless the
# arguments are wrong.

args <- commandArgs(trailingOnly = TRUE)
if (length(args) != 2L) {
  cat("usage: Rscript summaryrprof.R FILE OUTDIR\n", file = stderr())
  quit(status = 1L)
}
infile <- args[[1L]]
outdir <- args[[2L]]
invisible(Sys.setlocale("LC_COLLATE", "C"))
dir.create(outdir, showWarnings = FALSE, recursive = TRUE)

out_path <- function(name) file.path(outdir, name)

num <- function(x) sprintf("%.15g", x)

unquote <- function(x) sub("^\"(.*)\"$", "\\1", x, useBytes = TRUE)

write_lines <- function(lines, name) {
  con <- file(out_path(name), open = "wb")
  on.exit(close(con))
  writeLines(lines, con, useBytes = TRUE)
}

# One of summaryRprof's data frames -> TSV with the fixed column order.
write_table <- function(df, name, with_mem = FALSE) {
  cols <- c("self.time", "self.pct", "total.time", "total.pct")
  if (with_mem) cols <- c(cols, "mem.total")
  body <- if (nrow(df) > 0L) {
    fields <- c(list(unquote(rownames(df))),
                lapply(cols, function(cl) num(df[[cl]])))
    do.call(paste, c(fields, sep = "\t"))
  } else character(0)
  write_lines(c(paste(c("name", cols), collapse = "\t"), body), name)
}

info <- character(0)

# Runs summaryRprof with the given arguments; on success calls write(result).
run_mode <- function(mode, write, ...) {
  warns <- character(0)
  res <- tryCatch(
    withCallingHandlers(summaryRprof(infile, ...),
      warning = function(w) {
        warns <<- c(warns, conditionMessage(w))
        invokeRestart("muffleWarning")
      }),
    error = function(e) e)
  if (length(warns)) write_lines(warns, paste0(mode, ".warnings"))
  if (inherits(res, "error")) {
    write_lines(conditionMessage(res), paste0(mode, ".error"))
    info <<- c(info, paste(mode, "error", "NA", "NA", sep = "\t"))
    return(invisible(NULL))
  }
  write(res)
  info <<- c(info, paste(mode, "ok", num(res$sample.interval),
                         num(res$sampling.time), sep = "\t"))
}

firstline <- tryCatch(readLines(infile, n = 1L, warn = FALSE),
                      error = function(e) character(0))
has_memory <- length(firstline) == 1L && startsWith(firstline, "memory")
has_line <- length(firstline) == 1L && grepl("line profiling", firstline,
                                             fixed = TRUE)

run_mode("default", function(r) {
  write_table(r$by.self, "self.tsv")
  write_table(r$by.total, "total.tsv")
})
if (has_line)
  run_mode("line", function(r) write_table(r$by.line, "line.tsv"),
           lines = "show")
if (has_memory)
  run_mode("mem", function(r) {
    write_table(r$by.self, "mem_self.tsv", with_mem = TRUE)
    write_table(r$by.total, "mem_total.tsv", with_mem = TRUE)
  }, memory = "both", chunksize = -1L)

write_lines(c(paste("mode", "status", "sample.interval", "sampling.time",
                    sep = "\t"), info), "info.tsv")
