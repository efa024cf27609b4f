# Does R's summaryRprof read two Rprof files the same way?  For
# tests/formats.sh: the input of `stackscope convert --to rprof` and its
# output, one session at a time.
#
#   LC_ALL=C Rscript tests/oracle/rprof_same.R LIST
#
# LIST is a tab-separated file without header: label, file A, file B.  For
# each pair, the modes summaryRprof supports for A's header (the same rules
# as tests/oracle/summaryrprof.R) are run on both files:
#   default                          by.self, by.total (always)
#   lines = "show"                   by.line (line profiling)
#   memory = "both", chunksize = -1  by.self, by.total with mem.total (memory)
# and the whole results (tables with R's row names and rounding, interval,
# sampling time) must be identical(); a mode that fails must fail on both
# with the same message.  Prints "PASS label (modes)" or "FAIL label: why"
# per pair; exit status 1 if any failed.

args <- commandArgs(trailingOnly = TRUE)
if (length(args) != 1L) {
  cat("usage: Rscript rprof_same.R LIST\n", file = stderr())
  quit(status = 2L)
}
invisible(Sys.setlocale("LC_COLLATE", "C"))
pairs <- read.delim(args[[1L]], header = FALSE, quote = "", comment.char = "",
                    colClasses = "character", col.names = c("label", "a", "b"))

run <- function(file, ...) {
  tryCatch(suppressWarnings(summaryRprof(file, ...)),
           error = function(e) paste("error:", conditionMessage(e)))
}

failed <- 0L
for (i in seq_len(nrow(pairs))) {
  a <- pairs$a[i]
  b <- pairs$b[i]
  first <- readLines(a, n = 1L, warn = FALSE)
  modes <- list(default = list())
  if (length(first) && grepl("line profiling", first, fixed = TRUE))
    modes$lines <- list(lines = "show")
  if (length(first) && startsWith(first, "memory"))
    modes$memory <- list(memory = "both", chunksize = -1L)
  bad <- character(0)
  for (m in names(modes)) {
    ra <- do.call(run, c(list(a), modes[[m]]))
    rb <- do.call(run, c(list(b), modes[[m]]))
    if (!identical(ra, rb)) {
      why <- if (is.character(ra) || is.character(rb)) {
        paste0("A: ", substr(paste(format(ra), collapse = " "), 1, 80),
               " / B: ", substr(paste(format(rb), collapse = " "), 1, 80))
      } else {
        paste(all.equal(ra, rb), collapse = "; ")
      }
      bad <- c(bad, paste0(m, ": ", why))
    }
  }
  if (length(bad)) {
    failed <- failed + 1L
    cat("FAIL ", pairs$label[i], ": ", paste(bad, collapse = " | "), "\n", sep = "")
  } else {
    cat("PASS ", pairs$label[i], " (", paste(names(modes), collapse = ", "), ")\n", sep = "")
  }
}
quit(status = if (failed) 1L else 0L)
